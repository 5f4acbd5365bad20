#!/usr/bin/env python3
"""time_by_stage.py: where a run's CPU time goes, stage by stage.

Reads `perf script -F ip,sym,symoff,dso` of a `perf record -e cpu-clock`
run (on standard input), one sample per fixed slice of CPU time, finds the
source file of each sample of the pgnmill binary with addr2line (the
innermost inlined line, as callgrind keeps it) and sums the samples into
the stages of stages.py, the ones instructions_by_stage.py counts
instructions in. A stage whose share of the time is larger than its share
of the instructions runs at fewer instructions per cycle than the rest: it
waits on memory or on mispredicted branches, and cutting its instructions
gains less than elsewhere.

Usage (BY_STAGE=time benches/instructions_per_ply.sh runs it):
    perf script -F ip,sym,symoff,dso -i perf.data \
        | benches/time_by_stage.py BINARY

Shares only: sampling itself slows the run (by about a fifth at 10,000
samples a second on a 2-vCPU virtual machine), so a sample does not stand
for a fixed time of an unobserved run; the shares barely move with the
rate.
"""

import collections
import os
import re
import subprocess
import sys

from stages import print_by_stage

SAMPLE = re.compile(r"^\s*([0-9a-f]+)\s+(.*?)(?:\+0x([0-9a-f]+))?\s+\((.*)\)\s*$")


def symbol_addresses(binary):
    """Every demangled function name of `binary` and its addresses (a
    generic function has one per instance, under one name)."""
    out = subprocess.run(["nm", "-C", "--defined-only", binary],
                         capture_output=True, text=True, check=True).stdout
    table = collections.defaultdict(list)
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in "tTwW":
            table[parts[2]].append(int(parts[0], 16))
    return table


def load_base(samples, table):
    """Where the (position-independent) binary was loaded: the one offset
    that puts most samples at their symbol's address plus their offset."""
    votes = collections.Counter()
    for ip, sym, off in samples:
        for address in table.get(sym, ()):
            votes[ip - off - address] += 1
    return votes.most_common(1)[0][0] if votes else 0


def source_files(binary, addresses):
    """The innermost source file of each address, by addr2line."""
    if not addresses:
        return {}
    query = "".join(f"{a:#x}\n" for a in addresses)
    out = subprocess.run(["addr2line", "-a", "-i", "-e", binary], input=query,
                         capture_output=True, text=True, check=True).stdout
    files, current = {}, None
    for line in out.splitlines():
        if line.startswith("0x"):
            current = int(line, 16)
        elif current is not None and current not in files:
            files[current] = line.rsplit(":", 1)[0]
    return files


def main():
    binary = sys.argv[1]
    binary_path = os.path.realpath(binary)
    ours, locations = [], collections.Counter()
    for text in sys.stdin:
        m = SAMPLE.match(text)
        if not m:
            continue
        ip, sym, off, dso = int(m.group(1), 16), m.group(2), int(m.group(3) or "0", 16), m.group(4)
        if os.path.realpath(dso) == binary_path:
            ours.append((ip, sym, off))
        elif dso.startswith("[kernel"):
            locations["[kernel]:" + sym] += 1
        else:
            locations[f"{dso}:{sym}"] += 1
    base = load_base(ours, symbol_addresses(binary))
    files = source_files(binary, sorted({ip - base for ip, _, _ in ours}))
    for ip, sym, _ in ours:
        locations[f"{files.get(ip - base, '??')}:{sym}"] += 1
    print_by_stage(locations.items(), "samples", str)


if __name__ == "__main__":
    main()
