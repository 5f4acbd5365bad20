#!/usr/bin/env python3
"""Expected opening columns (docs/reports.md: eco, opening, opening_ply,
opening_conflict) for every game of testdata/corpus, independent of
pgnmill.

The games are split and their main-line tokens read as
testdata/gen/report_expected.py does (the spec's splitter, imported from
it), and replayed by python-chess 1.11.2 up to the first token it cannot
play. The lichess rule (src/openings/data/SOURCE.md) is written out here:
the table src/openings/data/{a..e}.tsv, each line replayed by python-chess
from the standard start, maps the position it ends in (board, side to
move, castling rights; no en-passant square) to its ECO code and name, a
later line winning; a game of standard chess from the standard start
without a [FEN] tag is named by the deepest of its first plies (up to the
table's longest line) whose position is in the table. Chess960 games,
[FEN] games and games of other variants get none. opening_conflict is the
wording of docs/reports.md, written out here.

Run: python3 testdata/gen/openings_expected.py
Writes testdata/expected/openings.csv: source, game (1-based), eco,
opening, opening_ply, opening_conflict.
"""

import csv
import glob
import io
import os
import sys

import chess
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import report_expected as R  # noqa: E402


def position(board):
    return (board.board_fen(), board.turn, board.castling_xfen())


def read_table(files):
    table, depth = {}, 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            for i, line in enumerate(f):
                eco, name, pgn = line.rstrip("\n").split("\t")
                if i == 0 and eco.strip().lower() == "eco":
                    continue
                game = chess.pgn.read_game(io.StringIO(pgn))
                assert not game.errors, (path, i, game.errors)
                board = game.board()
                moves = list(game.mainline_moves())
                for m in moves:
                    board.push(m)
                table[position(board)] = (eco.strip(), name.strip())
                depth = max(depth, len(moves))
    return table, depth


def conflict(eco, name, tags):
    def recorded(tag):
        v = tags.get(tag)
        if v is None:
            return None
        v = v.strip()
        return v if v and v != "?" else None
    parts = []
    e = recorded("ECO")
    if e is not None and e.lower() != eco.lower():
        parts.append(f"ECO {e} but the moves give {eco}")
    o = recorded("Opening")
    if o is not None and o != name:
        parts.append(f'Opening "{o}" but the moves give "{name}"')
    return "; ".join(parts)


def classify(table, depth, raw):
    tags = raw.tags
    if R.variant_of(tags) != "chess" or "FEN" in tags:
        return None
    board = chess.Board()
    moves, _ = R.mainline_tokens(raw)
    hit = None
    for ply, tok in enumerate(moves[:depth], 1):
        if isinstance(tok, R.NotAMove):
            break
        try:
            board.push(board.parse_san(tok))
        except ValueError:
            break
        found = table.get(position(board))
        if found:
            hit = (found, ply)
    return hit


def main():
    table, depth = read_table(sorted(glob.glob(os.path.join(ROOT, "src/openings/data/*.tsv"))))
    out = os.path.join(ROOT, "testdata/expected/openings.csv")
    named = 0
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["source", "game", "eco", "opening", "opening_ply", "opening_conflict"])
        for name in R.corpus_files():
            text, _ = R.read_file(name)
            for i, raw in enumerate(R.split_games(text), 1):
                hit = classify(table, depth, raw)
                if hit is None:
                    w.writerow([f"{R.CORPUS}/{name}", i, "", "", "", ""])
                    continue
                (eco, opening), ply = hit
                named += 1
                w.writerow([f"{R.CORPUS}/{name}", i, eco, opening, ply,
                            conflict(eco, opening, raw.tags)])
    print(out, "named", named, "table depth", depth, "positions", len(table))


if __name__ == "__main__":
    main()
