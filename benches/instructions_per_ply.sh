#!/usr/bin/env bash
# instructions_per_ply.sh: the deterministic measure of a change to a hot
# path (docs/performance.md, "Instructions per ply"). Wall and CPU times on
# a shared 2-core machine move by 10 % from run to run; the instructions a
# run executes do not. This counts them for `pgnmill report -j 1` on a fixed
# corpus, the real-game files throughput.sh's corpus is made of, three
# times over (9.4 MB, 7,410 games, 0.62 M plies), and divides by the plies replayed
# (and by the games).
#
# Counted by `perf stat -e instructions:u` where the CPU's counters can be
# read, else by valgrind's callgrind (about 50 times slower: a minute or
# two). The two count slightly differently (callgrind leaves out the
# kernel and counts the dynamic loader); compare figures of one tool only,
# which the output names.
#
# Usage: [CORPUS=clocked|no-moves] [BASELINE=BIN] benches/instructions_per_ply.sh [BINARY] [-- REPORT OPTIONS...]
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
#   CORPUS=no-moves  the real-game corpus with every game's movetext taken
#            out (benches/without_moves.py): the same games, no ply, so
#            the figure is instructions per game, what a game costs
#            before its first move (docs/performance.md)
#   BASELINE=BIN  also count the baseline (shakmaty-replay, built outside
#            the repository as scripts/throughput.sh builds it) on the same
#            corpus with callgrind: `BIN replay 1 corpus.pgn out.csv`
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
  if [ "${CORPUS:-real}" = no-moves ]; then
    mv "$work/corpus.pgn" "$work/with-moves.pgn"
    python3 "$root/benches/without_moves.py" < "$work/with-moves.pgn" > "$work/corpus.pgn"
  fi
fi
run=("$bin" report -j 1 --quiet --force -o "$work/report" "$@" "$work/corpus.pgn")
# A total of summary.json: KEY [REPORT_DIR] (default: the measured run's).
summary_total() {
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' \
    "${2:-$work/report}/summary.json" "$1"
}
if [ "${BY_STAGE:-}" = time ]; then
  frequency=10000
  perf record -q -e cpu-clock -F "$frequency" -o "$work/perf.data" -- "${run[@]}" > /dev/null
  echo "$bin: $(summary_total plies) plies, $(($(stat -c %s "$work/corpus.pgn") / 1000000)) MB (perf record -e cpu-clock)"
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
plies=$(summary_total plies)
games=$(summary_total games)
bytes=$(stat -c %s "$work/corpus.pgn")
if [ "${CORPUS:-real}" = no-moves ]; then
  # The same games as the corpus they were taken from, or the figure
  # would be per something else.
  "$bin" report -j 1 --quiet --force -o "$work/with-moves-report" "$work/with-moves.pgn"
  with_moves=$(summary_total games "$work/with-moves-report")
  if [ "$with_moves" != "$games" ]; then
    echo "instructions_per_ply.sh: $games games without moves, $with_moves with them" >&2
    exit 1
  fi
fi
figures() {
  python3 - "$@" <<'EOF'
import sys
ins, plies, games, size = (int(a) for a in sys.argv[1:5])
tool, binary = sys.argv[5], sys.argv[6]
print(f"{binary}: {ins / 1e6:.1f} M instructions ({tool}), {games} games, {plies} plies, {size / 1e6:.1f} MB")
per_ply = f"instructions per ply: {ins / plies:.1f}   " if plies else ""
print(f"{per_ply}per game: {ins / games:.0f}   per byte: {ins / size:.2f}")
EOF
}
figures "$instructions" "$plies" "$games" "$bytes" "$tool" "$bin"
if [ -n "${BASELINE:-}" ]; then
  valgrind --tool=callgrind --callgrind-out-file="$work/baseline.cg.out" \
    "$BASELINE" replay 1 "$work/corpus.pgn" "$work/baseline.csv" > /dev/null 2> "$work/baseline.cg.log"
  baseline_games=$(($(wc -l < "$work/baseline.csv") - 1))
  figures "$(sed -n 's/^summary: *//p' "$work/baseline.cg.out")" "$plies" "$baseline_games" "$bytes" \
    callgrind "$BASELINE"
fi
if [ -n "${BY_STAGE:-}" ]; then
  callgrind_annotate --inclusive=no --auto=no --threshold=100 "$work/cg.out" 2>/dev/null \
    | if [ "$plies" = 0 ]; then
        python3 "$root/benches/instructions_by_stage.py" "$games" game
      else
        python3 "$root/benches/instructions_by_stage.py" "$plies"
      fi
fi
