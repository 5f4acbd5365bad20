"""Fixtures of the package's tests: the repository's test data, the
command line's binary (the reference the stream is compared with), and
large inputs made of the test data.

PGNMILL_BIN names the binary; without it the tests look for one that
`cargo build` made in target/. .ci/run builds it before it runs them.
"""

import glob
import os
import shutil
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# Folders searched (with files passed over), zip members, cut-off and
# damaged streams, chess960, xiangqi records in GBK and Big5.
INPUTS = [
    os.path.join(ROOT, "testdata", "corpus"),
    os.path.join(ROOT, "testdata", "compressed"),
    os.path.join(ROOT, "testdata", "xiangqi", "corpus"),
]


def _binary():
    named = os.environ.get("PGNMILL_BIN")
    if named:
        return named
    built = sorted(
        glob.glob(os.path.join(ROOT, "target", "*", "pgnmill")),
        key=os.path.getmtime,
        reverse=True,
    )
    if built:
        return built[0]
    pytest.fail("no pgnmill binary: set PGNMILL_BIN or run cargo build")


@pytest.fixture(scope="session")
def binary():
    """The path of the pgnmill binary, for a run of one's own (another
    working folder)."""
    return _binary()


@pytest.fixture(scope="session")
def cli():
    """Runs `pgnmill ARGS...` and returns the completed process."""
    binary = _binary()

    def run(*args, check=True):
        return subprocess.run(
            [binary, *map(str, args)], capture_output=True, text=True, check=check
        )

    return run


@pytest.fixture(scope="session")
def cli_report(cli, tmp_path_factory):
    """The report folder of `pgnmill report --quiet EXTRA... INPUTS...`."""
    made = {}

    def report(inputs, *extra):
        key = (tuple(inputs), extra)
        if key not in made:
            out = tmp_path_factory.mktemp("cli") / "report"
            cli("report", "--quiet", "-o", out, *extra, *inputs)
            made[key] = out
        return made[key]

    return report


@pytest.fixture(scope="session")
def big_pgn(tmp_path_factory):
    """A PGN file of 40 MB, real games over and over: runs long enough to
    interrupt."""
    return _repeated(tmp_path_factory.mktemp("big") / "big.pgn", 40 << 20)


# The real games scripts/throughput.sh builds its corpus of.
REAL = [
    "lichess-2025-05-blitz-sample.pgn",
    "twic1599-sample.pgn",
    "pychess-world-matches.pgn",
    "pgn2tex-london1851.pgn",
    "pgn2tex-tatamast22.pgn",
]


def _repeated(path, size):
    """`path`: the REAL games again and again, to at least `size` bytes."""
    sources = [os.path.join(ROOT, "testdata", "corpus", name) for name in REAL]
    with open(path, "wb") as out:
        while out.tell() < size:
            for source in sources:
                with open(source, "rb") as f:
                    shutil.copyfileobj(f, out)
                out.write(b"\n\n")
    return path
