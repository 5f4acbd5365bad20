#!/usr/bin/env python3
"""Independent check flags for the kernel's is_check, from pyffish.

Run from this folder (needs `pip install pyffish`, tested with 0.0.90):
    python3 gen_checks.py
Reads games.csv here (game_id, start_fen, moves_iccs) and writes checks.csv:
game_id, flags -- one character per position of the game, from the start
position to the final one (plies + 1 characters): '1' if the side to move is
in check there per pyffish.gives_check, else '0'.
pyffish numbers ranks 1..10, ICCS 0..9, so each ICCS move is converted.
"""
import csv
import pyffish

def to_pyffish(iccs):
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"

with open("games.csv", newline="", encoding="utf-8") as f, \
     open("checks.csv", "w", newline="", encoding="utf-8") as g:
    w = csv.writer(g, lineterminator="\n")
    w.writerow(["game_id", "flags"])
    for row in csv.DictReader(f):
        moves = [to_pyffish(m) for m in row["moves_iccs"].split()]
        flags = "".join(
            "1" if pyffish.gives_check("xiangqi", row["start_fen"], moves[:i]) else "0"
            for i in range(len(moves) + 1)
        )
        w.writerow([row["game_id"], flags])
