#!/usr/bin/env python3
"""Expected xiangqi outcome columns (docs/xiangqi-rules.md, section 7).

Independent of pgnmill: every move is checked, and every position, check
and clock taken, from pyffish 0.0.90 (Fairy-Stockfish, variant "xiangqi"),
called with ICCS ranks converted to 1-10:

* `legal_moves` decides legality (self-check, flying general, a move from
  an empty point); an empty list at the end means checkmate or stalemate,
  told apart by `gives_check` (the side to move is in check);
* `gives_check` after each ply of the cycle of the first threefold says
  whether that ply's move gave check (for `perpetual_check`);
* `get_fen` validates the whole line in one call (it raises on an illegal
  move; a bisection finds the first one, and `legal_moves` confirms it) and
  gives the final position; the positions between come from a plain replay
  of the legal moves (docs/xiangqi-rules.md section 6 allows either), and
  `get_fen` checks that replay, board, side to move and the plies since the
  last capture (its halfmove field, which a pawn move does not reset: the
  count of `natural_limit_ply`), at the end, at every ply of the cycle of
  the first threefold and at the natural limit and the ply before. (Each
  pyffish call costs about 3 ms here, so one call per ply for all 2,516
  games would take the better part of an hour.)
* `is_optional_game_end` at the first threefold is a cross-check: where one
  side checked on every move of the cycle, pyffish must give that side the
  loss (the generator stops otherwise). Its chase verdicts and its own
  100-ply move limit are not used.

The wording of `result_conflict` is the spec's, written out here from the
spec's text.

Inputs: the 2,516 master games of testdata/xiangqi/outcomes/wukong-*.pgn
(copied from corpora/xiangqi/, ICCS, no results) and the constructed cases
below, which this script writes to testdata/xiangqi/outcomes/cases.pgn
(perpetual check by red, by black, by both, checks on only some moves,
stalemate and checkmate of either side with right and wrong results, a `*`
on a mate, flying-general and other illegal moves, the natural limit at
119/120/121 plies with and without a [FEN] clock, a capture and a pawn move
in the count).

Run:  python3 testdata/gen/xiangqi_outcomes_expected.py
Writes testdata/xiangqi/outcomes/cases.pgn and
testdata/xiangqi/outcomes-expected.json: one entry per game, {"file",
"game" (1-based), "status" (ok / illegal_move), "plies", "final_fen",
"termination", "board_result", "threefold_ply", "perpetual_check",
"natural_limit_ply", "result_conflict", "pyffish_verdict" (the value of
is_optional_game_end at the first threefold, or null)}.
"""

import json
import multiprocessing
import os
import re

import pyffish

V = "xiangqi"
HERE = os.path.dirname(os.path.abspath(__file__))
DIR = os.path.join(HERE, "..", "xiangqi", "outcomes")
OUT = os.path.join(HERE, "..", "xiangqi", "outcomes-expected.json")
START = pyffish.start_fen(V)
FILES = [
    "wukong-hu-ronghua-1391-iccs.pgn",
    "wukong-liu-dahua-1125-iccs.pgn",
    "cases.pgn",
]


def to_ffish(iccs):
    """ICCS ranks 0-9 -> pyffish ranks 1-10; a chess null move `--` is
    pyffish's `0000`, which it refuses (xiangqi has no null move)."""
    if iccs == "--":
        return "0000"
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


# ---------------------------------------------------------------- cases


def shuffle(red, black, n, red_first=True):
    """n plies alternating the two-move cycles `red` and `black`."""
    out, r, b = [], 0, 0
    turn_red = red_first
    for _ in range(n):
        if turn_red:
            out.append(red[r % len(red)])
            r += 1
        else:
            out.append(black[b % len(black)])
            b += 1
        turn_red = not turn_red
    return out


ROOK_SHUFFLE = (["a1a2", "a2a1"], ["d9d8", "d8d9"])
LONE_ROOK = "3k5/9/9/9/9/9/9/9/R8/5K3 w - - {} 1"
PERPETUAL_RED = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1"
RED_CHECKS = ["a8a9", "e9e8", "a9a8", "e8e9"]
PERPETUAL_BLACK = "3k5/9/9/9/9/9/9/9/r8/4K4 b - - 0 1"
BLACK_CHECKS = ["a1a0", "e0e1", "a0a1", "e1e0"]
SOME_CHECKS = "4k4/R8/9/9/9/9/9/9/9/5K3 w - - 0 1"
SOME = ["a8a9", "e9e8", "a9b9", "e8d8", "b9b8", "d8d9", "b8a8", "d9e9"]
# Both sides check on every move: found by a search with pyffish over small
# positions (each move a check, the fourth ply back at the start).
PERPETUAL_BOTH = None
BOTH_CHECKS = []

# (name, fen or None, moves, Result tag or None, movetext token or None)
CASES = [
    ("perpetual check by red, recorded as a red win", PERPETUAL_RED, RED_CHECKS * 2, "1-0", "1-0"),
    ("perpetual check by red, recorded as a black win", PERPETUAL_RED, RED_CHECKS * 2 + ["a8a9"], "0-1", "0-1"),
    ("perpetual check by red, recorded as a draw", PERPETUAL_RED, RED_CHECKS * 3, "1/2-1/2", "1/2-1/2"),
    ("perpetual check by red, no result", PERPETUAL_RED, RED_CHECKS * 2, None, None),
    ("perpetual check by black, recorded as a black win", PERPETUAL_BLACK, BLACK_CHECKS * 2, "0-1", "0-1"),
    ("perpetual check by black, recorded as a red win", PERPETUAL_BLACK, BLACK_CHECKS * 2, "1-0", "1-0"),
    ("perpetual check by black, movetext result differs", PERPETUAL_BLACK, BLACK_CHECKS * 2, "1-0", "0-1"),
    ("checks on only some of red's moves", SOME_CHECKS, SOME * 2, "1-0", "1-0"),
    ("idle repetition", LONE_ROOK.format(0), shuffle(*ROOK_SHUFFLE, 8), "1-0", "1-0"),
    ("stalemate, black to move, recorded as a draw", "3k5/9/3P5/9/9/4R4/9/9/9/5K3 b - - 0 1", [], "1/2-1/2", "1/2-1/2"),
    ("stalemate, black to move, recorded as a red win", "3k5/9/3P5/9/9/4R4/9/9/9/5K3 b - - 0 1", [], "1-0", "1-0"),
    ("stalemate reached by a move, recorded as a red win", "3k5/9/3P5/9/9/9/9/9/4R4/5K3 w - - 0 1", ["e1e4"], "1-0", "1-0"),
    ("stalemate reached by a move, recorded as a draw", "3k5/9/3P5/9/9/9/9/9/4R4/5K3 w - - 0 1", ["e1e4"], "1/2-1/2", "1/2-1/2"),
    ("stalemate, red to move, recorded as a black win", "5k3/9/9/9/4r4/9/9/3p5/9/3K5 w - - 0 1", [], "0-1", "0-1"),
    ("stalemate, red to move, recorded as a red win", "5k3/9/9/9/4r4/9/9/3p5/9/3K5 w - - 0 1", [], "1-0", "1-0"),
    ("checkmate of black, recorded as a red win", "R2k5/1R7/9/9/9/9/9/9/9/5K3 b - - 0 1", [], "1-0", "1-0"),
    ("checkmate of black, recorded as a black win", "R2k5/1R7/9/9/9/9/9/9/9/5K3 b - - 0 1", [], "0-1", "0-1"),
    ("checkmate by a move, recorded as a red win", "3k5/1R7/9/9/9/9/9/9/9/R4K3 w - - 0 1", ["a0a9"], "1-0", "1-0"),
    ("checkmate by a move, recorded as a draw", "3k5/1R7/9/9/9/9/9/9/9/R4K3 w - - 0 1", ["a0a9"], "1/2-1/2", "1/2-1/2"),
    ("a star on a mate", "3k5/1R7/9/9/9/9/9/9/9/R4K3 w - - 0 1", ["a0a9"], "*", "*"),
    ("a star token on a mate the tag gets right", "3k5/1R7/9/9/9/9/9/9/9/R4K3 w - - 0 1", ["a0a9"], "1-0", "*"),
    ("checkmate of red, recorded as a red win", "5k3/9/9/9/9/9/9/9/1r7/r2K5 w - - 0 1", [], "1-0", "1-0"),
    ("checkmate of red, no result tag", "5k3/9/9/9/9/9/9/9/1r7/r2K5 w - - 0 1", [], None, "1-0"),
    ("flying general: the shielding advisor steps aside", "4k4/9/9/9/9/9/9/9/4A4/4K4 b - - 0 1", ["e9e8", "e1d2"], "1-0", "1-0"),
    ("flying general: the king steps onto the open file", "3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1", ["d9d8", "e0d0"], "0-1", "0-1"),
    ("a king steps into check, the last move left none", "3k5/9/9/9/9/9/9/9/3r5/4K4 w - - 0 1", ["e0f0", "d9e9", "f0f1"], "0-1", "0-1"),
    ("a move from an empty point", None, ["h2e2", "h9g7", "a1a2", "a9a8"], "1-0", "1-0"),
    ("a mate then a move", "3k5/1R7/9/9/9/9/9/9/9/R4K3 w - - 0 1", ["a0a9", "d9e9"], "1-0", "1-0"),
    ("a mate then a move, recorded as a black win", "3k5/1R7/9/9/9/9/9/9/9/R4K3 w - - 0 1", ["a0a9", "d9e9"],
     "0-1", "0-1"),
    ("a stalemate then a move, recorded as a draw", "3k5/9/3P5/9/9/9/9/9/4R4/5K3 w - - 0 1", ["e1e4", "d9e9"],
     "1/2-1/2", "1/2-1/2"),
    ("an illegal move on an open board, recorded as a red win", None, ["h2e2", "h9g7", "e2e9"], "1-0", "1-0"),
    ("a null move", None, ["h2e2", "--", "h0g2"], "1-0", "1-0"),
    # A perpetual check is held against the result only when the game ended
    # in the repetition (its final position occurred three times, in the cycle).
    ("perpetual check by red, one more check in the cycle, recorded as a red win", PERPETUAL_RED,
     RED_CHECKS * 2 + ["a8a9"], "1-0", "1-0"),
    ("perpetual check by red, the game leaves the cycle, recorded as a red win", PERPETUAL_RED,
     RED_CHECKS * 2 + ["a8b8"], "1-0", "1-0"),
    ("perpetual check by red, the cycle begun a fourth time, recorded as a red win", PERPETUAL_RED,
     RED_CHECKS * 2 + ["a8a9", "e9e8", "a9a8"], "1-0", "1-0"),
    ("perpetual check by black, the game leaves the cycle, recorded as a black win", PERPETUAL_BLACK,
     BLACK_CHECKS * 2 + ["a1b1"], "0-1", "0-1"),
    ("natural limit: 119 plies", LONE_ROOK.format(0), shuffle(*ROOK_SHUFFLE, 119), "1/2-1/2", "1/2-1/2"),
    ("natural limit: 120 plies", LONE_ROOK.format(0), shuffle(*ROOK_SHUFFLE, 120), "1/2-1/2", "1/2-1/2"),
    ("natural limit: 121 plies", LONE_ROOK.format(0), shuffle(*ROOK_SHUFFLE, 121), "1/2-1/2", "1/2-1/2"),
    ("natural limit: clock 100, 19 plies", LONE_ROOK.format(100), shuffle(*ROOK_SHUFFLE, 19), None, None),
    ("natural limit: clock 100, 20 plies", LONE_ROOK.format(100), shuffle(*ROOK_SHUFFLE, 20), None, None),
    ("natural limit: clock 100, 21 plies", LONE_ROOK.format(100), shuffle(*ROOK_SHUFFLE, 21), None, None),
    ("natural limit: clock 119, one ply", LONE_ROOK.format(119), ["a1a2"], None, None),
    ("natural limit: clock 120, no move", LONE_ROOK.format(120), [], None, "*"),
    ("natural limit: clock 130, two plies", LONE_ROOK.format(130), ["a1a2", "d9d8"], None, None),
    (
        "natural limit: a capture restarts the count",
        "3k5/9/9/9/9/c8/9/9/R8/5K3 w - - 90 1",
        shuffle(*ROOK_SHUFFLE, 20) + ["a1a4"] + shuffle(["a4a5", "a5a4"], ["d9d8", "d8d9"], 125, red_first=False),
        None,
        None,
    ),
    (
        "natural limit: a pawn move does not restart it",
        "3k5/9/9/9/9/9/8P/9/R8/5K3 w - - 0 1",
        ["i3i4"] + shuffle(*ROOK_SHUFFLE, 121, red_first=False),
        None,
        None,
    ),
    ("black moves first, perpetual check by black", PERPETUAL_BLACK, BLACK_CHECKS * 2 + ["a1a0"], "0-1", "0-1"),
]
if PERPETUAL_BOTH:
    CASES.append(("perpetual check by both", PERPETUAL_BOTH, BOTH_CHECKS * 2, "1-0", "1-0"))


def movetext(fen, moves, token):
    """ICCS movetext with move numbers, `1...` for a black-first start."""
    black = fen is not None and fen.split()[1] == "b"
    number = int(fen.split()[5]) if fen else 1
    out = []
    for m in moves:
        if not black:
            out.append(f"{number}.")
        elif not out:
            out.append(f"{number}...")
        out.append(m)
        if black:
            number += 1
        black = not black
    if token:
        out.append(token)
    words, lines, line = out, [], ""
    for w in words:
        if len(line) + len(w) + 1 > 78:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    return "\n".join(lines)


def write_cases(path):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for i, (name, fen, moves, tag, token) in enumerate(CASES, 1):
            f.write(f'[Event "{name}"]\n[Round "{i}"]\n')
            if tag is not None:
                f.write(f'[Result "{tag}"]\n')
            if fen:
                f.write(f'[FEN "{fen}"]\n')
            f.write('[Format "ICCS"]\n\n')
            f.write(movetext(fen, moves, token) + "\n\n")


# ---------------------------------------------------------------- reading

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
MOVE = re.compile(r"^(?:[a-i][0-9][a-i][0-9]|--)$")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def read_games(path):
    """(tags, moves, movetext result token) per game: tag sections start a
    game; movetext is ICCS with move numbers, comments and a result."""
    games, tags, text, in_moves = [], {}, [], False
    for raw in open(path, encoding="utf-8").read().splitlines():
        line = raw.strip()
        m = TAG.match(line)
        if m:
            if in_moves:
                games.append((tags, " ".join(text)))
                tags, text, in_moves = {}, [], False
            tags[m.group(1)] = m.group(2)
        elif line:
            in_moves = True
            text.append(line)
    if tags or text:
        games.append((tags, " ".join(text)))
    out = []
    for tags, body in games:
        body = re.sub(r"\{[^}]*\}", " ", body)
        moves, token = [], None
        for word in body.split():
            if word in RESULTS:
                token = word
                break
            word = re.sub(r"^\d+\.+", "", word)
            if MOVE.match(word):
                moves.append(word)
            elif word:
                raise SystemExit(f"{path}: unexpected token {word!r}")
        out.append((tags, moves, token))
    return out


# ---------------------------------------------------------------- oracle


def conflict(tag, token, termination, board_result, to_move, perpetual):
    """The spec's result_conflict clauses, in the spec's order."""
    clauses = []
    tag = tag if tag in RESULTS else None
    if tag and token and tag != token:
        clauses.append(f"Result tag {tag} but movetext result {token}")
    recorded = [("Result", tag)]
    if token and token != tag:
        recorded.append(("movetext result", token))
    for src, r in recorded:
        if r is None:
            continue
        if termination != "none" and r != board_result:
            if termination == "checkmate":
                clauses.append(f"{src} {r} but {to_move} is checkmated")
            else:
                clauses.append(f"{src} {r} but {to_move} is stalemated (a loss in xiangqi)")
        if perpetual == "red" and r == "1-0":
            clauses.append(f"{src} {r} but Red gave perpetual check")
        if perpetual == "black" and r == "0-1":
            clauses.append(f"{src} {r} but Black gave perpetual check")
    return "; ".join(clauses)


def parse_board(fen):
    """A FEN's placement as {(file 0-8, ICCS rank 0-9): piece letter}."""
    board = {}
    for row, text in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in text:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, 9 - row)] = ch
                f += 1
    return board


def placement(board):
    rows = []
    for r in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            p = board.get((f, r))
            if p:
                row += (str(empty) if empty else "") + p
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def legal_prefix(start, ffish):
    """How many moves of the line are legal: one get_fen for the whole
    line (it raises on an illegal move), else a bisection over prefixes."""
    def ok(n):
        try:
            pyffish.get_fen(V, start, ffish[:n])
            return True
        except (ValueError, SystemError):
            return False
    if ok(len(ffish)):
        return len(ffish)
    lo, hi = 0, len(ffish)  # ok(lo), not ok(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return lo


def expected(tags, moves, token):
    start = tags.get("FEN", START)
    ffish = [to_ffish(m) for m in moves]
    plies = legal_prefix(start, ffish)
    status = "ok" if plies == len(moves) else "illegal_move"
    if status != "ok":
        # pyffish's legal_moves refuses the move where get_fen stopped.
        assert ffish[plies] not in pyffish.legal_moves(V, start, ffish[:plies]), tags
    final = pyffish.get_fen(V, start, ffish[:plies])
    # The positions between: a plain replay of the legal moves (docs/
    # xiangqi-rules.md section 6), checked against pyffish's get_fen at
    # the end and at every ply that decides a column.
    board, clock = parse_board(start), int(start.split()[4]) if len(start.split()) > 4 else 0
    turn = start.split()[1]
    keys, clocks, movers = [placement(board) + " " + turn], [clock], [None]
    for m in moves[:plies]:
        a, b = (ord(m[0]) - 97, int(m[1])), (ord(m[2]) - 97, int(m[3]))
        clock = 0 if b in board else clock + 1
        board[b] = board.pop(a)
        movers.append(turn)
        turn = "b" if turn == "w" else "w"
        keys.append(placement(board) + " " + turn)
        clocks.append(clock)

    def fen_at(p):
        fen = pyffish.get_fen(V, start, ffish[:p])
        assert " ".join(fen.split()[:2]) == keys[p] and int(fen.split()[4]) == clocks[p], (tags, p, fen)
        return fen

    fen_at(plies)
    to_move = "Red" if final.split()[1] == "w" else "Black"
    if pyffish.legal_moves(V, final, []):
        termination, board_result = "none", ""
    else:
        termination = "checkmate" if pyffish.gives_check(V, final, []) else "stalemate"
        board_result = "0-1" if to_move == "Red" else "1-0"
    # First threefold: board and side to move.
    seen, threefold, first = {}, None, None
    for p, key in enumerate(keys):
        seen.setdefault(key, []).append(p)
        if len(seen[key]) == 3:
            threefold, first = p, seen[key][0]
            break
    perpetual, verdict = "", None
    if threefold is not None:
        # gives_check after each ply of the cycle: did that ply's move
        # give check? The mover is the side to move before it.
        span = range(first + 1, threefold + 1)
        checks = {p: pyffish.gives_check(V, fen_at(p), []) for p in span}
        red = all(checks[p] for p in span if movers[p] == "w")
        black = all(checks[p] for p in span if movers[p] == "b")
        perpetual = {(True, True): "both", (True, False): "red", (False, True): "black"}.get((red, black), "")
        ends, value = pyffish.is_optional_game_end(V, start, ffish[:threefold])
        verdict = value if ends else None
        if perpetual in ("red", "black") and clocks[threefold] < 100:
            checker_to_move = (perpetual == "red") == (keys[threefold].split()[1] == "w")
            want = -32000 if checker_to_move else 32000
            assert ends and value == want, (tags, perpetual, ends, value)
    natural = next((p for p, c in enumerate(clocks) if c >= 120), None)
    if natural is not None:
        fen_at(natural)
        if natural > 0:
            fen_at(natural - 1)
    tag = tags.get("Result", "")
    result_conflict = ""
    # A perpetual check counts against a result only when the game ended in
    # the repetition: the final position is one of the cycle's and has
    # occurred at least three times.
    final_key = keys[plies]
    in_cycle = threefold is not None and final_key in keys[first:threefold + 1]
    held = perpetual if in_cycle and keys.count(final_key) >= 3 else ""
    # A game stopped at a move after its mate or stalemate is held against
    # its results as an ok one is.
    if status == "ok" or termination != "none":
        result_conflict = conflict(tag, token, termination, board_result, to_move, held)
    return {
        "status": status,
        "plies": plies,
        "final_fen": final,
        "termination": termination,
        "board_result": board_result,
        "threefold_ply": threefold,
        "perpetual_check": perpetual,
        "natural_limit_ply": natural,
        "result_conflict": result_conflict,
        "pyffish_verdict": verdict,
    }


def work(job):
    name, i, game = job
    return {"file": name, "game": i, **expected(*game)}


def main():
    write_cases(os.path.join(DIR, "cases.pgn"))
    jobs = [
        (name, i, game)
        for name in FILES
        for i, game in enumerate(read_games(os.path.join(DIR, name)), 1)
    ]
    # Each pyffish call costs milliseconds (it sets up the variant): two
    # processes halve the wait.
    with multiprocessing.Pool(2) as pool:
        out = pool.map(work, jobs, chunksize=20)
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=0, ensure_ascii=False)
        f.write("\n")
    tally = {}
    for e in out:
        tally[e["perpetual_check"]] = tally.get(e["perpetual_check"], 0) + 1
    print(f"{len(out)} games; perpetual_check {tally}; threefolds",
          sum(e["threefold_ply"] is not None for e in out),
          "; conflicts", sum(bool(e["result_conflict"]) for e in out))


if __name__ == "__main__":
    main()
