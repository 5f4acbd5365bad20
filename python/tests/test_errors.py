"""Errors are Python exceptions raised by the call, before any game is
read, with the command line's reasons; inputs not read whole are
warnings."""

import os
import warnings

import pyarrow as pa
import pytest

import pgnmill
from conftest import INPUTS, ROOT

CORPUS = os.path.join(ROOT, "testdata", "corpus")
CHESSCOM = os.path.join(CORPUS, "chesscom-cancer0707.pgn")


@pytest.mark.parametrize("call", ["read_games", "report"])
def test_a_missing_input_is_file_not_found(call, tmp_path):
    missing = str(tmp_path / "nowhere.pgn")
    run = getattr(pgnmill, call)
    args = (tmp_path / "out",) if call == "report" else ()
    with pytest.raises(FileNotFoundError) as raised:
        run(missing, *args)
    assert raised.value.filename == missing
    with pytest.raises(FileNotFoundError):
        run([CHESSCOM, missing], *args)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "keywords,reason",
    [
        ({"where": "WhiteElo>>3"}, "where"),
        ({"where": ["=2000"]}, "expected TAG=VALUE"),
        ({"tags": ["White"]}, "already has this tag as the column `white`"),
        ({"tags": ["Elo-Diff"]}, "a tag name is letters, digits and `_`"),
        ({"threads": 0}, "threads must be at least 1"),
        ({"threads": -2}, "threads must be at least 1"),
    ],
)
def test_a_bad_option_is_a_value_error_with_the_clis_reason(cli, keywords, reason):
    with pytest.raises(ValueError, match=reason):
        pgnmill.read_games(CHESSCOM, **keywords)


def test_the_reasons_are_the_command_lines(cli):
    with pytest.raises(ValueError) as raised:
        pgnmill.read_games(CHESSCOM, tags=["White"])
    run = cli("report", "--tags", "White", "-o", os.devnull, CHESSCOM, check=False)
    assert run.returncode == 2
    assert str(raised.value) in run.stderr


def test_bad_formats_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match="possible formats: csv, parquet"):
        pgnmill.report(CHESSCOM, tmp_path / "out", formats=["xml"])
    with pytest.raises(ValueError, match="formats"):
        pgnmill.report(CHESSCOM, tmp_path / "out", formats=[])


def test_an_earlier_report_is_refused_without_force(tmp_path):
    pgnmill.report(CHESSCOM, tmp_path / "out")
    with pytest.raises(pgnmill.PgnmillError, match="force=True"):
        pgnmill.report(CHESSCOM, tmp_path / "out")
    assert pgnmill.report(CHESSCOM, tmp_path / "out", force=True)["games"] > 0


def test_inputs_not_read_whole_are_warnings(cli_report):
    compressed = os.path.join(ROOT, "testdata", "compressed")
    summary = cli_report([compressed])
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        table = pa.table(pgnmill.read_games(compressed))
    said = [str(w.message) for w in seen if issubclass(w.category, pgnmill.PgnmillWarning)]
    # The notes of finding the inputs first (the folder search's, then
    # the 7z member that is not PGN), then each input's warnings, as
    # summary.json (and the command line's stderr) has them.
    assert "passed over 1 file(s)" in said[0]
    assert said[1].endswith("members.7z:notes.txt: not a .pgn member, skipped")
    assert said[2:] == summary_warnings(summary) and len(said) >= 4
    assert table.num_rows > 0
    with warnings.catch_warnings():
        warnings.simplefilter("error", pgnmill.PgnmillWarning)
        with pytest.raises(pgnmill.PgnmillWarning):
            list(pgnmill.read_games(compressed))


def summary_warnings(folder):
    import json

    summary = json.loads((folder / "summary.json").read_text())
    return [w["message"] for i in summary["inputs"] for w in i["warnings"]]


def test_strict_raises_after_writing(tmp_path):
    compressed = os.path.join(ROOT, "testdata", "compressed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pgnmill.PgnmillWarning)
        with pytest.raises(pgnmill.PgnmillError, match="--strict: .* were cut short or damaged"):
            pgnmill.report(compressed, tmp_path / "out", strict=True)
    assert (tmp_path / "out" / "summary.json").is_file()


def test_notes_of_the_search_are_warnings():
    with pytest.warns(pgnmill.PgnmillWarning):
        pgnmill.read_games([CHESSCOM, CHESSCOM]).close()


def test_a_keyword_of_the_wrong_type_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match="argument 'moves'"):
        pgnmill.read_games(CHESSCOM, moves="yes")
    with pytest.raises(TypeError, match="argument 'tags'"):
        pgnmill.read_games(CHESSCOM, tags=[1])


def test_a_report_folder_is_refused_where_the_cli_refuses_it(cli, tmp_path, monkeypatch):
    """The places `pgnmill report -o` refuses (docs/reports.md, "Where
    outputs may go"): a ValueError with the command line's reason, and
    nothing written."""
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    game = inputs / "one.pgn"
    game.write_bytes(open(CHESSCOM, "rb").read())
    monkeypatch.chdir(inputs)
    cases = [
        ("-", [str(game)], "standard output cannot hold"),
        (str(inputs), [str(inputs)], "is the input folder"),
        (str(inputs / "report"), [str(inputs)], "is inside the input folder"),
        (".", [str(game)], "holds the input"),
        (str(tmp_path), [str(game)], "holds the input"),
    ]
    for out, paths, reason in cases:
        with pytest.raises(ValueError, match=reason) as raised:
            pgnmill.report(paths, out)
        run = cli("report", "-o", out, *paths, check=False)
        assert run.returncode == 2, run.stderr
        assert reason in run.stderr
        assert str(raised.value).split(":", 1)[1] in run.stderr
    # The command line cannot be given an empty path; Python can.
    with pytest.raises(ValueError, match="an empty path names no file or folder"):
        pgnmill.report(str(game), "")
    # An input given by `against` counts too.
    with pytest.raises(ValueError, match="holds the input"):
        pgnmill.report(CHESSCOM, str(tmp_path), duplicates=True, against=str(game))
    assert sorted(p.name for p in inputs.iterdir()) == ["one.pgn"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["inputs"]
    # A file given as an input and with `against` would match itself.
    with pytest.raises(ValueError, match="given both as an input and with --against"):
        pgnmill.report(CHESSCOM, str(tmp_path / "r"), duplicates=True, against=CHESSCOM)


def test_a_path_given_as_bytes_is_one_path(tmp_path):
    games = pa.table(pgnmill.read_games(os.fsencode(CHESSCOM)))
    assert games.num_rows == pa.table(pgnmill.read_games(CHESSCOM)).num_rows > 0
    with pytest.raises(FileNotFoundError):
        pgnmill.read_games(os.fsencode(str(tmp_path / "nowhere.pgn")))


@pytest.mark.parametrize(
    "call,keywords,error,reason",
    [
        ("read_games", {"threads": 2**63}, ValueError, "threads.*out of range"),
        ("read_fens", {"threads": 2**63}, ValueError, "out of range"),
        ("read_games", {"threads": True}, TypeError, "expected an int, not bool"),
        ("read_games", {"threads": 1.5}, TypeError, "expected an int, not float"),
        ("read_games", {"duplicates": True, "duplicates_min_plies": -1}, ValueError,
         "duplicates_min_plies must be from 0 to 4294967295, not -1"),
        ("read_games", {"duplicates": True, "duplicates_min_plies": 2**40}, ValueError,
         "duplicates_min_plies must be from 0 to 4294967295"),
        ("read_games", {"duplicates": True, "duplicates_min_plies": 2**70}, ValueError,
         "out of range"),
    ],
)
def test_a_number_out_of_range_is_a_value_error(call, keywords, error, reason):
    with pytest.raises(error, match=reason):
        getattr(pgnmill, call)(CHESSCOM, **keywords)
