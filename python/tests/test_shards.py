"""shards: one Parquet shard per input file on an executor; the shards
together are the single run's games.parquet, their merged totals its
summary.json; a rerun skips finished shards."""

import json
import os
from concurrent.futures import ProcessPoolExecutor

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pgnmill
from conftest import INPUTS, ROOT


class Counting:
    """An executor that counts the tasks it is given."""

    def __init__(self, inner):
        self.inner = inner
        self.submitted = []

    def submit(self, fn, *args):
        self.submitted.append(args[3])
        return self.inner.submit(fn, *args)


def single_run(cli_report):
    return cli_report(INPUTS, "--format", "parquet", "--tags", "lichess", "-j", "1")


def check_equal_to_the_single_run(out, paths, single):
    union = pa.concat_tables([pq.read_table(p) for p in paths])
    want = pq.read_table(single / "games.parquet")
    assert union.schema.names == want.schema.names
    assert union.num_rows == want.num_rows > 1000
    for name in want.column_names:
        assert union.column(name).combine_chunks().equals(want.column(name).combine_chunks()), name
    merged = json.loads((out / "_summary.json").read_text())
    whole = json.loads((single / "summary.json").read_text())
    for key in ["elapsed_seconds"]:
        merged.pop(key), whole.pop(key)
    assert merged == whole


def test_shards_on_a_process_pool_are_the_single_run(cli_report, tmp_path):
    out = tmp_path / "shards"
    with ProcessPoolExecutor(2) as pool:
        executor = Counting(pool)
        with pytest.warns(pgnmill.PgnmillWarning):
            paths = pgnmill.shards(executor, INPUTS, out, tags="lichess", threads=1)
    assert len(executor.submitted) == len(paths) > 20
    assert all(os.path.dirname(p) == str(out) for p in paths)
    check_equal_to_the_single_run(out, paths, single_run(cli_report))
    # Nothing temporary is left: the shards, their summaries, the total.
    names = sorted(os.listdir(out))
    assert names == sorted([os.path.basename(p) for p in paths] + ["_shards", "_summary.json"])
    assert len(os.listdir(out / "_shards")) == len(paths)


def test_a_rerun_skips_finished_shards(cli_report, tmp_path):
    out = tmp_path / "shards"
    with ProcessPoolExecutor(2) as pool:
        first = pgnmill.shards(pool, INPUTS, out, tags="lichess", threads=1)
        stamps = {p: os.stat(p).st_mtime_ns for p in first}
        # A lost worker: one shard never written, another half-written.
        os.remove(first[3])
        with open(os.path.join(out, "." + os.path.basename(first[5]) + ".partial-x"), "w"):
            pass
        executor = Counting(pool)
        again = pgnmill.shards(executor, INPUTS, out, tags="lichess", threads=1)
    assert again == first
    assert executor.submitted == [os.path.basename(first[3])]
    assert all(os.stat(p).st_mtime_ns == stamps[p] for p in first if p != first[3])
    check_equal_to_the_single_run(out, again, single_run(cli_report))


def test_shards_written_with_other_options_are_refused(tmp_path):
    out = tmp_path / "shards"
    corpus = os.path.join(ROOT, "testdata", "corpus", "chesscom-cancer0707.pgn")
    with ProcessPoolExecutor(1) as pool:
        pgnmill.shards(pool, corpus, out)
        with pytest.raises(pgnmill.PgnmillError, match="moves"):
            pgnmill.shards(pool, corpus, out, moves=True)


def test_shards_take_clocks_and_opening_tables_as_the_command_line_does(cli_report, tmp_path):
    # lichess's table of April 2025 (testdata/openings), named relatively:
    # the workers are handed it by its absolute path.
    tables = [
        os.path.relpath(os.path.join(ROOT, "testdata", "openings", "lichess-2025-04-13", f"{f}.tsv"))
        for f in "abcde"
    ]
    out = tmp_path / "shards"
    with ProcessPoolExecutor(2) as pool:
        with pytest.warns(pgnmill.PgnmillWarning):
            paths = pgnmill.shards(pool, INPUTS, out, clocks=True, openings=tables, threads=1)
        single = cli_report(
            INPUTS, "--format", "parquet", "--clocks", "-j", "1",
            *[arg for t in tables for arg in ("--openings", os.path.abspath(t))],
        )
        check_equal_to_the_single_run(out, paths, single)
        assert "clock_plies" in pq.read_schema(paths[0]).names
        # Finished shards written without the tables are not taken as done.
        with pytest.raises(pgnmill.PgnmillError, match="openings"):
            pgnmill.shards(pool, INPUTS, out, clocks=True, threads=1)


def test_shard_names_are_the_stem_and_a_hash_of_the_full_path(tmp_path):
    a = pgnmill.shard_name("/data/a/lichess_2025-05.pgn.zst")
    b = pgnmill.shard_name("/data/b/lichess_2025-05.pgn.zst")
    assert a.startswith("lichess_2025-05-") and b.startswith("lichess_2025-05-")
    assert a != b and a.endswith(".parquet") and len(a) == len("lichess_2025-05-") + 8 + 8
    import hashlib

    assert a[-16:-8] == hashlib.sha256(b"/data/a/lichess_2025-05.pgn.zst").hexdigest()[:8]
    assert pgnmill.shard_name("/x/Games.PGN").startswith("Games-")
    assert pgnmill.shard_name("/x/_hidden.pgn").startswith("hidden-")
    assert pgnmill.shard_name("/x/.pgn").startswith("pgn-")
    assert pgnmill.shard_name("/x/twic.2024.pgn").startswith("twic.2024-")
    # CCRL publishes its games as `.pgn.7z`.
    assert pgnmill.shard_name("/x/CCRL-4040.[2074891].pgn.7z").startswith("CCRL-4040.[2074891]-")


def test_standard_input_cannot_be_sharded(tmp_path):
    with pytest.raises(ValueError, match="standard input"):
        pgnmill.shards(None, "-", tmp_path)
