"""The README's Python examples run as written: the package's, from the
repository's root, prints the games by termination; the clock question's
prints the README's table."""

import os
import re
import shlex
import subprocess
import sys

from conftest import ROOT


def test_the_readmes_example_runs():
    readme = open(f"{ROOT}/README.md", encoding="utf-8").read()
    section = readme.split("## From Python", 1)[1].split("\n## ", 1)[0]
    (code,) = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(code.strip().splitlines()) == 3
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    # polars prints the frame: a `termination` column and its counts.
    assert "termination" in out and "checkmate" in out, out


def test_the_readmes_clock_question_runs_and_prints_its_table(binary, tmp_path):
    """The section "The clock when a threefold could be claimed": its
    command line (with this binary for `pgnmill`) and its Python, as
    written, in a folder that sees the repository's testdata; the table
    printed is the README's."""
    readme = open(f"{ROOT}/README.md", encoding="utf-8").read()
    section = readme.split("### The clock when a threefold could be claimed", 1)[1]
    section = section.split("\n## ", 1)[0].split("\n### ", 1)[0]
    (command,) = re.findall(r"```sh\n(.*?)```", section, re.S)
    (code,) = re.findall(r"```python\n(.*?)```", section, re.S)
    (table,) = re.findall(r"```text\n(.*?)```", section, re.S)
    words = shlex.split(command)
    assert words[:2] == ["pgnmill", "report"]
    os.symlink(f"{ROOT}/testdata", tmp_path / "testdata")
    done = subprocess.run(
        [binary, *words[1:]], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == table.strip(), out
