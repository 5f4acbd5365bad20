#!/usr/bin/env python3
"""Expected rows of `pgnmill fen` for the lists in testdata/fen/, computed
with python-chess (chess, Chess960) and pyffish (xiangqi), not pgnmill.

Run from the repository root:  python3 testdata/gen/fen_expected.py
Needs: pip install chess==1.11.2 pyffish (written against pyffish 0.0.90).
Writes testdata/fen/expected.csv, one row per record and mode:

  file, mode (auto or chess960: the --variant given), line,
  status (ok / bad_fen), fen (python-chess fen(en_passant="fen"), or pyffish
  get_fen), fen_ep_legal (python-chess fen()), castling_invalid,
  castling_effective, legal_moves, check, variant, id

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
    )
    return row


def xiangqi_row(text):
    head = text.split(";")[0]
    m = re.match(r'(.*?)\s+id\s+"([^"]*)"', head)
    ident = ""
    if m:
        head, ident = m.group(1), m.group(2)
    fen = pyffish.get_fen("xiangqi", head.strip(), [])
    row = {"variant": "xiangqi", "status": "bad_fen", "id": ident}
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


def kings_face(placement):
    """The flying-general rule, which pyffish's gives_check does not
    report: both kings on one file with nothing between them."""
    grid = []
    for rank in placement.split("/"):
        row = ""
        for c in rank:
            row += "." * int(c) if c.isdigit() else c
        grid.append(row)
    kings = [(r, row.index(k)) for r, row in enumerate(grid) for k in "kK" if k in row]
    if len(kings) != 2 or kings[0][1] != kings[1][1]:
        return False
    (r0, f), (r1, _) = sorted(kings)
    return all(grid[r][f] == "." for r in range(r0 + 1, r1))


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


def main():
    cols = ["file", "mode", "line", "status", "fen", "fen_ep_legal", "castling_invalid",
            "castling_effective", "legal_moves", "check", "variant", "id"]
    with open(os.path.join(HERE, "expected.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, cols, lineterminator="\n")
        w.writeheader()
        for name, mode in RUNS:
            for row in rows_of(name, mode):
                w.writerow({c: row.get(c, "") for c in cols})


if __name__ == "__main__":
    main()
