"""stages.py: the stages of pgnmill a run's cost is summed into, by the
source file each piece of machine code was compiled from.

The replay loop inlines the rules kernel and the tokenizer, so a function
name alone would put nearly everything in one place; both callgrind and
addr2line keep the file of each inlined line. Lines from the standard
library inlined into the replay loop (bit scans, compares, slice bounds) are
a stage of their own: mostly the kernel's.

Used by instructions_by_stage.py (callgrind's instructions) and
time_by_stage.py (perf's CPU-time samples), so that the two tables name the
same stages. A location is `source file:function`; the operating system's
own work, which only a time sample can see, is `[kernel]:function`.
"""

import collections
import re

# (stage, test on the source file, test on the function), first match wins.
STAGES = [
    ("system: page faults, file writes, thread wake-ups",
     lambda f: f.startswith("[kernel"), None),
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


def print_by_stage(costs, unit, per):
    """Prints the sum of `costs` (location, cost) in each stage, largest
    first, as `per(sum)` under the heading `unit` and as a share."""
    sums = collections.Counter()
    for location, cost in costs:
        sums[stage_of(location)] += cost
    total = sum(sums.values())
    print(f"{unit:>8} {'share':>6}  stage")
    for name, n in sums.most_common():
        print(f"{per(n):>8} {100 * n / total:5.1f}%  {name}")
    print(f"{per(total):>8} 100.0%  total")
