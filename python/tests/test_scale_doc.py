"""docs/scale.md's recipes, run as written, in a folder that holds
`lichess/`: copies of real games of the test data (three PGN files and two
`.pgn.zst`). Each one's result is checked against one `pgnmill report`
over the same folder. Ray and Spark run where they are installed (CI does
not install them)."""

import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pgnmill
from conftest import ROOT, _binary

DOC = os.path.join(ROOT, "docs", "scale.md")
PGN = ["lichess-2025-05-blitz-sample.pgn", "twic1599-sample.pgn", "pychess-3fold.pgn"]
ZST = ["pzstd-frames.pgn.zst", "skippable-anywhere.pgn.zst"]


def recipe(heading, lang="python"):
    """The code block of section `heading` of docs/scale.md."""
    text = open(DOC, encoding="utf-8").read()
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    (code,) = re.findall(rf"```{lang}\n(.*?)```", section, re.S)
    return code


def run(code):
    """Runs a recipe; its variables."""
    names = {"__name__": "recipe"}
    exec(compile(code, DOC, "exec"), names)
    return names


def run_script(here, code):
    """Runs a recipe that starts worker processes as a user would: saved
    to a file and run with `python`, where a worker started by spawning
    imports that file again (and fails without an `if __name__` guard);
    the `shards` it made."""
    script = here / "recipe.py"
    script.write_text(
        code
        + "\nimport json\n"
        + "if __name__ == '__main__':\n"
        + "    json.dump([str(p) for p in shards], open('shards.json', 'w'))\n"
    )
    subprocess.run([sys.executable, str(script)], check=True, cwd=here, timeout=600)
    return json.loads((here / "shards.json").read_text())


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A folder with lichess/ in it, made the current one."""
    lichess = tmp_path / "lichess"
    lichess.mkdir()
    for name in PGN:
        shutil.copy(os.path.join(ROOT, "testdata", "corpus", name), lichess)
    for name in ZST:
        shutil.copy(os.path.join(ROOT, "testdata", "compressed", name), lichess)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def single_run(here, *inputs):
    """games.parquet and summary.json of one run of the command line over
    `inputs` (lichess/ when none), from `here` (so that `source` is spelled
    as in the shards)."""
    out = here / "single"
    subprocess.run(
        [_binary(), "report", "--quiet", "--force", "--format", "parquet", "--tags", "lichess",
         "-o", str(out), *(inputs or ["lichess/"])],
        check=True, cwd=here,
    )
    summary = json.loads((out / "summary.json").read_text())
    return pq.read_table(out / "games.parquet"), summary


def check_shards(here, shards):
    """The shards, read in the returned order, are the single run; their
    merged totals its summary."""
    want, summary = single_run(here)
    union = pa.concat_tables([pq.read_table(p) for p in shards])
    assert union.num_rows == want.num_rows > 500
    assert union.equals(want)
    merged = json.loads((here / "shards" / "_summary.json").read_text())
    for key in ["elapsed_seconds", "threads"]:
        merged.pop(key), summary.pop(key)
    assert merged == summary
    return want


def counts(table, column):
    values = table.column(column).to_pylist()
    return {v: values.count(v) for v in set(values)}


def test_the_process_pool_then_duckdb_and_polars(here):
    shards = run_script(here, recipe("concurrent.futures"))
    assert len(shards) == len(PGN) + len(ZST)
    want = check_shards(here, shards)
    read = run(recipe("Reading the shards"))
    assert dict(read["by_termination"]) == counts(want, "termination")
    missed = want.column("missed_threefold").to_pylist().count(True)
    assert read["missed"].height == missed > 0


def test_dask(here):
    pytest.importorskip("dask.distributed")
    check_shards(here, run_script(here, recipe("Dask")))


def test_ray(here):
    ray = pytest.importorskip("ray")
    try:
        check_shards(here, run(recipe("Ray"))["shards"])
    finally:
        ray.shutdown()


def test_spark(here):
    pytest.importorskip("pyspark")
    if shutil.which("java") is None:
        pytest.skip("Spark needs Java")
    with ThreadPoolExecutor(2) as pool:
        pgnmill.shards(pool, "lichess/", "shards/", tags="lichess", threads=1)
    want, _ = single_run(here)
    spark = run(recipe("Spark"))
    try:
        assert dict(spark["by_termination"]) == counts(want, "termination")
        assert spark["games"].count() == want.num_rows
    finally:
        spark["spark"].stop()


def test_the_slurm_array_one_task_at_a_time(here):
    # A name with a dot inside its stem and a leading `_`, which the
    # script must strip as shard_name does.
    renamed = "_skippable.2025-05.pgn.zst"
    os.rename(here / "lichess" / ZST[1], here / "lichess" / renamed)
    names = [ZST[0], renamed]
    script = recipe("Slurm, with the command line", "sh")
    path = os.path.dirname(_binary()) + os.pathsep + os.environ["PATH"]
    for task in range(len(names)):
        env = dict(os.environ, PATH=path, SLURM_ARRAY_TASK_ID=str(task), SLURM_CPUS_PER_TASK="1")
        subprocess.run(["bash", "-c", script], check=True, cwd=here, env=env)
    # Each report is named as pgnmill.shards names the file's shard.
    assert sorted(os.listdir(here / "reports")) == sorted(
        pgnmill.shard_name(here / "lichess" / name)[: -len(".parquet")] for name in names
    )
    want, summary = single_run(here, *[f"lichess/{name}" for name in names])
    read = run(recipe("Slurm, with the command line"))
    assert read["games"] == want.num_rows > 100
    assert read["totals"] == (summary["games"], summary["plies"])
    union = pa.concat_tables(
        [pq.read_table(here / "reports" / name / "games.parquet") for name in os.listdir(here / "reports")]
    )
    keys = lambda t: sorted(zip(t.column("source").to_pylist(), t.column("game").to_pylist()))
    assert keys(union) == keys(want)
