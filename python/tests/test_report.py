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
