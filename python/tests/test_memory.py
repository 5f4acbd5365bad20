"""Memory stays bounded while a large file is streamed batch by batch: the
peak RSS grows by far less than the file, whose mapped pages are given back
as they are read."""

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
    size = 120 << 20
    path = _repeated(tmp_path / "large.pgn", size)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=True
    )
    rows, growth_kb = map(int, out.stdout.split())
    assert rows > 90_000
    # The whole file resident would be 120 MB more, besides the batches.
    assert growth_kb * 1024 < size // 2, growth_kb
