#!/usr/bin/env python3
"""Expected per-ply rows and clock facts of xiangqi games (issue 33), for
tests/xiangqi/xiangqi_plies.rs. Independent of pgnmill:

- the games: the first 40 plies of the first five seeded random games of
  testdata/xiangqi/notation/games.csv (pyffish-made; their ICCS and official
  WXF moves come from the vectors' own converter), and a constructed game of
  horse moves back and forth that repeats the start position, every move
  checked legal by pyffish 0.0.90;
- the movetext: written here, in ICCS for the first four games and in the
  official WXF for the fifth, with `[%clk]` comments on most plies (every
  fifth ply has none), an `[%eval]` on every seventh and an `[%emt]` on
  every eleventh, and a variation holding a clock that belongs to no
  main-line move;
- the rows: `san` is the official WXF of games.csv (pgnmill writes WXF for
  a xiangqi game's `san`), `uci` the ICCS, `fen` pyffish's `get_fen` after
  the move, `repetition` how often pyffish's FEN fields 1-2 (board, side to
  move) have occurred, the start included; the commands are what
  python-chess's own `GameNode.clock()`, `emt()`, `eval()` and
  `eval_depth()` read from each comment (a bare node carrying it);
- the game facts: Red's clocks (the `white_*` columns) and Black's, first,
  last, lowest and time used (with the [TimeControl "600+5"] increment),
  the plies with a clock or an eval, the last eval. Xiangqi has no
  threefold claim column, so no clock at the claim.

Run:  python3 testdata/gen/xiangqi_plies_expected.py
Writes testdata/xiangqi/clocks-plies.pgn and
testdata/xiangqi/clocks-plies-expected.json.
"""

import csv
import json
import os

import chess.pgn
import pyffish

HERE = os.path.dirname(os.path.abspath(__file__))
TD = os.path.join(HERE, "..")
GAMES = os.path.join(TD, "xiangqi", "notation", "games.csv")
PGN = os.path.join(TD, "xiangqi", "clocks-plies.pgn")
OUT = os.path.join(TD, "xiangqi", "clocks-plies-expected.json")
START = pyffish.start_fen("xiangqi")
INCREMENT = 5000
# The first plies of each random game are enough.
PLIES = 40


def to_pyffish(iccs):
    """ICCS (ranks 0-9) to pyffish's UCI (ranks 1-10)."""
    return iccs[0] + str(int(iccs[1]) + 1) + iccs[2] + str(int(iccs[3]) + 1)


def comment_for(ply):
    """The comment written after ply `ply` (1-based), or None."""
    parts = []
    if ply % 5 != 0:
        # Each side's clock goes down by 3 s a move, plus the increment.
        side_move = (ply + 1) // 2
        ms = 600000 - side_move * 3000 + (ply % 3) * 700
        parts.append(f"[%clk 0:{ms // 60000:02d}:{ms % 60000 // 1000:02d}.{ms % 1000 // 100}]")
    if ply % 7 == 0:
        parts.append(f"[%eval {(-1) ** ply * ply / 10:.2f},{ply}]" if ply % 14 else f"[%eval #{-ply // 14}]")
    if ply % 11 == 0:
        parts.append("[%emt 0:00:07]")
    return " ".join(parts) or None


def commands(text):
    """python-chess's reading of one comment."""
    node = chess.pgn.Game()
    node.comment = text or ""
    clock, emt = node.clock(), node.emt()
    pov = node.eval()
    cp = mate = None
    if pov is not None:
        white = pov.white()
        if white.is_mate():
            mate = white.mate()
        else:
            cp = white.score()
    depth = node.eval_depth() if pov is not None else None
    return (None if clock is None else round(clock * 1000),
            None if emt is None else round(emt * 1000), cp, mate, depth)


def side(clocks):
    if not clocks:
        return {"first": None, "last": None, "min": None, "time_used": None}
    values = [c for _, c in clocks]
    used = None
    if len(clocks) >= 2:
        used = sum(c0 - c1 + INCREMENT * ((p1 - p0) // 2)
                   for (p0, c0), (p1, c1) in zip(clocks, clocks[1:]))
    return {"first": values[0], "last": values[-1], "min": min(values), "time_used": used}


def main():
    with open(GAMES, newline="") as f:
        rows = [r for r in csv.DictReader(f)][:5]
    games = [(r["game_id"], r["moves_iccs"].split()[:PLIES], r["moves_wxf_official"].split()[:PLIES])
             for r in rows]
    # Horses out and back twice: the start position occurs three times.
    shuffle = "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9 b0c2".split()
    wxf = []
    fen = START
    for i, m in enumerate(shuffle):
        assert to_pyffish(m) in pyffish.legal_moves("xiangqi", fen, []), m
        wxf.append(None)
        fen = pyffish.get_fen("xiangqi", START, [to_pyffish(x) for x in shuffle[:i + 1]])
    games.append(("shuffle", shuffle, wxf))

    texts, expected = [], []
    for index, (gid, iccs, wxf_moves) in enumerate(games, start=1):
        notation = "WXF" if index == 5 else "ICCS"
        tokens, rows, seen = [], [], {" ".join(START.split()[:2]): 1}
        clocks = {0: [], 1: []}
        evals = []
        for ply, m in enumerate(iccs, start=1):
            if ply % 2 == 1:
                tokens.append(f"{(ply + 1) // 2}.")
            tokens.append(wxf_moves[ply - 1] if notation == "WXF" else m)
            text = comment_for(ply)
            if text:
                tokens.append("{" + text + "}")
            if ply == 3:
                tokens.append("( {[%clk 0:00:01]} 2... h7h0 {[%clk 0:00:02]} )")
            fen = pyffish.get_fen("xiangqi", START, [to_pyffish(x) for x in iccs[:ply]])
            key = " ".join(fen.split()[:2])
            seen[key] = seen.get(key, 0) + 1
            clock, emt, cp, mate, depth = commands(text)
            if clock is not None:
                clocks[(ply - 1) % 2].append((ply, clock))
            if cp is not None or mate is not None:
                evals.append((cp, mate))
            rows.append({"ply": ply, "san": wxf_moves[ply - 1], "uci": m, "fen": fen,
                         "clock_ms": clock, "emt_ms": emt, "eval_cp": cp, "eval_mate": mate,
                         "eval_depth": depth, "repetition": seen[key]})
        if gid == "shuffle":
            for r in rows:
                r["san"] = None  # pyffish writes no official WXF; not compared
        tags = (f'[Game "Chinese Chess"]\n[Event "clocks {gid}"]\n[Format "{notation}"]\n'
                f'[TimeControl "600+5"]\n[Result "*"]\n')
        texts.append(tags + "\n" + " ".join(tokens) + " *\n")
        last = evals[-1] if evals else (None, None)
        expected.append({
            "game": index, "id": gid, "plies": len(iccs),
            "clocks": {"white": side(clocks[0]), "black": side(clocks[1]),
                       "clock_plies": len(clocks[0]) + len(clocks[1]),
                       "eval_plies": len(evals), "eval_last_cp": last[0],
                       "eval_last_mate": last[1]},
            "rows": rows,
        })
    with open(PGN, "w", newline="") as f:
        f.write("\n".join(texts))
    with open(OUT, "w") as f:
        json.dump(expected, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
