#!/usr/bin/env python3
"""Expected values for the xiangqi record files of testdata/xiangqi/records/.

Independent of pgnmill: cchess (PyPI 1.25.5, walker8088) decodes the XQF,
CBR, CBF and uncompressed CBL bytes (start board, move tree, tags); pyffish
(Fairy-Stockfish, variant "xiangqi") checks every main-line move and gives
the final FEN. cchess does not check legality (docs/xiangqi-formats.md §5)
and drops a move from an empty square silently; pyffish decides which
main-line moves are legal, and the replay stops at the first that is not.

Side to move: cchess's boards say red; the rule of every reader (§1.6) is
the colour of the piece on the first main-line move's origin, so that is
what is written here.

Run:  /work/venv/bin/python testdata/gen/xiangqi_records_expected.py
Writes testdata/xiangqi/records-expected.json, one entry per game:
{"file", "game" (1-based record index in its file), "start_fen" ("" for the
standard start), "main_line" (ICCS, as cchess decodes it), "lines" (main
line + variations), "plies" (legal main-line moves), "final_fen",
"status" ("ok" or "illegal_move"), "red", "black", "result"}.
"""

import json
import os
import sys

import cchess
import pyffish
from cchess.read_cbf import read_from_cbf
from cchess.read_cbr import read_from_cbl, read_from_cbr
from cchess.read_xqf import read_from_xqf

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = os.path.join(HERE, "..", "xiangqi", "records")
OUT = os.path.join(HERE, "..", "xiangqi", "records-expected.json")
START = pyffish.start_fen("xiangqi")


def to_ffish(iccs):
    """ICCS ranks 0-9 -> pyffish ranks 1-10."""
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


def placement_side(game, main):
    """Start FEN with the side decided by the first move's piece."""
    fen = game.init_board.to_fen()
    placement = fen.split()[0]
    side = "w"
    if main:
        rows = placement.split("/")
        f, r = ord(main[0][0]) - 97, int(main[0][1])
        row = rows[9 - r]
        col = 0
        for ch in row:
            if ch.isdigit():
                col += int(ch)
                continue
            if col == f:
                side = "w" if ch.isupper() else "b"
                break
            col += 1
    return f"{placement} {side} - - 0 1"


def entry(name, index, game):
    lines = game.dump_iccs_moves()
    main = lines[0] if lines else []
    fen = placement_side(game, main)
    played = []
    status = "ok"
    for mv in main:
        if to_ffish(mv) not in pyffish.legal_moves("xiangqi", fen, played):
            status = "illegal_move"
            break
        played.append(to_ffish(mv))
    final = pyffish.get_fen("xiangqi", fen, played)
    info = game.info
    return {
        "file": name,
        "game": index,
        "start_fen": "" if fen == START else fen,
        "main_line": main,
        "lines": max(len(lines), 1),
        "plies": len(played),
        "final_fen": final,
        "status": status,
        "red": info.get("red") or "",
        "black": info.get("black") or "",
        "result": info.get("result") or "*",
    }


def main():
    out = []
    for name in sorted(os.listdir(DIR)):
        path = os.path.join(DIR, name)
        ext = name.lower().rsplit(".", 1)[-1]
        if ext == "xqf":
            game = read_from_xqf(path)
            if game is not None:
                out.append(entry(name, 1, game))
        elif ext == "cbr":
            out.append(entry(name, 1, read_from_cbr(path)))
        elif ext == "cbf":
            out.append(entry(name, 1, read_from_cbf(path)))
        elif ext == "cbl":
            with open(path, "rb") as f:
                if not f.read(16).startswith(b"CCBridgeLibrary\0"):
                    continue  # the packed container: cchess cannot read it
            lib = read_from_cbl(path)
            for i, game in enumerate(lib["games"]):
                out.append(entry(name, i + 1, game))
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=0)
        f.write("\n")
    print(f"{len(out)} games -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
