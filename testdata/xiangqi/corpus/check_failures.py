#!/usr/bin/env python3
"""Independent check of the games pgnmill cannot replay (pyffish 0.0.90).

Reads a `pgnmill report --moves` games.csv (argument 1) of this folder, and
for every xiangqi game with status illegal_move replays the moves pgnmill
accepted with pyffish (Fairy-Stockfish), then writes one row per game: the
move pgnmill refused (ICCS, from its error text), whether pyffish finds it
legal, whether the side to move is in check, and pyffish's legal moves there
(ICCS, sorted). Output: failures_pyffish.csv (committed; the test reads it).

    pgnmill report --moves -o /tmp/r testdata/xiangqi/corpus
    python3 testdata/xiangqi/corpus/check_failures.py /tmp/r/games.csv
"""
import csv
import os
import re
import sys

import pyffish as sf


def to_pyffish(m):  # ICCS ranks 0..9 -> pyffish ranks 1..10
    return m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1)


def to_iccs(m):
    f1, r1, f2, r2 = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", m).groups()
    return f"{f1}{int(r1) - 1}{f2}{int(r2) - 1}"


def main():
    rows = [r for r in csv.DictReader(open(sys.argv[1], encoding="utf-8"))
            if r["status"] == "illegal_move"]
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "failures_pyffish.csv")
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["file", "game", "ply", "refused_iccs", "pyffish_legal",
                    "in_check", "pyffish_legal_moves"])
        for r in sorted(rows, key=lambda r: (os.path.basename(r["source"]), int(r["game"]))):
            start = r["start_fen"] or sf.start_fen("xiangqi")
            moves = [to_pyffish(m) for m in r["moves"].split()]
            legal = sorted(to_iccs(m) for m in sf.legal_moves("xiangqi", start, moves))
            refused = re.search(r": ([a-i]\d[a-i]\d) is not a legal move", r["error"]).group(1)
            w.writerow([os.path.basename(r["source"]), r["game"], len(moves) + 1, refused,
                        refused in legal, sf.gives_check("xiangqi", start, moves),
                        " ".join(legal)])


if __name__ == "__main__":
    main()
