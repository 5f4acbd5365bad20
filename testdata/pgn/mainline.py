#!/usr/bin/env python3
"""Per-game main-line facts from python-chess, for tests/pgn/pgn_tokens.rs.

For each game of the files below: its index, the number of main-line moves
python-chess replayed, whether python-chess met an error (such games are not
compared), the White tag as python-chess read it (<none> when it read no White tag line), and the result token python-chess read from the
movetext (empty when there is none).

Run: pip install chess==1.11.2 && python3 mainline.py > mainline.csv
"""
import csv
import os
import sys

import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = [
    ("world_matches.pgn", "utf-8"),
    ("dortmund.pgn", "latin-1"),
    ("lichess-2025-05-blitz-sample.pgn", "utf-8"),
    ("tcec_9_15_testgames.pgn", "utf-8"),
    ("chesscom-cancer0707.pgn", "utf-8"),
]


class Builder(chess.pgn.GameBuilder):
    def begin_game(self):
        super().begin_game()
        self.seen_white = None

    def visit_header(self, tagname, tagvalue):
        super().visit_header(tagname, tagvalue)
        if tagname == "White":
            self.seen_white = tagvalue

    def end_game(self):
        self.game.seen_white = self.seen_white

    def visit_result(self, result):
        self.game.movetext_result = result

    def handle_error(self, error):
        self.game.errors.append(error)


def main():
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["file", "game", "plies", "error", "white", "result"])
    for name, enc in FILES:
        with open(os.path.join(HERE, "corpus", name), encoding=enc, newline=None) as f:
            i = 0
            while True:
                game = chess.pgn.read_game(f, Visitor=Builder)
                if game is None:
                    break
                i += 1
                plies = len(list(game.mainline_moves()))
                err = "1" if game.errors else "0"
                result = getattr(game, "movetext_result", "")
                white = game.seen_white
                white = "<none>" if white is None else white
                w.writerow([name, i, plies, err, white, result])


if __name__ == "__main__":
    main()
