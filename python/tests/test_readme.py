"""The README's Python example runs as written, from the repository's
root, and prints the games by termination."""

import re
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
