#!/usr/bin/env python3
"""instructions_by_stage.py: where a run's instructions go, per ply.

Reads the function summary of `callgrind_annotate --inclusive=no --auto=no`
(on standard input) and sums each line's own instructions into the stage of
pgnmill it belongs to, by the source file the instructions were compiled
from: the replay loop inlines the rules kernel and the tokenizer, so the
function name alone would put nearly everything in one place, while
callgrind keeps the file of each inlined line. Lines from the standard
library inlined into the replay loop (bit scans, compares, slice bounds) are
a stage of their own: mostly the kernel's.

Usage (benches/instructions_per_ply.sh runs it with BY_STAGE=1):
    callgrind_annotate --inclusive=no --auto=no --threshold=100 cg.out \
        | benches/instructions_by_stage.py PLIES
"""

import collections
import re
import sys

# (stage, test on the source file, test on the function), first match wins.
STAGES = [
    ("final FEN", lambda f: "src/chess/fen.rs" in f, lambda fn: "fen_with" in fn),
    ("chess rules kernel: SAN, legality, make-move, keys", lambda f: "src/chess/" in f, None),
    ("movetext tokenizer", lambda f: "src/pgn/movetext" in f, lambda fn: "next_slow" in fn),
    ("game splitter", lambda f: "src/pgn/split" in f or "src/simd/classify" in f,
     lambda fn: "::split::" in fn),
    ("tag reader", lambda f: "src/pgn/tag" in f or "src/pgn/headers" in f,
     lambda fn: "headers::" in fn),
    ("repetitions, draw rules, outcome",
     lambda f: any(s in f for s in ("src/replay/repetition", "src/replay/draw_rules",
                                    "src/replay/outcome")),
     lambda fn: "draw_rules::" in fn or "repetition::" in fn),
    ("curation: line key, opening",
     lambda f: any(s in f for s in ("src/replay/curation", "src/openings", "src/replay/line")),
     lambda fn: "openings::" in fn or "replay::line::" in fn),
    ("replay loop itself", lambda f: "src/replay/chess_game" in f, None),
    ("rows and writer", lambda f: "src/report/" in f, lambda fn: "report::" in fn),
    ("memcpy, memset", None, lambda fn: re.search(r"__mem(cpy|move|set)", fn) is not None),
    ("allocation", lambda f: "malloc/" in f, lambda fn: "malloc" in fn or "free" in fn),
    ("UTF-8 validation", None, lambda fn: "utf8" in fn),
    ("replay loop: standard library inlined (bit scans, compares, slices)", None,
     lambda fn: "replay_main_line" in fn),
]


def stage_of(location):
    source, _, function = location.partition(":")
    # The only vector intrinsics the replay loop calls are the
    # tokenizer's (src/pgn/movetext/lanes.rs, through src/simd).
    if "core_arch/src/x86" in source and "replay_main_line" in function:
        return "movetext tokenizer"
    for name, on_file, on_function in STAGES:
        if (on_file and on_file(source)) or (on_function and on_function(function)):
            return name
    return "other"


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
