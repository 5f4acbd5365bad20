"""read_games: the stream against the command line's games.parquet, column
by column, and read by each Arrow reader."""

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import os
import subprocess
import sys
import threading
import time

import pgnmill
from conftest import INPUTS, ROOT

# lichess's opening table of April 2025, in its five files (`--openings`).
TABLES = [
    os.path.join(ROOT, "testdata", "openings", "lichess-2025-04-13", f"{f}.tsv")
    for f in "abcde"
]

# Each case: read_games's keywords, and the same options as flags.
CASES = [
    ({}, []),
    (
        {"tags": ["lichess"], "moves": True},
        ["--tags", "lichess", "--moves"],
    ),
    (
        {"tags": "WhiteElo,BlackElo", "where": ["WhiteElo>=2000", "Result!=*"]},
        ["--tags", "WhiteElo,BlackElo", "--where", "WhiteElo>=2000", "--where", "Result!=*"],
    ),
    ({"chess960": True}, ["--variant", "chess960"]),
    ({"openings": TABLES}, [arg for t in TABLES for arg in ("--openings", t)]),
]


def expected(cli_report, flags):
    folder = cli_report(INPUTS, "--format", "parquet", *flags)
    return pq.read_table(folder / "games.parquet")


@pytest.mark.parametrize("keywords,flags", CASES)
def test_the_stream_is_games_parquet_column_by_column(cli_report, keywords, flags):
    want = expected(cli_report, flags)
    got = pa.table(pgnmill.read_games(INPUTS, threads=2, **keywords))
    assert got.num_rows == want.num_rows > 0
    assert [f.name for f in got.schema] == [f.name for f in want.schema]
    for have, should in zip(got.schema, want.schema):
        assert (have.name, have.type, have.nullable) == (should.name, should.type, should.nullable)
    for name in want.column_names:
        assert got.column(name).combine_chunks().equals(want.column(name).combine_chunks()), name


def test_the_default_case_has_rows_of_every_kind(cli_report):
    want = expected(cli_report, [])
    statuses = set(want.column("status").to_pylist())
    assert {"ok", "illegal_move", "parse_error"} <= statuses
    assert {"chess", "chess960", "xiangqi"} <= set(want.column("variant").to_pylist())


def test_polars_duckdb_pyarrow_and_pandas_read_it(cli_report):
    want = expected(cli_report, [])
    frame = pl.DataFrame(pgnmill.read_games(INPUTS))
    assert frame.equals(pl.read_parquet(cli_report(INPUTS, "--format", "parquet") / "games.parquet"))

    stream = pgnmill.read_games(INPUTS)
    rows, oks = duckdb.sql(
        "select count(*), count(*) filter (where status = 'ok') from stream"
    ).fetchall()[0]
    assert rows == want.num_rows
    assert oks == want.column("status").to_pylist().count("ok")

    reader = pa.RecordBatchReader.from_stream(pgnmill.read_games(INPUTS))
    assert reader.schema.names == want.schema.names
    assert sum(batch.num_rows for batch in reader) == want.num_rows

    games = pa.table(pgnmill.read_games(INPUTS)).to_pandas()
    assert isinstance(games, pd.DataFrame)
    assert games["plies"].sum() == pc_sum(want, "plies")
    # pandas 3 reads the stream itself (python/README.md).
    direct = pd.DataFrame.from_arrow(pgnmill.read_games(INPUTS))
    assert direct.shape == games.shape
    assert list(direct["final_fen"]) == list(games["final_fen"])
    assert list(games["source"]) == want.column("source").to_pylist()


def pc_sum(table, name):
    return sum(v for v in table.column(name).to_pylist() if v is not None)


def test_iterating_gives_batches_each_reader_takes(cli_report):
    want = expected(cli_report, [])
    stream = pgnmill.read_games(INPUTS)
    assert stream.columns == want.column_names
    batches = list(stream)
    assert sum(len(b) for b in batches) == want.num_rows
    table = pa.Table.from_batches([pa.record_batch(b) for b in batches])
    assert table.column("final_fen").equals(want.column("final_fen"))
    assert pl.DataFrame(batches[0]).height == batches[0].num_rows


def test_a_bad_openings_table_is_a_value_error(tmp_path):
    table = tmp_path / "bad.tsv"
    table.write_text("A00\tx\t1. e4 e5 2. Qh6\n")
    with pytest.raises(ValueError, match="bad.tsv, line 1"):
        pgnmill.read_games(INPUTS, openings=str(table))


def test_a_missing_openings_table_is_file_not_found(tmp_path):
    # As `open` and a missing input are; `--against` is read as an input.
    missing = tmp_path / "nope.tsv"
    with pytest.raises(FileNotFoundError) as raised:
        pgnmill.read_games(INPUTS, openings=str(missing))
    assert raised.value.filename == str(missing)
    with pytest.raises(FileNotFoundError):
        pgnmill.read_games(INPUTS, against=str(tmp_path / "nope.pgn"))


def test_a_stream_is_read_once():
    stream = pgnmill.read_games(INPUTS)
    schema = pa.schema(stream)
    assert pa.table(stream).schema == schema
    with pytest.raises(pgnmill.PgnmillError, match="read_games again"):
        pa.table(stream)
    # Iterating it is reading it again: the same error, not an empty list
    # that would pass for a run without games.
    with pytest.raises(pgnmill.PgnmillError, match="read_games again"):
        list(stream)
    assert pa.schema(stream) == schema
    assert "read>" in repr(stream)


def test_a_stream_iterated_to_its_end_is_read():
    stream = pgnmill.read_games(INPUTS)
    assert repr(stream).endswith("unread>")
    first = next(iter(stream))
    assert first.num_rows > 0
    assert repr(stream).endswith("being read>")
    rest = list(stream)
    assert rest and repr(stream).endswith(", read>")
    with pytest.raises(pgnmill.PgnmillError, match="read_games again"):
        list(stream)


def test_duckdb_opens_it_once_for_a_query():
    stream = pgnmill.read_games(INPUTS)
    (games,) = duckdb.sql("select count(*) from stream where variant = 'xiangqi'").fetchall()[0]
    assert games > 0


def test_a_stream_dropped_unread_stops_its_run(big_pgn):
    stream = pgnmill.read_games(big_pgn, threads=1)
    first = next(iter(stream))
    assert first.num_rows > 0
    stream.close()
    with pytest.raises(pgnmill.PgnmillError, match="has been read \\(or closed\\)"):
        list(stream)


def test_closing_a_stream_another_reader_reads_stops_the_run(big_pgn):
    """pyarrow has the stream (its feed taken); close() from another
    thread still stops the run, and pyarrow fails rather than return
    every row."""
    all_rows = pa.table(pgnmill.read_games(big_pgn, threads=1)).num_rows
    stream = pgnmill.read_games(big_pgn, threads=1)
    outcome = {}

    def read():
        try:
            outcome["rows"] = pa.table(stream).num_rows
        except Exception as e:  # what pyarrow makes of the run's error
            outcome["error"] = str(e)

    reader = threading.Thread(target=read)
    reader.start()
    while "unread" in repr(stream):
        time.sleep(0.01)
    stream.close()
    reader.join(timeout=60)
    assert not reader.is_alive()
    assert "rows" not in outcome, f"read {outcome['rows']} of {all_rows} rows"
    assert "stopped while reading" in outcome["error"], outcome


# Threads sharing one stream: each runs in a child interpreter under a
# time limit, so that a deadlock (the stream's lock held while waiting
# for a batch without the GIL, while another thread holds the GIL and
# waits for the lock) fails the test instead of hanging the suite.
SHARED_STREAM = """
import sys, threading, time, pgnmill
path, case = sys.argv[1], sys.argv[2]
stream = pgnmill.read_games(path, threads=1)
rows = []
first = threading.Event()
def iterate(slow):
    for b in stream:
        rows.append(b.num_rows)
        first.set()
        if slow:
            time.sleep(0.02)  # a slow reader: the run waits for it
if case == "close":
    # Closed as soon as the first batch is in, while the reader waits in
    # next() for the second (the run takes a while to make it).
    closer = threading.Thread(target=lambda: (first.wait(), stream.close()))
    closer.start()
    iterate(slow=False)
    closer.join()
    print("closed after", sum(rows), "rows in", len(rows), "batches")
elif case == "repr":
    t = threading.Thread(target=iterate, args=(True,))
    t.start()
    while t.is_alive():
        repr(stream)
    t.join()
    print("rows", sum(rows))
elif case == "two":
    ts = [threading.Thread(target=iterate, args=(True,)) for _ in range(2)]
    for t in ts: t.start()
    for t in ts: t.join()
    print("rows", sum(rows))
"""


@pytest.mark.parametrize("case", ["close", "repr", "two"])
def test_threads_sharing_a_stream_never_deadlock(big_pgn, case, tmp_path):
    script = tmp_path / "shared.py"
    script.write_text(SHARED_STREAM)
    done = subprocess.run(
        [sys.executable, str(script), str(big_pgn), case],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    words = done.stdout.split()
    want = pa.table(pgnmill.read_games(str(big_pgn), threads=1)).num_rows
    if case == "close":
        # The run (six batches) stopped after its first batch or two.
        assert words[:2] == ["closed", "after"]
        assert int(words[2]) < want and int(words[5]) <= 2, done.stdout
    else:
        # Every row exactly once, whoever took each batch.
        assert int(words[1]) == want
