#!/usr/bin/env python3
"""Expected rows of `pgnmill fen` for the lists in testdata/fen/, computed
with python-chess (chess, Chess960) and pyffish (xiangqi), not pgnmill.

Run from the repository root:  python3 testdata/gen/fen_expected.py
Needs: pip install chess==1.11.2 pyffish (written against pyffish 0.0.90).
Writes testdata/fen/expected.csv, one row per record and mode:

  file, mode (auto or chess960: the --variant given), line,
  status (ok / bad_fen), fen (python-chess fen(en_passant="fen"), or pyffish
  get_fen), fen_ep_legal (python-chess fen()), castling_invalid,
  castling_effective, legal_moves, check, variant, id, problems

and, for the FENs crafted here to reach every word of the `problems`
column (written to testdata/fen/problems.epd, each with a comment line
saying what it holds), testdata/fen/problems-expected.csv in the same form.

`problems` (docs/reports.md, section pgnmill fen) is, for chess, python-
chess's Board.status() on an ok row, its flags named as in pgnmill:
OPPOSITE_CHECK opposite_check, PAWNS_ON_BACKRANK pawns_on_backrank,
INVALID_EP_SQUARE invalid_ep_square, TOO_MANY_CHECKERS too_many_checkers,
IMPOSSIBLE_CHECK impossible_check, TOO_MANY_{WHITE,BLACK}_PIECES
too_many_pieces, TOO_MANY_{WHITE,BLACK}_PAWNS too_many_pawns (the other
flags are bad_fen or castling_invalid). For xiangqi, on every row whose
board can be read (bad_fen ones too): flying_general (the kings face each
other, kings_face below), opposite_check (pyffish gives_check with the side
to move flipped, when each side has one king), and the pieces that stand
where their kind cannot come: the points a king, advisor, elephant and pawn
can reach are not written here but found by a search over pyffish's legal
moves from their start points (reachable_points), red's, mirrored for black.

The line format is read here independently of pgnmill: `#` comments and
blank lines skipped, `.perft` `id X` lines name the next record, `perft`
lines skipped, `epd FEN` lines read; a line with `,` and no `;` is a CSV
perft line (FEN before the first comma); EPD operations are read by
python-chess's Board.from_epd (which applies hmvc/fmvn); a record of 10
ranks is xiangqi. A castling field with a file letter is Chess960 in auto
mode; written back in Shredder-FEN when it has no K/Q/k/q letter.

castling_invalid follows python-chess clean_castling_rights() as in
chess_vectors.py: a written letter is invalid when the rook square
python-chess resolves it to is not among the clean rights (in standard
chess intersected with the corners, spec chess.md).
"""

import csv
import os
import re

import chess
import pyffish

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fen")

RUNS = [
    ("pychess-frc_perftsuite.epd", "auto"),
    ("pychess-perftsuite2.epd", "auto"),
    ("shakmaty-tricky.perft", "auto"),
    ("python-chess-tricky.perft", "auto"),
    ("ethereal-standard.epd", "auto"),
    ("stockfish-books-FRC_openings.epd", "auto"),
    ("stockfish-books-FRC_openings.epd", "chess960"),
    ("cpw-xiangqi-perft.epd", "auto"),
    ("fairy-stockfish-xiangqi-perft.epd", "auto"),
    ("mixed.epd", "auto"),
]

FIELDS = re.compile(
    r"\s*([^\s;,]+)\s+([^\s;,]+)\s+([^\s;,]+)\s+([^\s;,]+)"
    r"(?:\s+(\d+)\s+(\d+)(?=[\s;,]|$))?(.*)$"
)


def resolve_bit(board, chess960, ch):
    b = chess.Board(None, chess960=chess960)
    b.set_board_fen(board.board_fen())
    b.set_castling_fen(ch)
    return b.castling_rights


def chess_row(text, chess960_forced):
    m = FIELDS.match(text)
    if not m:
        return {"status": "bad_fen", "variant": "chess960" if chess960_forced else "chess"}
    placement, turn, castling, ep, half, full, rest = m.groups()
    files = any(c.lower() in "abcdefgh" for c in castling if c != "-")
    chess960 = chess960_forced or files
    row = {"variant": "chess960" if chess960 else "chess", "status": "bad_fen"}
    fen4 = f"{placement} {turn} {castling} {ep}"
    if rest.lstrip().startswith(","):
        rest = ""
    try:
        board, ops = chess.Board.from_epd(fen4 + " " + rest, chess960=chess960)
        if half is not None:
            board = chess.Board(f"{fen4} {half} {full}", chess960=chess960)
    except ValueError:
        return row
    if board.status() & (chess.STATUS_NO_WHITE_KING | chess.STATUS_NO_BLACK_KING
                         | chess.STATUS_TOO_MANY_KINGS):
        return row
    clean = board.clean_castling_rights()
    if not chess960:
        clean &= chess.BB_A1 | chess.BB_H1 | chess.BB_A8 | chess.BB_H8
    invalid, effective = "", ""
    for ch in castling.replace("-", ""):
        bit = resolve_bit(board, chess960, ch)
        if bit and bit & clean == bit:
            effective += ch
        else:
            invalid += ch
    problems = chess_problems(board)
    board.castling_rights = clean
    shredder = files and not any(c in "KQkq" for c in castling)
    row.update(
        status="ok",
        fen=board.fen(en_passant="fen", shredder=shredder),
        fen_ep_legal=board.fen(shredder=shredder),
        castling_invalid=invalid,
        castling_effective=effective or "-",
        legal_moves=board.legal_moves.count(),
        check=str(board.is_check()).lower(),
        id=str(ops.get("id", "")),
        problems=problems,
    )
    return row


# python-chess status flags -> the words of the `problems` column, in the
# column's order; several flags can give one word.
STATUS_WORDS = [
    (chess.STATUS_OPPOSITE_CHECK, "opposite_check"),
    (chess.STATUS_PAWNS_ON_BACKRANK, "pawns_on_backrank"),
    (chess.STATUS_INVALID_EP_SQUARE, "invalid_ep_square"),
    (chess.STATUS_TOO_MANY_CHECKERS, "too_many_checkers"),
    (chess.STATUS_IMPOSSIBLE_CHECK, "impossible_check"),
    (chess.STATUS_TOO_MANY_WHITE_PIECES | chess.STATUS_TOO_MANY_BLACK_PIECES, "too_many_pieces"),
    (chess.STATUS_TOO_MANY_WHITE_PAWNS | chess.STATUS_TOO_MANY_BLACK_PAWNS, "too_many_pawns"),
]


def chess_problems(board):
    status = board.status()
    return ";".join(word for flags, word in STATUS_WORDS if status & flags)


def xiangqi_row(text):
    head = text.split(";")[0]
    m = re.match(r'(.*?)\s+id\s+"([^"]*)"', head)
    ident = ""
    if m:
        head, ident = m.group(1), m.group(2)
    row = {"variant": "xiangqi", "status": "bad_fen", "id": ident}
    fields = head.split()
    if any(f.startswith("-") and f[1:].isdigit() for f in fields[2:]):
        return row  # a negative counter: unreadable
    side = "b" if len(fields) > 1 and fields[1].lower() == "b" else "w"
    row["problems"] = xiangqi_problems(fields[0], side)
    words = row["problems"].split(";")
    if "king_off_palace" in words or "too_many_pieces" in words:
        return row  # pgnmill's kernel plays neither (docs/xiangqi-notation.md)
    fen = pyffish.get_fen("xiangqi", head.strip(), [])
    parts = fen.split()
    flipped = " ".join([parts[0], "b" if parts[1] == "w" else "w"] + parts[2:])
    if (pyffish.validate_fen(fen, "xiangqi") != 1
            or pyffish.gives_check("xiangqi", flipped, [])
            or kings_face(parts[0])):
        return row  # unreadable, or the side not to move could be captured
    row.update(
        status="ok",
        fen=fen,
        fen_ep_legal=fen,
        castling_invalid="",
        castling_effective="",
        legal_moves=len(pyffish.legal_moves("xiangqi", fen, [])),
        check=str(pyffish.gives_check("xiangqi", fen, [])).lower(),
    )
    return row


def grid_of(placement):
    """The placement as 10 strings of 9 characters, rank 9 first ('.' empty)."""
    grid = []
    for rank in placement.split("/"):
        row = ""
        for c in rank:
            row += "." * int(c) if c.isdigit() else c
        grid.append(row)
    return grid


def kings_face(placement):
    """The flying-general rule, which pyffish's gives_check does not
    report: a red and a black king on one file with nothing between them."""
    grid = grid_of(placement)
    kings = [(r, f, grid[r][f]) for r in range(len(grid)) for f in range(len(grid[r])) if grid[r][f] in "kK"]
    for (r0, f0, k0) in kings:
        for (r1, f1, k1) in kings:
            if k0 == "k" and k1 == "K" and f0 == f1 and r0 < r1 \
                    and all(grid[r][f0] == "." for r in range(r0 + 1, r1)):
                return True
    return False


# Start points (file 0-8, ICCS rank 0-9) of red's pieces by FEN letter.
RED_STARTS = {"K": [(4, 0)], "A": [(3, 0), (5, 0)], "B": [(2, 0), (6, 0)],
              "P": [(0, 3), (2, 3), (4, 3), (6, 3), (8, 3)]}


def reachable_points(letter):
    """The points a red piece of kind `letter` can reach from its start
    points, by pyffish's legal moves on an otherwise empty board (the red
    king on e0, or d0/f0 when the piece is the king; the black king on d9,
    then on f9, so that no point is missed for standing under it)."""
    def fen(points):
        grid = [["."] * 9 for _ in range(10)]
        for f, r in points:
            grid[9 - r][f] = points[(f, r)]
        return "/".join(re.sub(r"\.+", lambda m: str(len(m.group())), "".join(row)) for row in grid) + " w - - 0 1"
    seen = set()
    for black_king in [(3, 9), (5, 9)]:
        todo = list(RED_STARTS[letter])
        found = set(todo)
        while todo:
            at = todo.pop()
            board = {at: letter, black_king: "k"}
            if letter != "K":
                board[(4, 0)] = "K"
            if (4, 0) == at and letter != "K":
                continue
            name = f"{chr(97 + at[0])}{at[1] + 1}"
            for mv in pyffish.legal_moves("xiangqi", fen(board), []):
                if not mv.startswith(name) or mv[len(name)].isdigit():
                    continue
                to = mv[len(name):]
                point = (ord(to[0]) - 97, int(to[1:]) - 1)
                if point not in found:
                    found.add(point)
                    todo.append(point)
        seen |= found
    return seen


REACHABLE = {}


def xiangqi_problems(placement, side):
    """The `problems` words of a xiangqi board (see the module docs)."""
    if not REACHABLE:
        REACHABLE.update({k: reachable_points(k) for k in RED_STARTS})
    try:
        grid = grid_of(placement)
    except ValueError:
        return ""
    if len(grid) != 10 or any(len(row) != 9 for row in grid):
        return ""
    words = []
    if kings_face(placement):
        words.append("flying_general")
    red_kings = sum(row.count("K") for row in grid)
    black_kings = sum(row.count("k") for row in grid)
    if red_kings == 1 and black_kings == 1 and not kings_face(placement):
        flipped = f"{placement} {'b' if side == 'w' else 'w'} - - 0 1"
        if pyffish.gives_check("xiangqi", flipped, []):
            words.append("opposite_check")
    misplaced = set()
    for row_index, row in enumerate(grid):
        for f, c in enumerate(row):
            kind = {"E": "B"}.get(c.upper(), c.upper())
            if kind not in RED_STARTS:
                continue
            rank = 9 - row_index
            own = (f, rank) if c.isupper() else (f, 9 - rank)
            if own not in REACHABLE[kind]:
                misplaced.add(kind)
    for letter, word in (("A", "advisor_off_palace"), ("B", "elephant_off_point"),
                         ("P", "pawn_behind_start"), ("K", "king_off_palace")):
        if letter in misplaced:
            words.append(word)
    red = sum(c.isupper() for row in grid for c in row)
    black = sum(c.islower() for row in grid for c in row)
    if red > 16 or black > 16:
        words.append("too_many_pieces")
    return ";".join(words)


def rows_of(name, mode):
    pending = None
    with open(os.path.join(HERE, name), encoding="utf-8", newline="") as f:
        for n, line in enumerate(f, 1):
            text = line.rstrip("\r\n").lstrip("\ufeff").strip()
            if not text or text.startswith("#"):
                continue
            word, _, rest = text.partition(" ")
            if word == "id":
                pending = rest.strip()
                continue
            if word == "perft":
                continue
            if word == "epd":
                text = rest
            if len(text.split()[0].split("/")) == 10:
                row = xiangqi_row(text)
            else:
                row = chess_row(text, mode == "chess960")
            if not row.get("id") and pending is not None:
                row["id"] = pending
            pending = None
            row.update(file=name, mode=mode, line=n)
            yield row


# FENs crafted to reach every word of the `problems` column, with variants
# (the comment says what each holds; the words themselves come from
# python-chess and pyffish when the expected file is written).
CRAFTED = [
    ("no problem: the start position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("opposite check: a white rook checks the black king, white to move", "4k3/8/8/8/8/8/8/4RK2 w - - 0 1"),
    ("opposite check: a black knight checks the white king, black to move", "4k3/8/8/8/8/3n4/8/4K3 b - - 0 1"),
    ("kings that touch on a file", "8/8/8/4k3/4K3/8/8/8 w - - 0 1"),
    ("kings that touch on a diagonal, black to move", "8/8/8/4k3/5K2/8/8/8 b - - 0 1"),
    ("a white pawn on the 8th rank", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ("a black pawn on the 1st rank", "4k3/8/8/8/8/8/8/p3K3 w - - 0 1"),
    ("a valid en-passant square: no problem", "4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1"),
    ("en-passant square on the mover's own side", "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1"),
    ("en-passant square with no pawn in front of it", "4k3/8/8/8/8/8/8/4K3 w - e6 0 1"),
    ("en-passant square whose origin is occupied", "4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1"),
    ("en-passant square itself occupied", "4k3/8/4n3/4p3/8/8/8/4K3 w - e6 0 1"),
    ("a valid en-passant square, black to move", "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"),
    ("an en-passant square on the 4th rank", "4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1"),
    ("an en-passant square on the 1st rank", "4k3/8/8/8/8/8/8/4K3 w - a1 0 1"),
    ("three checkers", "8/8/8/4k3/8/2B2N2/8/K3R3 b - - 0 1"),
    ("two checkers on one line with the king", "4R3/8/8/4k3/8/8/8/K3R3 b - - 0 1"),
    ("a possible double check (rook and knight)", "8/8/8/4k3/8/5N2/8/K3R3 b - - 0 1"),
    ("a check the double step named by the ep square cannot explain", "4r1k1/8/8/3p4/8/8/8/4K3 w - d6 0 1"),
    ("a check the double step uncovered", "2b1k3/8/8/3p4/8/7K/8/8 w - d6 0 1"),
    ("a check by the pawn that made the double step", "4k3/8/8/3p4/4K3/8/8/8 w - d6 0 1"),
    ("two checkers with an ep square", "4k3/8/8/3p4/4K3/8/8/4r3 w - d6 0 1"),
    ("17 white pieces", "4k3/8/8/8/8/NNNNNNNN/NNNNNNNN/4K3 b - - 0 1"),
    ("9 white pawns", "4k3/8/8/8/P7/PPPPPPPP/8/4K3 w - - 0 1"),
    ("9 black pawns and 17 black pieces", "nnnnknnn/pppppppp/p7/8/8/8/8/4K3 w - - 0 1"),
    ("several problems at once", "P3k3/8/8/8/8/8/8/4RK2 w - e6 0 1"),
    ("a Chess960 position with a pawn on the back rank", "rk5r/8/8/8/8/8/8/RK4Pr w HAha - 0 1"),
    ("a negative halfmove clock: bad_fen", "4k3/8/8/8/8/8/8/4K3 w - - -5 1"),
    ("a negative move number: bad_fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 -1"),
    ("xiangqi: no problem", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
    ("xiangqi: flying general", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
    ("xiangqi: kings on one file with a piece between", "4k4/9/9/9/4p4/9/9/9/9/4K4 w - - 0 1"),
    ("xiangqi: a red rook checks the black king, red to move", "3k5/9/9/9/9/9/9/9/3R5/4K4 w - - 0 1"),
    ("xiangqi: a red advisor outside the palace", "3k5/9/9/9/9/9/9/9/A8/4K4 w - - 0 1"),
    ("xiangqi: a red advisor on a palace edge point", "3k5/9/9/9/9/9/9/9/3A5/4K4 w - - 0 1"),
    ("xiangqi: a black advisor on the palace's centre", "3k5/4a4/9/9/9/9/9/9/9/4K4 w - - 0 1"),
    ("xiangqi: a black advisor on the back rank's middle", "3ka4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
    ("xiangqi: a red elephant off its points", "3k5/9/9/9/9/9/9/9/1B7/4K4 w - - 0 1"),
    ("xiangqi: a red elephant across the river", "3k5/9/9/9/2B6/9/9/9/9/4K4 w - - 0 1"),
    ("xiangqi: a red elephant on its river point (E letter)", "3k5/9/9/9/9/2E6/9/9/9/4K4 w - - 0 1"),
    ("xiangqi: a black elephant off its points", "3k5/9/9/4b4/9/9/9/9/9/4K4 w - - 0 1"),
    ("xiangqi: a red pawn behind its start rank", "3k5/9/9/9/9/9/9/9/P8/4K4 w - - 0 1"),
    ("xiangqi: a red pawn before the river off the start files", "3k5/9/9/9/9/9/1P7/9/9/4K4 w - - 0 1"),
    ("xiangqi: a red pawn across the river off the start files", "3k5/9/9/9/1P7/9/9/9/9/4K4 w - - 0 1"),
    ("xiangqi: a black pawn behind its start rank", "3k5/p8/9/9/9/9/9/9/9/4K4 w - - 0 1"),
    ("xiangqi: a red king outside its palace", "3k5/9/9/9/9/9/9/9/9/K8 w - - 0 1"),
    ("xiangqi: a black king outside its palace, and facing kings", "9/9/9/9/9/9/9/4k4/9/4K4 b - - 0 1"),
    ("xiangqi: 17 red pieces", "3k5/9/9/9/9/9/PPPPPPPPP/PPPPPPPP1/9/4K4 w - - 0 1"),
    ("xiangqi: several problems at once", "3k5/9/9/9/9/9/1P7/9/A8/1B2K4 w - - 0 1"),
    ("xiangqi: a negative clock", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - -3 1"),
]


def write_crafted(path):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("# Crafted by testdata/gen/fen_expected.py for the `problems` column of\n")
        f.write("# pgnmill fen (docs/reports.md); each record follows a comment saying what it holds.\n")
        for comment, fen in CRAFTED:
            f.write(f"# {comment}\n{fen}\n")


def main():
    cols = ["file", "mode", "line", "status", "fen", "fen_ep_legal", "castling_invalid",
            "castling_effective", "legal_moves", "check", "variant", "id", "problems"]
    write_crafted(os.path.join(HERE, "problems.epd"))
    for out, runs in (("expected.csv", RUNS), ("problems-expected.csv", [("problems.epd", "auto")])):
        with open(os.path.join(HERE, out), "w", newline="") as f:
            w = csv.DictWriter(f, cols, lineterminator="\n")
            w.writeheader()
            for name, mode in runs:
                for row in rows_of(name, mode):
                    w.writerow({c: row.get(c, "") for c in cols})


if __name__ == "__main__":
    main()
