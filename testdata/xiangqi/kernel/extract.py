#!/usr/bin/env python3
"""Cuts the columns the kernel tests need out of the xiangqi vectors.

Run from this folder:  python3 extract.py /work/shared/spec/xiangqi-vectors
Writes games.csv (game_id, start_fen, plies, moves_iccs, final_fen, end) and
notation_moves.csv (fen, iccs). Values are copied verbatim, rows in order.
"""
import csv
import sys

src = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/spec/xiangqi-vectors"

def cut(name, out, cols):
    with open(f"{src}/{name}", newline="", encoding="utf-8") as f, \
         open(out, "w", newline="", encoding="utf-8") as g:
        w = csv.writer(g, lineterminator="\n")
        w.writerow(cols)
        for row in csv.DictReader(f):
            w.writerow([row[c] for c in cols])

cut("games.csv", "games.csv", ["game_id", "start_fen", "plies", "moves_iccs", "final_fen", "end"])
cut("notation.csv", "notation_moves.csv", ["fen", "iccs"])
