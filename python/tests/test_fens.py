"""read_fens: the audit rows of `pgnmill fen` as a stream, against the
command line's CSV field by field, typed as documented."""

import csv
import io
import os
import warnings

import pyarrow as pa
import pytest

import pgnmill
from conftest import ROOT

# FEN, EPD and .perft lists of chess, Chess960 and xiangqi (bad records and
# impossible positions included), and xiangqi record files.
INPUTS = [
    os.path.join(ROOT, "testdata", "fen"),
    os.path.join(ROOT, "testdata", "xiangqi", "records"),
]

TYPES = {
    "line": pa.int64(),
    "legal_moves": pa.int32(),
    "check": pa.bool_(),
    "game": pa.int64(),
}


def cli_rows(cli, *flags):
    out = cli("fen", "--quiet", *flags, *INPUTS).stdout
    return list(csv.reader(io.StringIO(out)))


def as_csv_field(value):
    """A value as the CSV writes it: empty for null, true/false."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@pytest.mark.parametrize("keywords,flags", [({}, []), ({"chess960": True}, ["--chess960"])])
def test_the_stream_is_the_clis_csv_field_by_field(cli, keywords, flags):
    header, *rows = cli_rows(cli, *flags)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pgnmill.PgnmillWarning)
        table = pa.table(pgnmill.read_fens(INPUTS, threads=2, **keywords))
    assert table.column_names == header
    assert table.num_rows == len(rows) > 1000
    got = [[as_csv_field(v) for v in row.values()] for row in table.to_pylist()]
    assert got == rows
    statuses = set(table.column("status").to_pylist())
    assert {"ok", "bad_fen"} <= statuses
    assert {"chess", "xiangqi"} <= set(table.column("variant").to_pylist())
    assert table.column("game").null_count < table.num_rows  # record files


def test_the_columns_are_typed_text_never_null():
    stream = pgnmill.read_fens(os.path.join(ROOT, "testdata", "fen", "mixed.epd"))
    schema = pa.schema(stream)
    for field in schema:
        assert field.type == TYPES.get(field.name, pa.string()), field
        assert field.nullable == (field.name in TYPES and field.name != "line"), field
    table = pa.table(stream)
    assert table.schema == schema
    for field in schema:
        if not field.nullable:
            assert table.column(field.name).null_count == 0, field.name


def test_a_missing_input_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        pgnmill.read_fens([os.path.join(ROOT, "testdata", "fen", "mixed.epd"), tmp_path / "no.epd"])


def test_a_pgn_file_is_a_warning_and_no_rows():
    pgn = os.path.join(ROOT, "testdata", "corpus", "chesscom-cancer0707.pgn")
    with pytest.warns(pgnmill.PgnmillWarning, match="looks like PGN"):
        table = pa.table(pgnmill.read_fens(pgn))
    assert table.num_rows == 0
    assert table.column_names == pa.schema(pgnmill.read_fens(pgn)).names


def test_a_stream_is_read_once():
    stream = pgnmill.read_fens(os.path.join(ROOT, "testdata", "fen", "mixed.epd"))
    pa.table(stream)
    with pytest.raises(pgnmill.PgnmillError, match="read_fens again"):
        pa.table(stream)
