#!/usr/bin/env python3
"""Inputs and expected values for `pgnmill convert` on what the vector files
lack: variations, and games that stop at an illegal move
(tests/xiangqi/xiangqi_convert_lines.rs).

Independent of pgnmill: every move is a pyffish 0.0.90 legal move (UCI,
ranks 1-10, written here in ICCS with ranks 0-9), and its Chinese text is
cchess's (`ChessBoard(fen).move_iccs(iccs).to_text()`, full-width digits
turned into ASCII, as the vectors' README describes), checked against
pyffish's legality. A move whose Chinese text is contested (a pawn on a file
with another pawn of its side, where the conventions differ:
docs/xiangqi-notation.md) is never chosen for a variation.

1. variations-iccs.pgn / variations-chinese.pgn: games g0000..g0007 of
   testdata/xiangqi/notation/games.csv, the first 30 plies of each as the
   main line, the same games in ICCS and in Chinese. Variations branch at
   plies 3, 8, 15 and 22 (an alternative to that main-line move): the
   first legal move in pyffish's order that differs from the main move and
   is not contested, then three more such moves; the variation at ply 8
   has a variation of its own at its second move (two moves long). Comments
   and NAGs sit between the moves. In odd games the variation at ply 22
   has an illegal third move (a move of a point with no piece, pyffish:
   not legal): the conversion of that variation stops there.

2. stops-iccs.pgn: games g0010..g0015, main line in ICCS, with a variation
   at ply 4, and an illegal move (pyffish: not legal) at ply 7 + game
   index; the game's own next move follows it as written.

Main-line moves take their Chinese from games.csv (the vectors' converter,
which the vector tests hold pgnmill to); the generator checks that cchess
writes the same wherever the move is not contested.

Expected (testdata/xiangqi/convert-expected.json):
  "variations": per game, "tokens": every move token in the order of the
  text, {"iccs", "chinese"} for moves, {"as_written"} for those after a
  variation's stop; "stops": the 1-based plies where a variation stops.
  "stops": per game, "ply" and "token" of the illegal move.

Run:  python3 testdata/gen/xiangqi_convert_expected.py
"""

import csv
import json
import os
import re
import textwrap

import cchess
import pyffish

HERE = os.path.dirname(os.path.abspath(__file__))
TD = os.path.join(HERE, "..")
OUT_DIR = os.path.join(TD, "xiangqi", "convert")
EXPECTED = os.path.join(TD, "xiangqi", "convert-expected.json")
FULL = "０１２３４５６７８９"


def iccs(uci):
    """pyffish UCI (ranks 1-10) to ICCS (ranks 0-9)."""
    a, ra, b, rb = re.match(r"([a-i])(\d+)([a-i])(\d+)", uci).groups()
    return f"{a}{int(ra) - 1}{b}{int(rb) - 1}"


def chinese(fen, moves, uci):
    """cchess's Chinese text of `uci` after `moves` from `fen`."""
    board = cchess.ChessBoard(pyffish.get_fen("xiangqi", fen, moves))
    text = board.move_iccs(iccs(uci)).to_text()
    return "".join(str(FULL.index(c)) if c in FULL else c for c in text)


def contested(fen, moves, uci):
    """Whether `uci` moves a pawn that shares its file with another pawn of
    its side (where Chinese conventions differ)."""
    grid = board_grid(pyffish.get_fen("xiangqi", fen, moves))
    f, r = ord(uci[0]) - 97, int(re.match(r"[a-i](\d+)", uci).group(1))
    piece = grid[10 - r][f]
    if piece.lower() != "p":
        return False
    return sum(1 for row in grid if row[f] == piece) > 1


def board_grid(fen):
    """The board of a FEN as ten rows of nine characters ('.' empty), the
    top rank (10) first."""
    grid = []
    for row in fen.split()[0].split("/"):
        line = []
        for ch in re.findall(r"\d+|.", row):
            line += ["."] * int(ch) if ch.isdigit() else [ch]
        grid.append(line)
    return grid


def pick(fen, moves, avoid, n):
    """`n` moves from the position after `moves`: each the first legal move
    (pyffish's order) that is not `avoid` (for the first) and not contested."""
    line = []
    for i in range(n):
        legal = pyffish.legal_moves("xiangqi", fen, moves + line)
        choice = next(
            (m for m in legal if not (i == 0 and m == avoid) and not contested(fen, moves + line, m)),
            None,
        )
        if choice is None:
            break
        line.append(choice)
    return line


def illegal(fen, moves):
    """A move from a point with no piece (never legal), in UCI."""
    grid = board_grid(pyffish.get_fen("xiangqi", fen, moves))
    legal = set(pyffish.legal_moves("xiangqi", fen, moves))
    for r in range(1, 11):
        for f in "abcdefghi":
            m = f"{f}{r}e5" if f"{f}{r}" != "e5" else f"{f}{r}e6"
            if grid[10 - r][ord(f) - 97] == "." and m not in legal:
                return m
    raise RuntimeError("no empty point")


def number(ply, first):
    """The move number before a move at 0-based `ply` (from white's turn):
    `N.` for red, `N...` for black when it starts a line."""
    n = ply // 2 + 1
    if ply % 2 == 0:
        return f"{n}. "
    return f"{n}... " if first else ""


class Writer:
    """The movetext of one game in one notation."""

    def __init__(self, fen, notation, main_chinese):
        self.fen = fen
        self.notation = notation
        self.main_chinese = main_chinese
        self.parts = []

    def move(self, moves, uci, ply, first, as_written=None):
        self.parts.append(number(ply, first))
        if as_written is not None:
            self.parts.append(as_written + " ")
        elif self.notation == "iccs":
            self.parts.append(iccs(uci) + " ")
        else:
            self.parts.append(expected_token(self.fen, moves, uci, self.main_chinese)["chinese"] + " ")

    def text(self, s):
        self.parts.append(s)


def expected_token(fen, moves, uci, main_chinese):
    """A move's ICCS and Chinese text. Main-line moves take games.csv's
    Chinese (the vectors' converter, which follows xqbase where cchess and
    it differ on pawn stacks); where the move is not contested, cchess must
    agree."""
    text = chinese(fen, moves, uci)
    main = main_chinese.get(tuple(moves + [uci]))
    if main is not None:
        assert contested(fen, moves, uci) or main == text, (main, text)
        text = main
    return {"iccs": iccs(uci), "chinese": text}


def variation_game(row, odd):
    """The two texts (ICCS, Chinese) of one game with variations, and its
    expected tokens and stops."""
    fen = row["start_fen"]
    assert fen.split()[1] == "w", "games from red's turn only"
    main = [m for m in row["moves_iccs"].split()][:30]
    # games.csv holds ICCS (ranks 0-9): pyffish UCI has ranks 1-10.
    main = [f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}" for m in main]
    for k in range(len(main)):
        assert main[k] in pyffish.legal_moves("xiangqi", fen, main[:k])
    main_chinese = {tuple(main[: k + 1]): c for k, c in enumerate(row["moves_chinese"].split()[:30])}
    writers = [Writer(fen, "iccs", main_chinese), Writer(fen, "chinese", main_chinese)]
    tokens = []
    stops = []
    branch_at = {3: 4, 8: 4, 15: 4, 22: 4}
    for k, m in enumerate(main):
        for w in writers:
            w.move(main[:k], m, k, k == 0)
        tokens.append(expected_token(fen, main[:k], m, main_chinese))
        if k % 5 == 1:
            for w in writers:
                w.text("{a comment (with parentheses)} $1 ")
        ply = k + 1
        if ply not in branch_at:
            continue
        alt = pick(fen, main[:k], main[k], branch_at[ply])
        assert len(alt) == branch_at[ply]
        for w in writers:
            w.text("(")
        bad_at = 2 if (odd and ply == 22) else None
        for i, a in enumerate(alt):
            before = main[:k] + alt[:i]
            if bad_at is not None and i >= bad_at:
                if i == bad_at:
                    bad = illegal(fen, before)
                    stops.append(k + i + 1)
                    for w in writers:
                        w.move(before, bad, k + i, i == 0, as_written=iccs(bad))
                    tokens.append({"as_written": iccs(bad)})
                continue
            for w in writers:
                w.move(before, a, k + i, i == 0)
            tokens.append(expected_token(fen, before, a, main_chinese))
            if ply == 8 and i == 1:
                # A variation of the variation: an alternative to its
                # second move.
                sub = pick(fen, before, a, 2)
                assert len(sub) == 2
                for w in writers:
                    w.text("(")
                for j, s in enumerate(sub):
                    for w in writers:
                        w.move(before + sub[:j], s, k + i + j, j == 0)
                    tokens.append(expected_token(fen, before + sub[:j], s, main_chinese))
                for w in writers:
                    w.text(") ")
        for w in writers:
            w.text(") ")
    for w in writers:
        w.text("*")
    return ["".join(w.parts) for w in writers], {"tokens": tokens, "stops": stops}


def stop_game(row, index):
    fen = row["start_fen"]
    assert fen.split()[1] == "w"
    main = [f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}" for m in row["moves_iccs"].split()][:20]
    at = 7 + index  # 1-based ply of the illegal move
    moves = main[: at - 1]
    bad = illegal(fen, moves)
    assert bad not in pyffish.legal_moves("xiangqi", fen, moves)
    w = Writer(fen, "iccs", {})
    for k, m in enumerate(moves):
        w.move(moves[:k], m, k, k == 0)
        if k == 3:
            alt = pick(fen, moves[:k], m, 2)
            w.text("(")
            for i, a in enumerate(alt):
                w.move(moves[:k] + alt[:i], a, k + i, i == 0)
            w.text(") ")
    w.move(moves, bad, at - 1, at == 1, as_written=iccs(bad))
    # A move after it, as the original had one.
    w.move(moves, main[at - 1], at, False, as_written=iccs(main[at - 1]))
    w.text("*")
    return "".join(w.parts), {"ply": at, "token": iccs(bad)}


def wrap(text):
    """Lines of at most 78 characters, broken at spaces."""
    return textwrap.fill(text, 78, break_long_words=False, break_on_hyphens=False)


def main():
    rows = list(csv.DictReader(open(os.path.join(TD, "xiangqi", "notation", "games.csv"), encoding="utf-8")))
    by_id = {r["game_id"]: r for r in rows}
    os.makedirs(OUT_DIR, exist_ok=True)
    texts = {"iccs": [], "chinese": []}
    expected = {"variations": [], "stops": []}
    for i in range(8):
        gid = f"g{i:04d}"
        (t_iccs, t_chinese), exp = variation_game(by_id[gid], i % 2 == 1)
        head = f'[Game "Chinese Chess"]\n[Event "variations {gid}"]\n[Result "*"]\n\n'
        texts["iccs"].append(head + wrap(t_iccs) + "\n")
        texts["chinese"].append(head + wrap(t_chinese) + "\n")
        exp["game"] = gid
        expected["variations"].append(exp)
    for name, games in texts.items():
        with open(os.path.join(OUT_DIR, f"variations-{name}.pgn"), "w", encoding="utf-8") as f:
            f.write("\n".join(games))
    stops = []
    for i in range(6):
        gid = f"g{i + 10:04d}"
        text, exp = stop_game(by_id[gid], i)
        stops.append(f'[Game "Chinese Chess"]\n[Event "stops {gid}"]\n[Result "*"]\n\n' + wrap(text) + "\n")
        exp["game"] = gid
        expected["stops"].append(exp)
    with open(os.path.join(OUT_DIR, "stops-iccs.pgn"), "w", encoding="utf-8") as f:
        f.write("\n".join(stops))
    with open(EXPECTED, "w", encoding="utf-8") as f:
        json.dump(expected, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
