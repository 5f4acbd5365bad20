#!/usr/bin/env bash
# instructions_per_ply.sh: the deterministic measure of a change to a hot
# path (docs/performance.md, "Instructions per ply"). Wall and CPU times on
# a shared 2-core machine move by 10 % from run to run; the instructions a
# run executes do not. This counts them for `pgnmill report -j 1` on a fixed
# corpus, the real-game files throughput.sh's corpus is made of, three
# times over (about 10 MB, 0.8 M plies), and divides by the plies replayed.
#
# Counted by `perf stat -e instructions:u` where the CPU's counters can be
# read, else by valgrind's callgrind (about 50 times slower: a minute or
# two). The two count slightly differently (callgrind leaves out the
# kernel and counts the dynamic loader); compare figures of one tool only,
# which the output names.
#
# Usage: [CORPUS=clocked] benches/instructions_per_ply.sh [BINARY] [-- REPORT OPTIONS...]
#   BINARY   a pgnmill binary (default: target/release/pgnmill, built first)
#   REPORT OPTIONS  added to `pgnmill report` (say, --format parquet)
#   BY_STAGE=1  count with callgrind and also print where the instructions
#            go, stage by stage (benches/instructions_by_stage.py)
#   BY_STAGE=time  instead, where the CPU time goes, stage by stage: perf
#            samples the run every 100 us of CPU time (`-e cpu-clock`, which
#            needs no hardware counter) on twenty times as many copies of
#            the corpus, for enough samples (benches/time_by_stage.py).
#            A sampled share moves with the machine's load; the
#            instruction count does not
#   CORPUS=clocked  the lichess sample four times over instead (4.0 MB,
#            0.11 M plies; 433 of its 438 games have [%clk] comments, in
#            lichess's spelling): the corpus the cost of --clocks is
#            measured on (docs/performance.md)
# Quote the figure before and after a change, with the tool it came from.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  bin=$1
  shift
fi
[ "${1:-}" = "--" ] && shift
if [ -z "$bin" ]; then
  (cd "$root" && cargo build --release --quiet)
  bin=$root/target/release/pgnmill
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mapfile -t real < <(grep -v '^#' "$root/benches/measured_corpus.txt")
copies=1
[ "${BY_STAGE:-}" = time ] && copies=20
if [ "${CORPUS:-real}" = clocked ]; then
  for _ in $(seq $((4 * copies))); do
    cat "$root/testdata/corpus/lichess-2025-05-blitz-sample.pgn"; printf '\n\n'
  done > "$work/corpus.pgn"
else
  for _ in $(seq $((3 * copies))); do
    for f in "${real[@]}"; do cat "$root/testdata/corpus/$f"; printf '\n\n'; done
  done > "$work/corpus.pgn"
fi
run=("$bin" report -j 1 --quiet --force -o "$work/report" "$@" "$work/corpus.pgn")
plies_of() {
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["plies"])' "$work/report/summary.json"
}
if [ "${BY_STAGE:-}" = time ]; then
  frequency=10000
  perf record -q -e cpu-clock -F "$frequency" -o "$work/perf.data" -- "${run[@]}" > /dev/null
  echo "$bin: $(plies_of) plies, $(($(stat -c %s "$work/corpus.pgn") / 1000000)) MB (perf record -e cpu-clock)"
  perf script -F ip,sym,symoff,dso -i "$work/perf.data" 2> /dev/null \
    | python3 "$root/benches/time_by_stage.py" "$bin"
  exit
fi
if [ -z "${BY_STAGE:-}" ] && perf stat -x, -e instructions:u true 2>&1 | grep -q '^[0-9]'; then
  tool="perf stat -e instructions:u"
  instructions=$(perf stat -x, -e instructions:u "${run[@]}" 2>&1 >/dev/null | awk -F, '/instructions/ {print $1}')
else
  tool="callgrind"
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "${run[@]}" > /dev/null 2> "$work/cg.log"
  instructions=$(sed -n 's/^summary: *//p' "$work/cg.out")
fi
plies=$(plies_of)
bytes=$(stat -c %s "$work/corpus.pgn")
python3 - "$instructions" "$plies" "$bytes" "$tool" "$bin" <<'EOF'
import sys
ins, plies, size, tool, binary = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
print(f"{binary}: {ins / 1e6:.1f} M instructions ({tool}), {plies} plies, {size / 1e6:.1f} MB")
print(f"instructions per ply: {ins / plies:.1f}   per byte: {ins / size:.2f}")
EOF
if [ -n "${BY_STAGE:-}" ]; then
  callgrind_annotate --inclusive=no --auto=no --threshold=100 "$work/cg.out" 2>/dev/null \
    | python3 "$root/benches/instructions_by_stage.py" "$plies"
fi
