"""read_plies: the stream against the command line's plies.parquet, column
by column, and every row of two real clocked collections (lichess with
evaluations, chess.com with tenths of seconds) against a python-chess
1.11.2 loop over the same games: SAN, UCI, FEN, clock, time, evaluation."""

import io
import logging
import os
import sys

import chess
import chess.pgn
import pyarrow as pa
import pyarrow.parquet as pq

import pgnmill
from conftest import INPUTS, ROOT

sys.path.insert(0, os.path.join(ROOT, "testdata", "gen"))
import clocks_expected as cx  # noqa: E402
import report_expected as rx  # noqa: E402

CLOCKED = [
    os.path.join(ROOT, "testdata", "corpus", "lichess-2025-05-blitz-sample.pgn"),
    os.path.join(ROOT, "testdata", "corpus", "chesscom-cancer0707.pgn"),
]


def test_the_stream_is_plies_parquet_column_by_column(cli_report):
    folder = cli_report(INPUTS, "--format", "parquet", "--plies")
    want = pq.read_table(folder / "plies.parquet")
    got = pa.table(pgnmill.read_plies(INPUTS, threads=2))
    assert got.num_rows == want.num_rows > 100_000
    for have, should in zip(got.schema, want.schema):
        assert (have.name, have.type, have.nullable) == (should.name, should.type, should.nullable)
    assert got.column_names == want.column_names
    for name in want.column_names:
        assert got.column(name).combine_chunks().equals(want.column(name).combine_chunks()), name
    # Chess and xiangqi rows both.
    assert any(u == "h2e2" for u in got.column("uci").to_pylist())


def test_where_chooses_the_games_as_the_report_does(cli_report):
    folder = cli_report(CLOCKED, "--format", "parquet", "--plies", "--where", "Event~Blitz")
    want = pq.read_table(folder / "plies.parquet")
    got = pa.table(pgnmill.read_plies(CLOCKED, where="Event~Blitz"))
    assert got.equals(want.cast(got.schema))
    assert 0 < got.num_rows < pa.table(pgnmill.read_plies(CLOCKED)).num_rows


def python_chess_rows(path):
    """The rows of `path` by python-chess: one per main-line ply of each
    game, keyed by (game, ply), with the columns read_plies has.

    python-chess is given one game's text at a time, cut as the tests' own
    reading of the PGN rules cuts it (testdata/gen/report_expected.py, the
    reading every report test relies on; clocks_expected.py gives it to
    python-chess): read from the whole file, python-chess reads a few
    chess.com games with the tags of another (games that follow the one
    before without a blank line), which says nothing about the plies.
    """
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    with open(path, "rb") as f:
        text, _ = rx.decode(f.read())
    games = rx.split_games(text)
    rows = {}
    for number, raw in enumerate(games, start=1):
        after = games[number].pos if number < len(games) else None
        piece = cx.drop_blank_lines(cx.cut_text(text, raw, after, None))
        game = chess.pgn.read_game(io.StringIO(piece))
        assert not game.errors, (path, number, game.errors)
        board = game.board()
        for ply, node in enumerate(game.mainline(), start=1):
            san = board.san(node.move)
            board.push(node.move)
            clock, emt, score = node.clock(), node.emt(), node.eval()
            white = score.white() if score is not None else None
            rows[(number, ply)] = {
                "san": san,
                "uci": node.move.uci(),
                "fen": board.fen(),
                "clock_ms": None if clock is None else round(clock * 1000),
                "emt_ms": None if emt is None else round(emt * 1000),
                "eval_cp": None if white is None else white.score(),
                "eval_mate": None if white is None else white.mate(),
                "eval_depth": node.eval_depth(),
            }
    return rows


def test_rows_are_a_python_chess_loops_on_real_clocked_games():
    for path in CLOCKED:
        want = python_chess_rows(path)
        got = pa.table(pgnmill.read_plies(path)).to_pylist()
        assert len(got) == len(want), path
        clocks = evals = 0
        for row in got:
            expected = want[(row["game"], row["ply"])]
            have = {k: row[k] for k in expected}
            assert have == expected, (path, row["game"], row["ply"])
            clocks += row["clock_ms"] is not None
            evals += row["eval_cp"] is not None or row["eval_mate"] is not None
        # Not equal by being empty: the files have clocks, lichess evals.
        assert clocks > len(got) // 2, path
        if "lichess" in path:
            assert evals > 1000, evals
