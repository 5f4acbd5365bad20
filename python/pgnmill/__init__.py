"""pgnmill: replay every game of chess and xiangqi PGN collections, and read
the rows as Arrow record batches (polars, DuckDB, pyarrow, pandas): one per
game (read_games) or one per ply, with its FEN, clock and evaluation
(read_plies); audit FEN/EPD lists the same way (read_fens).

    import pgnmill, polars as pl
    games = pl.DataFrame(pgnmill.read_games("games.pgn.zst"))

The columns are those of the command line's games.parquet (docs/reports.md).
Errors: a missing input is FileNotFoundError, a refused option ValueError
(both raised by the call, before any game is read), anything else
PgnmillError. Inputs not read whole (cut off, damaged, not PGN) are
PgnmillWarning warnings.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Optional, Union

from . import _pgnmill
from ._pgnmill import Batch, PgnmillError, PgnmillWarning, RowStream
from ._shards import shard_name, shards

__version__: str = _pgnmill.__version__

Paths = Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]]
Words = Union[str, Iterable[str]]

__all__ = [
    "Batch",
    "PgnmillError",
    "PgnmillWarning",
    "RowStream",
    "read_fens",
    "read_games",
    "read_plies",
    "report",
    "shard_name",
    "shards",
]


def read_games(
    paths: Paths,
    *,
    tags: Optional[Words] = None,
    where: Optional[Words] = None,
    moves: bool = False,
    clocks: bool = False,
    chess960: bool = False,
    threads: Optional[int] = None,
    openings: Optional[Paths] = None,
    duplicates: bool = False,
    duplicates_min_plies: Optional[int] = None,
    against: Optional[Paths] = None,
) -> RowStream:
    """The games of `paths` as a stream of Arrow record batches.

    `paths` is a path or a list of them, as the command line takes: PGN
    files, compressed (zstd, gzip, bzip2, xz) or not, zip archives, xiangqi
    records, folders (searched for those), "-" for standard input.

    The stream has the columns, names, types and row order of
    `pgnmill report --format parquet`'s games.parquet for the same inputs
    and options. It implements the Arrow PyCapsule interface
    (`__arrow_c_stream__`, `__arrow_c_schema__`): `polars.DataFrame(s)`,
    `pyarrow.table(s)`, `pyarrow.RecordBatchReader.from_stream(s)`,
    `duckdb.sql("select ... from s")` read it without a copy, and
    iterating it gives `Batch`es. It is read once: reading it again (it
    was read to its end, handed to another reader or closed) raises
    PgnmillError; a stream partly iterated and then handed to a reader
    gives it the batches not yet taken. Threads may share it: each batch
    goes to one of them, and `close()` from any thread stops the run (a
    reader it was handed to then raises). The run starts at once
    on threads of its own, a few batches ahead of the reader: memory stays
    bounded whatever the input's size, the GIL is free meanwhile, and
    Ctrl-C stops the run and raises KeyboardInterrupt.

    tags: tag columns to add (`--tags`): tag names, comma lists, "lichess".
    where: conditions a game's tags must meet (`--where`), e.g.
        ["WhiteElo>=2500", "Event~Titled"].
    moves: add the `moves` column (`--moves`).
    clocks: add the clock and evaluation columns (`--clocks`), read from
        the [%clk], [%emt] and [%eval] commands of the move comments and
        [TimeControl]: time_base, time_increment, each side's first, last
        and lowest clock and time used, clock_plies,
        clock_at_threefold_claim, eval_plies, eval_last_cp, eval_last_mate.
    chess960: replay every game as Chess960 (`--variant chess960`).
    threads: replay threads (`-j`); all CPUs when None.
    openings: opening tables (TSV: eco, name, line) naming the games'
        openings instead of the compiled-in lichess table (`--openings`):
        a path or a list of them, read in order.
    duplicates, duplicates_min_plies, against: the duplicate columns
        dup_of, dup_kind and dup_headers, last (`--duplicates`,
        `--duplicates-min-plies`, `--against`; see report). A game's verdict
        is known only once every game is read: the rows are written to a
        Parquet file in a temporary folder (TMPDIR) first, then streamed
        from it, so the first batch comes when the run is over.

    Raises FileNotFoundError for a missing input or openings table,
    ValueError for a refused option (the command line's reason, a table
    line that cannot be read), PgnmillError otherwise.
    """
    return _pgnmill.read_games(
        paths,
        tags=tags,
        where=where,
        moves=moves,
        clocks=clocks,
        chess960=chess960,
        threads=threads,
        openings=openings,
        duplicates=duplicates,
        duplicates_min_plies=duplicates_min_plies,
        against=against,
    )


def read_plies(
    paths: Paths,
    *,
    where: Optional[Words] = None,
    chess960: bool = False,
    threads: Optional[int] = None,
) -> RowStream:
    """The plies of the games of `paths`, one row per main-line ply of
    every game, in input order, as a stream of Arrow record batches (read
    once, as read_games's stream).

    The stream has the columns, names, types and row order of
    `pgnmill report --plies`'s plies.parquet for the same inputs and
    options: source, game (the game's index within its source: join on
    source and game to read_games's rows), ply (1 = the game's first
    move), san, uci (ICCS for xiangqi), fen after the move (as
    python-chess's board.fen() writes it), clock_ms, emt_ms, eval_cp,
    eval_mate, eval_depth (from the move's [%clk], [%emt], [%eval]
    comments; null where absent) and repetition (how many times the
    position has occurred so far). Batches hold about 65,536 rows and end
    with a game.

    where: conditions a game's tags must meet (`--where`); the plies of
        the other games are left out.
    chess960: replay every game as Chess960 (`--variant chess960`).
    threads: replay threads (`-j`); all CPUs when None.

    Raises FileNotFoundError for a missing input, ValueError for a refused
    option, PgnmillError otherwise.
    """
    return _pgnmill.read_plies(paths, where=where, chess960=chess960, threads=threads)


def read_fens(
    paths: Paths,
    *,
    chess960: bool = False,
    threads: Optional[int] = None,
) -> RowStream:
    """The audit rows of `pgnmill fen` over `paths`, as a stream of Arrow
    record batches (read once, as read_games's stream).

    `paths`: FEN, EPD and .perft lists (compressed or not), xiangqi record
    files (XQF, CCBridge, DhtmlXQ: one row per record, its start position),
    folders (searched for those), "-" for standard input.

    The columns are the CSV's of `pgnmill fen`, in its order (docs/reports.md,
    section `pgnmill fen`): text never null (an empty field is ""), `line`
    Int64, `legal_moves` Int32, `check` Boolean and `game` Int64, null where
    the CSV field is empty. A record that is not a position is a row with
    status `bad_fen` and the reason.

    chess960: read every record as Chess960 (`--chess960`).
    threads: audit threads (`-j`); all CPUs when None.

    Raises FileNotFoundError for a missing input, ValueError for a refused
    option. Inputs not read whole (damaged, binary, PGN) are PgnmillWarning
    warnings, given when the stream ends.
    """
    return _pgnmill.read_fens(paths, chess960=chess960, threads=threads)


def report(
    paths: Paths,
    out: Union[str, "os.PathLike[str]"],
    *,
    formats: Words = ("csv",),
    force: bool = False,
    strict: bool = False,
    tags: Optional[Words] = None,
    where: Optional[Words] = None,
    moves: bool = False,
    clocks: bool = False,
    plies: bool = False,
    chess960: bool = False,
    threads: Optional[int] = None,
    openings: Optional[Paths] = None,
    duplicates: bool = False,
    duplicates_min_plies: Optional[int] = None,
    against: Optional[Paths] = None,
) -> dict[str, Any]:
    """Writes the report folder `out` as `pgnmill report` does and returns
    its summary.json as a dict.

    formats: "csv", "parquet" or both (`--format`).
    force: replace an earlier report in `out` (`--force`); without it an
        earlier report is refused with PgnmillError.
    out is refused with ValueError, before anything is read or written,
        where `-o` is refused: `-`, an empty path, an input folder or a
        folder inside one, a folder that holds an input.
    strict: raise PgnmillError when an input could not be read whole, after
        the report is written (`--strict`).
    plies: also write plies.parquet, and plies.csv with "csv" (`--plies`):
        the rows of read_plies.
    duplicates: find the games that copy another (`--duplicates`): the
        columns dup_of, dup_kind (exact, prefix, transposition) and
        dup_headers, last, and duplicates.csv; the summary's "duplicates"
        counts them (read_games takes it too).
    duplicates_min_plies: a game of fewer plies is a copy only of a game
        whose White, Black, Event, Site and Date agree
        (`--duplicates-min-plies`, 10 when None); implies duplicates.
    against: master collections (a path or a list of them) read first only
        to be matched against (`--against`): no rows of theirs, and a
        dup_of may name one of their games; implies duplicates.
    The other options are read_games's. The GIL is free while the report
    is made; Ctrl-C stops it (no partial file is left) and raises
    KeyboardInterrupt. Inputs not read whole are PgnmillWarning warnings.
    """
    return _pgnmill.report(
        paths,
        out,
        formats=formats,
        force=force,
        strict=strict,
        tags=tags,
        where=where,
        moves=moves,
        clocks=clocks,
        plies=plies,
        chess960=chess960,
        threads=threads,
        openings=openings,
        duplicates=duplicates,
        duplicates_min_plies=duplicates_min_plies,
        against=against,
    )
