"""Memory stays bounded while a 200 MB file is streamed batch by batch: the
peak RSS grows by less than 100 MB over the RSS before the call (the
issue's bound), far less than the file, whose mapped pages are given back
as they are read (without that, they would all count)."""

import subprocess
import sys

from conftest import _repeated

CHILD = r"""
import sys
import pyarrow as pa
import pgnmill

def kb(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1])

before = kb("VmRSS:")
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # the peak (VmHWM) starts again from the RSS of now
rows = 0
for batch in pa.RecordBatchReader.from_stream(pgnmill.read_games(sys.argv[1], threads=2)):
    rows += batch.num_rows
print(rows, kb("VmHWM:") - before)
"""


def test_streaming_a_large_file_keeps_memory_flat(tmp_path):
    size = 200_000_000
    path = _repeated(tmp_path / "large.pgn", size)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=True
    )
    rows, growth_kb = map(int, out.stdout.split())
    assert rows > 150_000
    # The whole file resident would be 200 MB more, besides the batches.
    assert growth_kb * 1024 < 100_000_000, growth_kb
