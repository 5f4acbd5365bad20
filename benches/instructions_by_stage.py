#!/usr/bin/env python3
"""instructions_by_stage.py: where a run's instructions go, per ply.

Reads the function summary of `callgrind_annotate --inclusive=no --auto=no`
(on standard input) and sums each line's own instructions into the stage of
pgnmill it belongs to, by the source file the instructions were compiled
from (stages.py: callgrind keeps the file of each inlined line).

Usage (benches/instructions_per_ply.sh runs it with BY_STAGE=1):
    callgrind_annotate --inclusive=no --auto=no --threshold=100 cg.out \
        | benches/instructions_by_stage.py PLIES
"""

import collections
import re
import sys

from stages import stage_of


def main():
    plies = int(sys.argv[1])
    line = re.compile(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S.*)$")
    sums = collections.Counter()
    for text in sys.stdin:
        m = line.match(text)
        if m and "PROGRAM TOTALS" not in text:
            sums[stage_of(m.group(2))] += int(m.group(1).replace(",", ""))
    total = sum(sums.values())
    print(f"{'per ply':>8} {'share':>6}  stage")
    for name, n in sums.most_common():
        print(f"{n / plies:8.1f} {100 * n / total:5.1f}%  {name}")
    print(f"{total / plies:8.1f} 100.0%  total")


if __name__ == "__main__":
    main()
