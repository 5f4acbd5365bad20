"""Type stubs of pgnmill's native module (the public names are re-exported,
with their documentation, by `pgnmill`)."""

import os
from typing import Any, Iterable, Iterator, Optional, Union

_Path = Union[str, os.PathLike[str]]
_Paths = Union[_Path, Iterable[_Path]]
_Words = Union[str, Iterable[str]]

__version__: str

class PgnmillError(Exception):
    """A run that could not complete: an input or the output folder could not be used."""

class PgnmillWarning(UserWarning):
    """An input that was not read whole: cut off, damaged, or not PGN at all."""

class Batch:
    """One batch of a stream's rows (Arrow PyCapsule interface)."""

    @property
    def num_rows(self) -> int: ...
    def __len__(self) -> int: ...
    def __arrow_c_schema__(self) -> object: ...
    def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> tuple[object, object]: ...
    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...

class RowStream:
    """The rows of a run, read once (Arrow PyCapsule interface, or iterated)."""

    @property
    def columns(self) -> list[str]: ...
    def __arrow_c_schema__(self) -> object: ...
    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...
    def __iter__(self) -> Iterator[Batch]: ...
    def __next__(self) -> Batch: ...
    def close(self) -> None: ...

# The options (tags, where, moves, clocks, plies, chess960, threads,
# openings) are pgnmill's functions' keywords, passed on.
def read_games(paths: _Paths, **options: Any) -> RowStream: ...
def read_plies(paths: _Paths, **options: Any) -> RowStream: ...
def read_fens(
    paths: _Paths, *, chess960: bool = False, threads: Optional[int] = None
) -> RowStream: ...
def report(
    paths: _Paths,
    out: _Path,
    *,
    formats: Optional[_Words] = None,
    force: bool = False,
    strict: bool = False,
    **options: Any,
) -> dict[str, Any]: ...
def _plan_shards(paths: _Paths, **options: Any) -> tuple[list[os.PathLike[str]], str]: ...
def _merge_summaries(base: str, parts: list[str]) -> str: ...
