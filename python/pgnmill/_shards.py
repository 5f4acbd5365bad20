"""Past one machine: one input file = one task = one Parquet shard.

`shards` submits one task per input file to any executor whose `submit(fn,
*args)` returns a future with `.result()` (concurrent.futures, a
dask.distributed Client, a Ray adapter: docs/scale.md). Each task writes
the report of its file with `report(..., formats=("parquet",))` into a
hidden folder of `out_dir`, then moves its games.parquet into place as the
shard, the last step: a shard that exists is complete. Its summary goes to
`out_dir/_shards/NAME.json` just before, so that a rerun skips finished
shards and still counts them. The merged totals, every count equal to
those of one run over all the inputs, are `out_dir/_summary.json`.

Names starting with `_` or `.` are what Spark, pyarrow datasets and Dask
pass over in a folder of Parquet files: the shards are the folder's only
other files.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
import uuid
import warnings
from typing import Any, Optional

from . import _pgnmill

# Endings taken off a file name to make a shard's stem, as many as end it.
_ENDINGS = (
    ".zst", ".zstd", ".gz", ".bz2", ".xz", ".zip", ".7z",
    ".pgn", ".xqf", ".cbr", ".cbl", ".cbf", ".ubb", ".txt", ".html", ".htm",
)

# The options a shard's summary must share with the run for it to count
# as done (its inputs are its own file; its format is always parquet).
_SAME_OPTIONS = ("variant", "moves", "tags", "where", "clocks", "openings")


def shard_name(path: "str | os.PathLike[str]") -> str:
    """The shard file name of an input: `<stem>-<8 hex>.parquet`.

    The stem is the file name with its endings removed, as many of .zst,
    .zstd, .gz, .bz2, .xz, .zip, .7z, .pgn, .xqf, .cbr, .cbl, .cbf, .ubb, .txt,
    .html, .htm (any case) as end it (`lichess_2025-05.pgn.zst`:
    `lichess_2025-05`), then any leading `.` or `_` (which would hide the
    shard from Spark and pyarrow); `input` if nothing is left. The 8 hex
    digits are the start of the SHA-256 of the input's absolute path (UTF-8,
    as the file system names it), so that `a/games.pgn` and `b/games.pgn`
    get different shards, and a shell can compute the same name
    (`printf %s "$(realpath -s FILE)" | sha256sum | cut -c1-8`).
    """
    absolute = os.path.abspath(os.fspath(path))
    stem = os.path.basename(absolute)
    while True:
        lower = stem.lower()
        ending = next((e for e in _ENDINGS if lower.endswith(e) and len(stem) > len(e)), None)
        if ending is None:
            break
        stem = stem[: -len(ending)]
    stem = stem.lstrip("._") or "input"
    digest = hashlib.sha256(os.fsencode(absolute)).hexdigest()[:8]
    return f"{stem}-{digest}.parquet"


def shards(
    executor: Any,
    paths: Any,
    out_dir: "str | os.PathLike[str]",
    *,
    tags: Any = None,
    where: Any = None,
    moves: bool = False,
    clocks: bool = False,
    openings: Any = None,
    chess960: bool = False,
    threads: Optional[int] = None,
) -> list[str]:
    """Writes one Parquet shard per input file of `paths` into `out_dir`,
    one task each on `executor`, and returns the shard paths in input order.

    `executor` is anything with `submit(fn, *args)` returning a future with
    `.result()`: a concurrent.futures.ProcessPoolExecutor, a
    dask.distributed.Client, Ray through a small adapter (docs/scale.md).
    The workers need pgnmill installed and the inputs and `out_dir` at the
    same paths (a shared file system); a relative input path is read from
    the worker's current folder when it names the same file there, by its
    absolute path otherwise (then the `source` column holds that).

    A shard is `out_dir/<stem>-<8 hex>.parquet` (see `shard_name`), the
    rows of `games.parquet` of that file: the shards together are the
    games.parquet of one run over all of `paths`, row for row, in input
    order when read in the returned order. It is written under a hidden
    name and renamed when complete; a rerun skips the shards that exist
    (resume after a lost worker) and refuses those written with other
    options. `out_dir/_summary.json` holds the merged totals: the
    summary.json of one run over all the inputs (its counts; time and
    threads are this call's).

    The options are read_games's (`openings` files are named to the
    workers by their absolute paths), but for `duplicates`,
    `duplicates_min_plies` and `against`, which compare every game with
    the whole collection and so need one run over it; `threads` is per task (all the worker's
    CPUs when None: give 1 when a machine runs a task per CPU). Inputs not
    read whole are PgnmillWarning warnings here, as for one run.
    """
    started = time.monotonic()
    if openings is not None:
        listed = [openings] if isinstance(openings, (str, os.PathLike)) else list(openings)
        openings = [os.path.abspath(os.fspath(table)) for table in listed]
    options = dict(
        tags=tags, where=where, moves=moves, clocks=clocks, openings=openings,
        chess960=chess960, threads=threads,
    )
    files, base = _pgnmill._plan_shards(paths, **options)
    out = os.path.abspath(os.fspath(out_dir))
    os.makedirs(os.path.join(out, "_shards"), exist_ok=True)
    base_summary = json.loads(base)
    names = [shard_name(f) for f in files]
    parts: dict[str, dict[str, Any]] = {}
    futures = []
    for file, name in zip(files, names):
        done = _finished(out, name, base_summary)
        if done is not None:
            parts[name] = done
            continue
        args = (os.fspath(file), os.path.abspath(file), out, name, options)
        futures.append((name, executor.submit(_write_shard, *args)))
    for name, future in futures:
        parts[name] = json.loads(future.result())
    ordered = [parts[name] for name in names]
    for part in ordered:
        for source in part.get("inputs", []):
            for warning in source.get("warnings", []):
                warnings.warn(warning["message"], _pgnmill.PgnmillWarning, stacklevel=2)
    base_summary["elapsed_seconds"] = time.monotonic() - started
    merged = _pgnmill._merge_summaries(
        json.dumps(base_summary), [json.dumps(p) for p in ordered]
    )
    _write_atomically(os.path.join(out, "_summary.json"), merged + "\n")
    return [os.path.join(os.fspath(out_dir), name) for name in names]


def _finished(out: str, name: str, base: dict[str, Any]) -> Optional[dict[str, Any]]:
    """The summary of shard `name` if it is complete, None if it is to be
    made; PgnmillError if it was made by another pgnmill or options."""
    shard = os.path.join(out, name)
    summary = _summary_path(out, name)
    if not (os.path.isfile(shard) and os.path.isfile(summary)):
        return None
    with open(summary, encoding="utf-8") as f:
        part = json.load(f)
    if part.get("pgnmill_version") != base["pgnmill_version"]:
        raise _pgnmill.PgnmillError(
            f"{shard}: written by pgnmill {part.get('pgnmill_version')}, this is "
            f"{base['pgnmill_version']}; remove the shards or choose another out_dir"
        )
    for key in _SAME_OPTIONS:
        theirs, ours = part["options"].get(key), base["options"].get(key)
        if theirs != ours:
            raise _pgnmill.PgnmillError(
                f"{shard}: written with {key}={theirs!r}, this run asks for {ours!r}; "
                "remove the shards or choose another out_dir"
            )
    return part


def _summary_path(out: str, name: str) -> str:
    return os.path.join(out, "_shards", name[: -len(".parquet")] + ".json")


def _write_shard(path: str, absolute: str, out: str, name: str, options: dict[str, Any]) -> str:
    """One task: the shard of one input file; returns its summary (JSON).

    Runs on a worker. The report goes to a hidden folder of `out`, removed
    at the end whatever happens; its summary is put in place, then its
    games.parquet renamed to the shard.
    """
    here = os.path.exists(path) and os.path.samefile(path, absolute)
    source = path if here else absolute
    partial = os.path.join(out, f".{name}.partial-{uuid.uuid4().hex[:12]}")
    try:
        with warnings.catch_warnings():
            # The driver says the inputs' warnings, from the summary.
            warnings.simplefilter("ignore", _pgnmill.PgnmillWarning)
            summary = _pgnmill.report(source, partial, formats=("parquet",), **options)
        text = json.dumps(summary)
        _write_atomically(_summary_path(out, name), text + "\n")
        os.replace(os.path.join(partial, "games.parquet"), os.path.join(out, name))
        return text
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def _write_atomically(path: str, text: str) -> None:
    """Writes `path` under a hidden name beside it, then renames it."""
    folder, base = os.path.split(path)
    partial = os.path.join(folder, f".{base}.partial-{uuid.uuid4().hex[:12]}")
    try:
        with open(partial, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.remove(partial)
