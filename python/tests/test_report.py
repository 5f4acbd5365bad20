"""report: the report folder of the command line, and its summary.json as
a dict."""

import json
import os

import pgnmill
from conftest import INPUTS

SAME_FILES = ["games.csv", "castling.csv"]


def test_report_writes_the_clis_folder_and_returns_its_summary(cli_report, tmp_path):
    want = cli_report(INPUTS, "--tags", "lichess", "--format", "csv,parquet")
    summary = pgnmill.report(
        INPUTS, tmp_path / "out", tags="lichess", formats=["csv", "parquet"], threads=2
    )
    written = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary == written
    cli_summary = json.loads((want / "summary.json").read_text())
    for key in ["elapsed_seconds", "threads"]:
        summary.pop(key), cli_summary.pop(key)
    assert summary == cli_summary
    for name in SAME_FILES:
        assert (tmp_path / "out" / name).read_bytes() == (want / name).read_bytes(), name
    assert sorted(os.listdir(tmp_path / "out")) == sorted(os.listdir(want))


DUPLICATES = os.path.join(os.path.dirname(__file__), "..", "..", "testdata", "duplicates")


def test_duplicates_are_the_clis_and_python_chess_grouping(cli_report, tmp_path):
    """duplicates=True writes the command line's folder; its verdicts are
    those testdata/gen/duplicates_expected.py computed with python-chess."""
    import csv

    cases = os.path.join(DUPLICATES, "cases.pgn")
    master = os.path.join(DUPLICATES, "against-master.pgn")
    want = cli_report([cases], "--duplicates")
    summary = pgnmill.report(cases, tmp_path / "out", duplicates=True, threads=2)
    for name in ["games.csv", "duplicates.csv"]:
        assert (tmp_path / "out" / name).read_bytes() == (want / name).read_bytes(), name
    with open(os.path.join(DUPLICATES, "cases-expected.csv"), newline="") as f:
        expected = list(csv.DictReader(f))
    kinds = [row["dup_kind"] for row in expected]
    for kind in ["exact", "prefix", "transposition"]:
        assert summary["duplicates"][kind] == kinds.count(kind), kind
    # against= implies duplicates and names the master's games.
    summary = pgnmill.report(
        os.path.join(DUPLICATES, "against-input.pgn"), tmp_path / "ag", against=master
    )
    with open(os.path.join(DUPLICATES, "against-expected.csv"), newline="") as f:
        expected = list(csv.DictReader(f))
    with open(tmp_path / "ag" / "games.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    got = [(os.path.basename(r["dup_of"]), r["dup_kind"], r["dup_headers"]) for r in rows]
    assert got == [(r["dup_of"], r["dup_kind"], r["dup_headers"]) for r in expected]
    assert summary["duplicates"]["against"][0]["games"] == 4
    # The stream has the folder's games.parquet rows, duplicate columns
    # included (streamed from a file once every game is read).
    import pyarrow.parquet as pq
    import pyarrow as pa

    pgnmill.report(cases, tmp_path / "pq", duplicates=True, formats="parquet")
    want = pq.read_table(tmp_path / "pq" / "games.parquet")
    got = pa.table(pgnmill.read_games(cases, duplicates=True, threads=2))
    assert got.schema.names[-3:] == ["dup_of", "dup_kind", "dup_headers"]
    assert got.to_pylist() == want.to_pylist()
    got = pa.table(pgnmill.read_games(os.path.join(DUPLICATES, "against-input.pgn"), against=master))
    assert got.column("dup_of").to_pylist()[0] == master + ":3"
