#!/usr/bin/env python3
"""instructions_by_stage.py: where a run's instructions go, per ply.

Reads the function summary of `callgrind_annotate --inclusive=no --auto=no`
(on standard input) and sums each line's own instructions into the stage of
pgnmill it belongs to, by the source file the instructions were compiled
from (stages.py: callgrind keeps the file of each inlined line).

Usage (benches/instructions_per_ply.sh runs it with BY_STAGE=1):
    callgrind_annotate --inclusive=no --auto=no --threshold=100 cg.out \
        | benches/instructions_by_stage.py COUNT [UNIT]
COUNT is the number of plies, or of UNIT (`game` for a corpus without
moves, CORPUS=no-moves).
"""

import re
import sys

from stages import print_by_stage


def main():
    count = int(sys.argv[1])
    unit = sys.argv[2] if len(sys.argv) > 2 else "ply"
    line = re.compile(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S.*)$")
    costs = []
    for text in sys.stdin:
        m = line.match(text)
        if m and "PROGRAM TOTALS" not in text:
            costs.append((m.group(2), int(m.group(1).replace(",", ""))))
    print_by_stage(costs, f"per {unit}", lambda n: f"{n / count:.1f}")


if __name__ == "__main__":
    main()
