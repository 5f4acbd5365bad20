#!/usr/bin/env python3
"""Games that start with the side NOT to move in check, and python-chess's
reading of them.

A `[FEN]` may set up such a position (python-chess's `Board.status()` calls
it STATUS_OPPOSITE_CHECK, and reads games from it all the same). After the
first move the side to move is in check from a piece that move did not
touch: a reader that works out only the checks each move gives misses it,
and then lets that side play a move that leaves its king in check.

Run from the repository root with python-chess 1.11.2:

    python3 testdata/gen/opposite_check_expected.py

Writes testdata/chess/opposite-check.pgn (the games; each game's Event says
what it tests) and testdata/expected/opposite-check.csv: per game its
number, the status a report gives it (`ok`, or `illegal_move` where
python-chess's `Board.push_san` raises `IllegalMoveError`), the plies
played before that, and the position then (`Board.fen(en_passant="fen")`,
the report's `final_fen`).
"""

import csv
import os

import chess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PGN = "testdata/chess/opposite-check.pgn"
OUT = "testdata/expected/opposite-check.csv"

ROOK = "4k3/p7/8/8/8/8/4R3/4K3 w - - 0 1"
KNIGHT = "4k3/p7/3N4/8/8/8/8/4K3 w - - 0 1"
BISHOP = "4k3/p6r/8/1B6/8/8/8/4K3 w - - 0 1"

# (what the game tests, start FEN, moves)
GAMES = [
    ("rook check from the start: a pawn move leaves it", ROOK, ["Kd2", "a6"]),
    ("rook check from the start: the king steps off the file", ROOK, ["Kd2", "Kd8", "Kd3"]),
    ("knight check from the start: a pawn move leaves it", KNIGHT, ["Kd2", "a6"]),
    ("knight check from the start: the king steps away", KNIGHT, ["Kd2", "Kf8", "Ke3"]),
    ("bishop check from the start: a pawn move leaves it", BISHOP, ["Kd2", "a6"]),
    ("bishop check from the start: the rook blocks it", BISHOP, ["Kd2", "Rd7", "Ke3"]),
    ("bishop check from the start: the rook moves off the line", BISHOP, ["Kd2", "Rh8"]),
]


def main():
    rows = []
    pgn = []
    for number, (what, fen, moves) in enumerate(GAMES, start=1):
        board = chess.Board(fen)
        assert board.status() & chess.STATUS_OPPOSITE_CHECK, what
        status = "ok"
        for san in moves:
            try:
                board.push_san(san)
            except chess.IllegalMoveError:
                status = "illegal_move"
                break
        rows.append([number, status, len(board.move_stack), board.fen(en_passant="fen")])
        movetext = []
        for i, san in enumerate(moves):
            if i % 2 == 0:
                movetext.append(f"{i // 2 + 1}.")
            movetext.append(san)
        pgn.append(
            f'[Event "{what}"]\n[SetUp "1"]\n[FEN "{fen}"]\n[Result "*"]\n\n'
            + " ".join(movetext)
            + " *\n"
        )
    with open(os.path.join(ROOT, PGN), "w", newline="\n") as f:
        f.write("\n".join(pgn))
    with open(os.path.join(ROOT, OUT), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["game", "status", "plies", "final_fen"])
        w.writerows(rows)


if __name__ == "__main__":
    main()
