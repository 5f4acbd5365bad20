#!/usr/bin/env python3
"""Training games in a lichess export's shape: testdata/training/lichess-shaped-clocks.pgn.

scripts/build-pgo.sh trains the profile-guided build on testdata's games but
leaves out the five collections the benchmark measures
(benches/measured_corpus.txt), lichess's sample among them. The other files
have no movetext in the shape of a lichess database dump, which is what most
users download: every move followed by `{ [%clk 0:02:58] }`, some games also
with `[%eval 0.17]`, the whole movetext on one line, lichess's tag set. This
writes that shape around the moves of the Apache-2.0 games of
testdata/training/ (TWIC and lichess games from mliebelt/pgn-parser), so that
the profile learns the comment and clock paths from games the benchmark does
not read.

The clocks, evaluations, ratings and site ids are made up by a seeded random
generator: the file is training text, not test data, and no test reads it.
Moves are replayed and written by python-chess 1.11.2 (its `set_clock` and
`set_eval` spell the comments as lichess does).

Usage (from the repository root): python3 testdata/gen/make_training_clocked.py
"""

import io
import os
import random
import string

import chess
import chess.engine
import chess.pgn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRAINING = os.path.join(ROOT, "testdata", "training")
SOURCES = ["mliebelt-twic-01-232games.pgn", "mliebelt-32games.pgn", "mliebelt-lichess-2024-01-03.pgn"]
OUT = os.path.join(TRAINING, "lichess-shaped-clocks.pgn")
SEED = 20261205
# (base seconds, increment, lichess's speed name): the time controls of a month's dump.
TIME_CONTROLS = [(60, 0, "Bullet"), (180, 0, "Blitz"), (180, 2, "Blitz"), (300, 3, "Blitz"), (600, 0, "Rapid"), (900, 10, "Rapid")]
# One game in this many has lichess's computer analysis, an evaluation per move.
ANALYSED_ONE_IN = 8


def lichess_game(source: chess.pgn.Game, rng: random.Random, index: int) -> chess.pgn.Game:
    base, increment, speed = rng.choice(TIME_CONTROLS)
    game = chess.pgn.Game()
    h = game.headers
    h["Event"] = f"Rated {speed} game"
    h["Site"] = "https://lichess.org/" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(8))
    h["Date"] = f"2026.11.{1 + index % 30:02d}"
    h["Round"] = "-"
    h["White"] = source.headers.get("White", "?")
    h["Black"] = source.headers.get("Black", "?")
    h["Result"] = source.headers.get("Result", "*")
    h["UTCDate"] = h["Date"]
    h["UTCTime"] = f"{rng.randrange(24):02d}:{rng.randrange(60):02d}:{rng.randrange(60):02d}"
    h["WhiteElo"] = str(rng.randrange(800, 2900))
    h["BlackElo"] = str(rng.randrange(800, 2900))
    h["WhiteRatingDiff"] = f"{rng.randrange(-12, 13):+d}"
    h["BlackRatingDiff"] = f"{rng.randrange(-12, 13):+d}"
    for tag in ("ECO", "Opening"):
        if tag in source.headers:
            h[tag] = source.headers[tag]
    h["TimeControl"] = f"{base}+{increment}"
    h["Termination"] = rng.choice(["Normal", "Normal", "Normal", "Time forfeit"])
    analysed = index % ANALYSED_ONE_IN == 0
    clocks = [float(base), float(base)]
    node = game
    evaluation = rng.randrange(-40, 60)
    for ply, move in enumerate(source.mainline_moves()):
        node = node.add_variation(move)
        side = ply % 2
        spent = min(clocks[side] - 1, rng.expovariate(1 / max(1.0, base / 60)))
        clocks[side] = max(0.0, clocks[side] - max(0.0, spent)) + increment
        # Lichess writes the evaluation before the clock.
        if analysed:
            evaluation += rng.randrange(-60, 61)
            node.set_eval(chess.engine.PovScore(chess.engine.Cp(evaluation), chess.WHITE))
        node.set_clock(int(clocks[side]))
    return game


def main() -> None:
    rng = random.Random(SEED)
    out = io.StringIO()
    index = 0
    for name in SOURCES:
        with open(os.path.join(TRAINING, name), encoding="utf-8") as f:
            while (source := chess.pgn.read_game(f)) is not None:
                if source.errors or "FEN" in source.headers:
                    continue
                game = lichess_game(source, rng, index)
                index += 1
                # Lichess writes the movetext on one line and a blank line between games.
                out.write(game.accept(chess.pgn.StringExporter(columns=None)) + "\n\n")
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(out.getvalue())
    print(f"wrote {index} games to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
