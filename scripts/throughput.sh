#!/usr/bin/env bash
# throughput.sh: the measurements of docs/performance.md, side by side with
# the baseline (pgn-reader + shakmaty: shakmaty-replay, GPL, not in this repository),
# in one run on one machine, since absolute times on shared machines drift.
#
# What it does:
#  1. builds pgnmill (cargo build --release) and the baseline, the latter with
#     CARGO_TARGET_DIR in the work directory: it is GPL-3.0, it is never
#     copied into or linked with this repository. Without the baseline
#     directory, pgnmill is measured alone and the script says so.
#  2. builds, in the work directory (never in the repository), a corpus of at
#     least 200 MB by concatenating the real games of testdata/corpus/
#     (lichess blitz with %clk comments, TWIC, annotated world-championship
#     games with variations and NAGs, London 1851, Tata Steel 2022) again and
#     again; its .pgn.zst
#     (zstd CLI, level 3, one frame) and, with pzstd, its many-frame twin
#     .pgn.pzstd.zst (as the lichess dumps are); with bzip2, its .pgn.bz2
#     (bzip2 -9, as the FICS database's downloads are); with --huge also a 2 GB corpus (the 200 MB one ten
#     times) for the memory check.
#  3. runs, alternating, N rounds of: baseline `replay 1`, pgnmill `-j 1`,
#     pgnmill `-j 2`, pgnmill `-j 1` and `-j 2` on the .pgn.zst and the
#     .pgn.pzstd.zst (decoded frame by frame, from the file and piped in
#     through `cat`), pgnmill `-j 1` and `-j 2` on the .pgn.bz2 (decoded
#     block by block at `-j 2`), baseline
#     `replay 2` (the baseline's own 2-thread speed-up shows what this
#     machine's second core gives right now). The 1-thread runs are pinned
#     to one core (`taskset -c 0`, when there is taskset): pgnmill's reader
#     and writer threads overlap replay, and unpinned they would borrow the
#     second core, so "1 thread" means one core. Each run is timed by
#     /usr/bin/time (wall, user, sys, %M) while /proc/PID/status is sampled
#     every 50 ms for the peak RssAnon (anonymous memory: heap, stacks) and
#     VmRSS. %M (max RSS) also counts the pages of the memory-mapped input
#     that were touched, so it grows with the input for a mapped file and
#     says nothing about pgnmill's own memory; RssAnon does.
#     Also pgnmill `-j 1` and `-j 2` with `--format parquet`, to put the
#     Parquet output's throughput and memory next to CSV's (the `-j 1` one
#     right after pgnmill `-j 1`, or after the --before run: each ratio is
#     taken between runs of the same round, as close together as may be).
#  4. prints medians and the ratios of docs/performance.md: pgnmill MB per CPU-second over
#     the baseline's (target 3.5x; the median of the per-round ratios, each
#     from two adjacent runs), 2-thread wall speed-up over 1 thread (target
#     1.8x, meaningful only on an idle machine: the CPU% column shows whether
#     the second core was there), RssAnon of the 2 GB input over the 200 MB
#     one (target within 10%, --huge), zstd input throughput next to
#     `zstd -d` alone, the pzstd input's 2-thread speed-up (target 1.8x),
#     the .pgn.bz2 input's 2-thread speed-up, and the serial fraction (benches/pipeline_stages.rs).
#  5. prints the sha256 of games.csv without its `source` column (the path
#     of the input, which differs between machines and between .pgn and
#     .pgn.zst), checks that it is the same in every run, and writes it to
#     WORK/games.csv.sha256: compare it before and after an optimisation.
#
# Usage: scripts/throughput.sh [-n N] [--huge] [--work DIR] [--size-mb MB]
#                              [--no-stages] [--before BIN] [--parquet-pairs N]
#                              [--baseline-pairs N] [--before-pairs N]
#                              [--binary BIN]
#   -n N        rounds (default 3)
#   --huge      also build a 2 GB corpus and measure RssAnon on it
#               (2 GB of disk plus 0.4 GB of report; 2 more runs, a few
#               minutes)
#   --work DIR  work directory (default ${TMPDIR:-/tmp}/pgnmill-throughput;
#               corpora are kept there and reused while testdata is unchanged)
#   --size-mb   minimum corpus size in MB (default 200)
#   --no-stages skip the serial-fraction run
#   --before BIN  also time BIN, another pgnmill binary (say, one built from
#               the commit before a change: `git worktree add`, then
#               `cargo build --release` there), at -j 1 in every round right
#               after this one, and print this one's MB per CPU-second over
#               BIN's: the median of the per-round ratios and their spread
#               (min to max), the before-and-after of one run
#   --parquet-pairs N  after the rounds, N pairs of pgnmill `-j 1` runs,
#               CSV and --format parquet, pinned, back to back in ABBA order
#               (CSV first in odd pairs, Parquet first in even ones), and
#               print the median of the N per-pair CPU-time ratios with a 95%
#               confidence interval of that median (from the order
#               statistics of the ratios). On a shared machine one round's
#               ratio wanders by 30% or more, so the few rounds of -n say
#               little about a difference of a few percent; 100 pairs take
#               some 6 minutes
#   --baseline-pairs N  likewise N pairs of pgnmill `-j 1` and the baseline's
#               `replay 1`, pinned, in ABBA order: pgnmill's MB per CPU-second
#               over the baseline's as the median of the N per-pair ratios,
#               with its 95% confidence interval (the target 3.5x judged on
#               a shared machine; 100 pairs take some 8 minutes)
#   --before-pairs N  with --before BIN: N pairs of this pgnmill and BIN, the
#               same way (the before and after of a change to within a few
#               percent; 100 pairs take some 4 minutes)
#   --binary BIN  measure BIN as pgnmill instead of this repository's
#               `cargo build --release` (say, target/pgo/pgnmill from
#               scripts/build-pgo.sh; --before target/release/pgnmill then
#               puts the standard build beside it in the same run)
# Environment: BASELINE_DIR (default: ../shared/baselines next to the
# repository root, then /work/shared/baselines), CARGO_TARGET_DIR.
#
# The default run (N=3, no --huge) takes about 5-10 minutes on a loaded
# 2-core machine. Needs bash, cargo, /usr/bin/time (GNU time), sha256sum,
# awk; zstd for the .zst runs (apt-get install zstd), skipped without it.
set -euo pipefail

rounds=3 huge=0 stages=1 size_mb=200 before= pq_pairs=0 base_pairs=0 before_pairs=0 binary=
work=${TMPDIR:-/tmp}/pgnmill-throughput
while [ $# -gt 0 ]; do
  case $1 in
    -n) rounds=${2:?-n needs a number}; shift 2 ;;
    --huge) huge=1; shift ;;
    --work) work=${2:?--work needs a directory}; shift 2 ;;
    --size-mb) size_mb=${2:?--size-mb needs a number}; shift 2 ;;
    --no-stages) stages=0; shift ;;
    --before) before=${2:?--before needs a pgnmill binary}; shift 2 ;;
    --parquet-pairs) pq_pairs=${2:?--parquet-pairs needs a number}; shift 2 ;;
    --baseline-pairs) base_pairs=${2:?--baseline-pairs needs a number}; shift 2 ;;
    --before-pairs) before_pairs=${2:?--before-pairs needs a number}; shift 2 ;;
    --binary) binary=${2:?--binary needs a pgnmill binary}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "throughput.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "$before" ]; then
  [ -x "$before" ] || { echo "throughput.sh: --before $before is not an executable file" >&2; exit 2; }
  before=$(cd "$(dirname "$before")" && pwd)/$(basename "$before")
fi
if [ -n "$binary" ]; then
  [ -x "$binary" ] || { echo "throughput.sh: --binary $binary is not an executable file" >&2; exit 2; }
  binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
case $work/ in "$root"/*)
  case $work/ in "$root"/target/*) ;; *)
    echo "throughput.sh: the work directory must be outside the repository (or under target/)" >&2; exit 2 ;;
  esac ;;
esac
[ -x /usr/bin/time ] || { echo "throughput.sh: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 1; }
log() { printf '== %s\n' "$*" >&2; }

# ---------------------------------------------------------------- builds
log "building pgnmill (release)"
(cd "$root" && cargo build --release --quiet)
target=${CARGO_TARGET_DIR:-$root/target}
pgnmill=${binary:-$target/release/pgnmill}
if [ "$stages" = 1 ]; then
  # A bench program (harness = false): cargo names its binary with a hash,
  # which the build's JSON messages give.
  stages_bin=$(cd "$root" && cargo bench --quiet --no-run --bench pipeline_stages --message-format=json |
    grep '"kind":\["bench"\]' | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
  [ -x "$stages_bin" ] || { echo "throughput.sh: benches/pipeline_stages did not build" >&2; exit 1; }
fi

baseline=
# BASELINE_DIR, when set, is the only place looked at.
if [ -n "${BASELINE_DIR:-}" ]; then candidates=("$BASELINE_DIR")
else candidates=("$root/../shared/baselines" /work/shared/baselines); fi
for d in "${candidates[@]}"; do
  if [ -n "$d" ] && [ -f "$d/shakmaty-replay/Cargo.toml" ]; then
    bdir=$(cd "$d/shakmaty-replay" && pwd); break
  fi
done
if [ -n "${bdir:-}" ]; then
  log "building the baseline from $bdir (target dir $work/baseline-target)"
  if (cd "$bdir" && CARGO_TARGET_DIR=$work/baseline-target cargo build --release --quiet); then
    baseline=$work/baseline-target/release/shakmaty-replay
  else
    echo "throughput.sh: the baseline did not build; measuring pgnmill alone" >&2
  fi
else
  echo "throughput.sh: no baseline directory (set BASELINE_DIR); measuring pgnmill alone" >&2
fi

# ---------------------------------------------------------------- corpora
mapfile -t real < <(grep -v '^#' "$root/benches/measured_corpus.txt")
cdir=$work/corpus
mkdir -p "$cdir"
{ for f in "${real[@]}"; do cat "$root/testdata/corpus/$f"; printf '\n\n'; done; } > "$cdir/base.pgn"
base_bytes=$(stat -c %s "$cdir/base.pgn")
reps=$(( (size_mb * 1000000 + base_bytes - 1) / base_bytes ))
stamp="$(sha256sum < "$cdir/base.pgn" | cut -c1-64) x$reps"
if [ "$(cat "$cdir/stamp" 2>/dev/null)" != "$stamp" ] || [ ! -s "$cdir/big.pgn" ]; then
  log "building big.pgn: base.pgn ($base_bytes bytes) x $reps"
  rm -f "$cdir/big.pgn.zst" "$cdir/big.pgn.pzstd.zst" "$cdir/big.pgn.bz2" "$cdir/huge.pgn" "$cdir/stamp"
  for _ in $(seq "$reps"); do cat "$cdir/base.pgn"; done > "$cdir/big.pgn"
  echo "$stamp" > "$cdir/stamp"
fi
big=$cdir/big.pgn
big_bytes=$(stat -c %s "$big")
have_zstd=0
if command -v zstd > /dev/null; then
  have_zstd=1
  if [ ! -s "$big.zst" ]; then
    log "compressing big.pgn (zstd -3)"
    zstd -q -3 -T0 -f "$big" -o "$big.zst.tmp" && mv "$big.zst.tmp" "$big.zst"
  fi
else
  echo "throughput.sh: no zstd CLI (apt-get install zstd); skipping the .pgn.zst runs" >&2
fi
# pzstd writes many frames (as the lichess dumps are), which pgnmill
# decodes on several threads; `zstd -T0` writes one frame.
have_pzstd=0
if command -v pzstd > /dev/null; then
  have_pzstd=1
  if [ ! -s "$big.pzstd.zst" ]; then
    log "compressing big.pgn (pzstd -3)"
    pzstd -q -3 -p 2 -f "$big" -o "$big.pzstd.zst.tmp" && mv "$big.pzstd.zst.tmp" "$big.pzstd.zst"
  fi
fi
# bzip2 decodes about 40 MB of text a CPU-second, a fifth of a replay
# thread: pgnmill decodes a .bz2 file's blocks on every core.
have_bzip2=0
if command -v bzip2 > /dev/null; then
  have_bzip2=1
  if [ ! -s "$big.bz2" ]; then
    log "compressing big.pgn (bzip2 -9)"
    bzip2 -q -9 -c "$big" > "$big.bz2.tmp" && mv "$big.bz2.tmp" "$big.bz2"
  fi
fi
if [ "$huge" = 1 ] && [ ! -s "$cdir/huge.pgn" ]; then
  log "building huge.pgn: big.pgn x 10"
  for _ in $(seq 10); do cat "$big"; done > "$cdir/huge.pgn.tmp" && mv "$cdir/huge.pgn.tmp" "$cdir/huge.pgn"
fi
log "corpus: $big ($big_bytes bytes)"

# ---------------------------------------------------------------- one run
results=$work/results.tsv
: > "$results"
# measure LABEL ROUND CMD...: runs CMD under /usr/bin/time, sampling the
# RssAnon and VmRSS of the process every 50 ms; appends a line to $results:
# label round wall user sys maxrss_kb rssanon_peak_kb vmrss_peak_kb
# rssanon_mean_kb rssanon_second_peak_kb. The peak of samples creeps up
# with the number of samples: a longer run has more chances to catch the
# short spike of two batches' rows held at once (the bound by design), so
# the 2 GB run's overall peak says how long it ran, not how much more it
# needs. The mean of the samples is the steady state, and the median of
# each second's peak compares like with like (a second of the 2 GB run
# with a second of the 200 MB one): all three are printed.
measure() {
  local label=$1 round=$2; shift 2
  local tf=$work/time.out
  /usr/bin/time -f '%e %U %S %M' -o "$tf" "$@" > /dev/null 2> "$work/$label.stderr" &
  local tpid=$! cpid= anon=0 rss=0 asum=0 an=0 k v _ sec=0 speaks=()
  while kill -0 "$tpid" 2> /dev/null; do
    if [ -z "$cpid" ]; then
      # The children file has no final newline: read fails but assigns.
      read -r cpid _ 2> /dev/null < "/proc/$tpid/task/$tpid/children" || true
    fi
    if [ -n "$cpid" ]; then
      while read -r k v _; do
        if [ "$k" = RssAnon: ]; then
          asum=$((asum + v)) an=$((an + 1))
          if [ "$v" -gt "$anon" ]; then anon=$v; fi
          if [ "$v" -gt "$sec" ]; then sec=$v; fi
          # 20 samples of 50 ms: one second.
          if [ $((an % 20)) = 0 ]; then speaks+=("$sec"); sec=0; fi
        fi
        if [ "$k" = VmRSS: ] && [ "$v" -gt "$rss" ]; then rss=$v; fi
      done 2> /dev/null < "/proc/$cpid/status" || true
    fi
    sleep 0.05
  done
  wait "$tpid" || { echo "throughput.sh: $label failed: $*" >&2; cat "$tf" "$work/$label.stderr" >&2; return 1; }
  # GNU time prints "Command exited with non-zero status" first on failure;
  # the figures are on the last line.
  if [ "$sec" -gt 0 ]; then speaks+=("$sec"); fi
  local speak
  speak=$(printf '%s\n' "${speaks[@]:-0}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] + 0 }')
  printf '%s\t%s\t%s\t%s\n' "$label" "$round" "$(tail -n 1 "$tf" | tr ' ' '\t')" "$anon	$rss	$((asum / (an > 0 ? an : 1)))	$speak" >> "$results"
}

# sha256 of games.csv without the source column (the first one; input paths
# here hold no comma), and the number of rows.
fingerprint() {
  cut -d, -f2- "$1/games.csv" | sha256sum | cut -c1-64
}

# One core for the 1-thread runs (see 3. above).
pin1=()
if command -v taskset > /dev/null; then pin1=(taskset -c 0); else log "no taskset: 1-thread runs are not pinned"; fi

out=$work/out
shas=$work/shas.txt
: > "$shas"
for r in $(seq "$rounds"); do
  log "round $r of $rounds"
  if [ -n "$baseline" ]; then
    measure base-j1 "$r" "${pin1[@]}" "$baseline" replay 1 "$big" "$work/baseline.csv"
  fi
  measure pgnmill-j1 "$r" "${pin1[@]}" "$pgnmill" report -j 1 --quiet --force -o "$out-j1" "$big"
  echo "pgnmill-j1 $(fingerprint "$out-j1")" >> "$shas"
  if [ -n "$before" ]; then
    # Its games.csv is not fingerprinted: a change may add columns.
    measure before-j1 "$r" "${pin1[@]}" "$before" report -j 1 --quiet --force -o "$out-before" "$big"
  fi
  # The same report as games.parquet (--format parquet), for its cost: next
  # to the CSV run it is compared with (with --before, one run between).
  measure parquet-j1 "$r" "${pin1[@]}" "$pgnmill" report -j 1 --format parquet --quiet --force -o "$out-pq" "$big"
  measure pgnmill-j2 "$r" "$pgnmill" report -j 2 --quiet --force -o "$out-j2" "$big"
  echo "pgnmill-j2 $(fingerprint "$out-j2")" >> "$shas"
  measure parquet-j2 "$r" "$pgnmill" report -j 2 --format parquet --quiet --force -o "$out-pq" "$big"
  if [ "$have_zstd" = 1 ]; then
    measure zst-j1 "$r" "${pin1[@]}" "$pgnmill" report -j 1 --quiet --force -o "$out-zst" "$big.zst"
    echo "zst-j1 $(fingerprint "$out-zst")" >> "$shas"
    measure zst-j2 "$r" "$pgnmill" report -j 2 --quiet --force -o "$out-zst" "$big.zst"
    echo "zst-j2 $(fingerprint "$out-zst")" >> "$shas"
  fi
  if [ "$have_pzstd" = 1 ]; then
    measure pzst-j1 "$r" "${pin1[@]}" "$pgnmill" report -j 1 --quiet --force -o "$out-zst" "$big.pzstd.zst"
    echo "pzst-j1 $(fingerprint "$out-zst")" >> "$shas"
    measure pzst-j2 "$r" "$pgnmill" report -j 2 --quiet --force -o "$out-zst" "$big.pzstd.zst"
    echo "pzst-j2 $(fingerprint "$out-zst")" >> "$shas"
    # Piped in, as `curl … | pgnmill report -` (a pipe: a redirected file
    # would be mapped as a file is). The CPU time and memory are of `sh`,
    # `cat` and pgnmill together; only the wall time is reported.
    for j in 1 2; do
      pin=(); [ "$j" = 1 ] && pin=("${pin1[@]}")
      measure "pipe-j$j" "$r" "${pin[@]}" sh -c 'cat "$1" | exec "$2" report -j "$3" --quiet --force -o "$4" -' \
        sh "$big.pzstd.zst" "$pgnmill" "$j" "$out-pipe"
      echo "pipe-j$j $(fingerprint "$out-pipe")" >> "$shas"
    done
  fi
  if [ "$have_bzip2" = 1 ]; then
    measure bz2-j1 "$r" "${pin1[@]}" "$pgnmill" report -j 1 --quiet --force -o "$out-zst" "$big.bz2"
    echo "bz2-j1 $(fingerprint "$out-zst")" >> "$shas"
    measure bz2-j2 "$r" "$pgnmill" report -j 2 --quiet --force -o "$out-zst" "$big.bz2"
    echo "bz2-j2 $(fingerprint "$out-zst")" >> "$shas"
  fi
  if [ -n "$baseline" ]; then
    measure base-j2 "$r" "$baseline" replay 2 "$big" "$work/baseline.csv"
  fi
done
if [ "$have_zstd" = 1 ]; then
  log "zstd -d alone, for the decoder's speed"
  measure zstd-d 1 zstd -q -d -c "$big.zst"
fi
if [ "$huge" = 1 ]; then
  # As many runs as the 200 MB input had: the peak of one run varies by
  # some 5% with how the two workers' chunks happen to interleave, so
  # medians are compared with medians.
  for r in $(seq "$rounds"); do
    log "2 GB corpus, pgnmill -j 1 and -j 2 (memory), round $r of $rounds"
    measure huge-j1 "$r" "${pin1[@]}" "$pgnmill" report -j 1 --quiet --force -o "$out-huge" "$cdir/huge.pgn"
    measure huge-j2 "$r" "$pgnmill" report -j 2 --quiet --force -o "$out-huge" "$cdir/huge.pgn"
  done
fi
# cpu_of CMD...: the CPU seconds (user + sys) of one run of CMD.
cpu_of() {
  /usr/bin/time -f '%U %S' -o "$work/pair.time" "$@" > /dev/null 2> "$work/pair.stderr"
  awk '{ print $1 + $2 }' "$work/pair.time"
}
# run_pairs N FILE A B: N pairs of the commands in arrays A and B (their
# names), A first in odd pairs and B first in even ones (ABBA); appends
# "pair  cpu_A  cpu_B" lines to FILE.
run_pairs() {
  local n=$1 file=$2 i a b
  local -n cmd_a=$3 cmd_b=$4
  : > "$file"
  for i in $(seq "$n"); do
    if [ $((i % 2)) = 1 ]; then a=$(cpu_of "${cmd_a[@]}"); b=$(cpu_of "${cmd_b[@]}")
    else b=$(cpu_of "${cmd_b[@]}"); a=$(cpu_of "${cmd_a[@]}"); fi
    printf '%s\t%s\t%s\n' "$i" "$a" "$b" >> "$file"
  done
}
csv_run=("${pin1[@]}" "$pgnmill" report -j 1 --format csv --quiet --force -o "$out-pair-csv" "$big")
pq_run=("${pin1[@]}" "$pgnmill" report -j 1 --format parquet --quiet --force -o "$out-pair-parquet" "$big")
pairs=$work/parquet-pairs.tsv base_pairs_file=$work/baseline-pairs.tsv before_pairs_file=$work/before-pairs.tsv
rm -f "$pairs" "$base_pairs_file" "$before_pairs_file"
if [ "$pq_pairs" -gt 0 ]; then
  log "$pq_pairs pairs of CSV and Parquet runs at -j 1 (ABBA order)"
  run_pairs "$pq_pairs" "$pairs" csv_run pq_run
fi
if [ "$base_pairs" -gt 0 ] && [ -n "$baseline" ]; then
  log "$base_pairs pairs of pgnmill -j 1 and baseline replay 1 runs (ABBA order)"
  base_run=("${pin1[@]}" "$baseline" replay 1 "$big" "$work/baseline.csv")
  run_pairs "$base_pairs" "$base_pairs_file" csv_run base_run
fi
if [ "$before_pairs" -gt 0 ] && [ -n "$before" ]; then
  log "$before_pairs pairs of pgnmill -j 1 and --before -j 1 runs (ABBA order)"
  before_run=("${pin1[@]}" "$before" report -j 1 --quiet --force -o "$out-pair-before" "$big")
  run_pairs "$before_pairs" "$before_pairs_file" csv_run before_run
fi
if [ "$stages" = 1 ]; then
  log "serial fraction: benches/pipeline_stages on big.pgn, 1 and 16 threads"
  { "$stages_bin" "$big" 1 "$out-stages"; echo; "$stages_bin" "$big" 16 "$out-stages"
    # The writer's share with --format parquet (the row groups are encoded
    # on the workers; the writer only appends them).
    echo; "$stages_bin" "$big" 2 "$out-stages" parquet; } > "$work/stages.txt"
fi

# ---------------------------------------------------------------- report
mb=$(awk -v b="$big_bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
games=$(grep -o '"games": [0-9][0-9]*' "$out-j1/summary.json" | head -n 1 | grep -o '[0-9]*$')
plies=$(grep -o '"plies": [0-9][0-9]*' "$out-j1/summary.json" | head -n 1 | grep -o '[0-9]*$')
echo
echo "pgnmill throughput, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "commit:  $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown)$(cd "$root" && git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "pgnmill: $pgnmill"
if [ -n "$before" ]; then echo "before:  $before ($("$before" --version 2>/dev/null || echo 'no --version'))"; fi
echo "corpus:  $big: $mb MB, $games games, $plies plies (testdata/corpus real games x $reps); $rounds rounds"
if [ -n "$baseline" ]; then
  echo "baseline rows: $(( $(wc -l < "$work/baseline.csv") - 1 )) (pgn-reader + shakmaty replay)"
else
  echo "baseline: not measured (no baseline directory or it did not build)"
fi
echo
awk -F'\t' -v bytes="$big_bytes" -v zbytes="$( [ "$have_zstd" = 1 ] && stat -c %s "$big.zst" || echo 0)" '
# a / b, or 0 when b is 0 (runs shorter than the 10 ms resolution of GNU time)
function div(a, b) { return b > 0 ? a / b : 0 }
function least(list,   a, n, i, m) { n = split(list, a, " "); m = a[1]; for (i = 2; i <= n; i++) if (a[i] < m) m = a[i]; return m }
function most(list,   a, n, i, m) { n = split(list, a, " "); m = a[1]; for (i = 2; i <= n; i++) if (a[i] > m) m = a[i]; return m }
function median(list,   a, n, i, j, t) {
  n = split(list, a, " ")
  for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
  l = $1; r = $2; cpu = $4 + $5
  wall[l] = wall[l] " " $3; cpus[l] = cpus[l] " " cpu; anon[l] = anon[l] " " $7; maxrss[l] = maxrss[l] " " $6; amean[l] = amean[l] " " $9; speak[l] = speak[l] " " $10
  W[l, r] = $3; C[l, r] = cpu; seen[l] = 1; if (!(l in order)) { order[l] = ++nl; name[nl] = l }
  rounds[r] = 1
}
END {
  mb = bytes / 1e6
  printf "%-11s %8s %9s %6s %10s %10s %14s %8s\n", "run", "wall s", "user+sys", "CPU%", "MB/CPU-s", "MB/s wall", "RssAnon MB", "%M MB"
  printf "%-11s %8s %9s %6s %10s %10s %14s %8s\n", "", "", "", "", "", "", "peak / mean", ""
  for (i = 1; i <= nl; i++) {
    l = name[i]; w = median(wall[l]); c = median(cpus[l])
    m = (l ~ /^huge/) ? mb * 10 : mb
    printf "%-11s %8.2f %9.2f %5.0f%% %10.1f %10.1f %6.1f / %5.1f %8.1f\n", l, w, c, 100 * div(c, w), div(m, c), div(m, w), median(anon[l]) / 1024, median(amean[l]) / 1024, median(maxrss[l]) / 1024
    Wm[l] = w; Cm[l] = c; Am[l] = median(anon[l]); Mm[l] = median(amean[l]); Sm[l] = median(speak[l])
  }
  print ""
  if (("base-j1") in seen) {
    ratios = ""; for (r in rounds) if (C["pgnmill-j1", r] > 0 && C["base-j1", r] > 0) ratios = ratios " " C["base-j1", r] / C["pgnmill-j1", r]
    printf "pgnmill / baseline, MB per CPU-second, 1 thread: %.2fx (median of per-round ratios, %.2fx to %.2fx; target 3.5x)\n", median(ratios), least(ratios), most(ratios)
  }
  if (("before-j1") in seen) {
    ratios = ""; for (r in rounds) if (C["pgnmill-j1", r] > 0 && C["before-j1", r] > 0) ratios = ratios " " C["before-j1", r] / C["pgnmill-j1", r]
    printf "pgnmill / --before binary, MB per CPU-second, 1 thread: %.3fx (median of per-round ratios, %.3fx to %.3fx; above 1: faster than before)\n", median(ratios), least(ratios), most(ratios)
  }
  sp = ""; for (r in rounds) if (W["pgnmill-j2", r] > 0) sp = sp " " W["pgnmill-j1", r] / W["pgnmill-j2", r]
  printf "pgnmill 2-thread wall speed-up over 1 thread: %.2fx (median per round; target 1.8x on an idle machine)\n", median(sp)
  if (("base-j2") in seen) {
    sp = ""; for (r in rounds) if (W["base-j2", r] > 0) sp = sp " " W["base-j1", r] / W["base-j2", r]
    printf "  (baseline 2-thread speed-up in the same rounds: %.2fx: what the machine allowed)\n", median(sp)
  }
  if (("parquet-j1") in seen) {
    # The CPU time Parquet adds, round by round like the ratios above: the
    # medians of separate runs differ by more than that on a shared machine.
    ratios = ""; for (r in rounds) if (C["pgnmill-j1", r] > 0 && C["parquet-j1", r] > 0) ratios = ratios " " C["parquet-j1", r] / C["pgnmill-j1", r]
    printf "Parquet output (--format parquet): %.1f MB/CPU-s at 1 thread (CSV: %.1f), %.1f MB/s wall at 2 threads (CSV: %.1f); RssAnon peak -j 1 %.1f MB, -j 2 %.1f MB\n", mb / Cm["parquet-j1"], mb / Cm["pgnmill-j1"], mb / Wm["parquet-j2"], mb / Wm["pgnmill-j2"], Am["parquet-j1"] / 1024, Am["parquet-j2"] / 1024
    printf "  CPU time over CSV at 1 thread: %+.1f%% (median of per-round ratios, %+.1f%% to %+.1f%%; target within 10%%)\n", 100 * (median(ratios) - 1), 100 * (least(ratios) - 1), 100 * (most(ratios) - 1)
  }
  if (("zst-j1") in seen) {
    printf "zstd input: %.1f MB/CPU-s at 1 thread (plain: %.1f), %.1f MB/s wall at 2 threads (plain: %.1f); decompressed MB\n", mb / Cm["zst-j1"], mb / Cm["pgnmill-j1"], mb / Wm["zst-j2"], mb / Wm["pgnmill-j2"]
    if (("zstd-d") in seen) printf "  zstd -d alone: %.0f MB/s of output per CPU-second (%.1f MB compressed, ratio %.1f)\n", div(mb, Cm["zstd-d"]), zbytes / 1e6, div(bytes, zbytes)
  }
  if (("pzst-j1") in seen) {
    sp = ""; for (r in rounds) if (W["pzst-j2", r] > 0) sp = sp " " W["pzst-j1", r] / W["pzst-j2", r]
    printf "pzstd input (many frames, decoded frame by frame): %.1f MB/s wall at 1 thread, %.1f at 2 threads: %.2fx (median per round; target 1.8x); RssAnon peak -j 2 %.1f MB\n", mb / Wm["pzst-j1"], mb / Wm["pzst-j2"], median(sp), Am["pzst-j2"] / 1024
    sp = ""; for (r in rounds) if (W["pipe-j2", r] > 0) sp = sp " " W["pipe-j1", r] / W["pipe-j2", r]
    printf "  piped in (cat FILE | pgnmill report -): %.1f MB/s wall at 1 thread, %.1f at 2 threads: %.2fx (median per round)\n", mb / Wm["pipe-j1"], mb / Wm["pipe-j2"], median(sp)
  }
  if (("bz2-j1") in seen) {
    sp = ""; for (r in rounds) if (W["bz2-j2", r] > 0) sp = sp " " W["bz2-j1", r] / W["bz2-j2", r]
    printf "bzip2 input (one stream at 1 thread, block by block at 2): %.1f MB/s wall at 1 thread, %.1f at 2 threads: %.2fx (median per round); %.1f MB/CPU-s at 1 thread, %.1f at 2; RssAnon peak -j 2 %.1f MB\n", mb / Wm["bz2-j1"], mb / Wm["bz2-j2"], median(sp), mb / Cm["bz2-j1"], mb / Cm["bz2-j2"], Am["bz2-j2"] / 1024
  }
  if (("huge-j2") in seen) {
    printf "RssAnon, 2 GB input vs 200 MB input (target within 10%%):\n"
    for (j = 1; j <= 2; j++) {
      h = "huge-j" j; p = "pgnmill-j" j
      printf "  -j %d: peak %.1f MB vs %.1f MB: %+.1f%%; mean of samples %.1f MB vs %.1f MB: %+.1f%%; median of per-second peaks %.1f MB vs %.1f MB: %+.1f%%\n", j, Am[h] / 1024, Am[p] / 1024, 100 * (Am[h] / Am[p] - 1), Mm[h] / 1024, Mm[p] / 1024, 100 * (Mm[h] / Mm[p] - 1), Sm[h] / 1024, Sm[p] / 1024, 100 * (Sm[h] / Sm[p] - 1)
    }
  } else {
    printf "RssAnon, -j 2: peak %.1f MB, mean %.1f MB on %.0f MB (run with --huge for the 2 GB comparison)\n", Am["pgnmill-j2"] / 1024, Mm["pgnmill-j2"] / 1024, mb
  }
}' "$results"
echo
distinct=$(awk '{ print $2 }' "$shas" | sort -u | wc -l)
sha=$(awk 'NR == 1 { print $2 }' "$shas")
if [ "$distinct" = 1 ]; then
  echo "games.csv sha256 (without the source column): $sha, identical in all $(wc -l < "$shas") runs (1 and 2 threads, .pgn, .pgn.zst and its pzstd twin, from the file and piped in, .pgn.bz2)"
else
  echo "games.csv DIFFERS between runs (without the source column):"; sort "$shas" | uniq -c
fi
echo "$sha" > "$work/games.csv.sha256"
# pair_stats FILE: "n median low high" of the per-pair ratios cpu_B / cpu_A
# of FILE (run_pairs), low and high the ranks around the median that hold
# the true median with 95% probability: n/2 -/+ 0.98 sqrt(n) (the normal
# approximation of the binomial; exact enough from some 30 pairs on).
pair_stats() {
  awk -F'\t' '$2 > 0 { print $3 / $2 }' "$1" | sort -g | awk '
    { r[NR] = $1 }
    END {
      n = NR; m = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
      lo = int(n / 2 - 0.98 * sqrt(n)); hi = int(n / 2 + 1 + 0.98 * sqrt(n) + 0.999)
      if (lo < 1) lo = 1; if (hi > n) hi = n
      print n, m, r[lo], r[hi]
    }'
}
if [ -s "$pairs" ]; then
  read -r n m lo hi < <(pair_stats "$pairs")
  awk -v n="$n" -v m="$m" -v lo="$lo" -v hi="$hi" 'BEGIN {
    printf "Parquet over CSV, CPU time at 1 thread, %d pairs (ABBA): %+.1f%% (median of per-pair ratios; 95%% confidence interval of the median %+.1f%% to %+.1f%%; target within 10%%)\n", n, 100 * (m - 1), 100 * (lo - 1), 100 * (hi - 1) }'
fi
if [ -s "$base_pairs_file" ]; then
  read -r n m lo hi < <(pair_stats "$base_pairs_file")
  printf 'pgnmill / baseline, MB per CPU-second, 1 thread, %d pairs (ABBA): %.2fx (median of per-pair ratios; 95%% confidence interval of the median %.2fx to %.2fx; target 3.5x)\n' "$n" "$m" "$lo" "$hi"
fi
if [ -s "$before_pairs_file" ]; then
  read -r n m lo hi < <(pair_stats "$before_pairs_file")
  printf 'pgnmill / --before binary, MB per CPU-second, 1 thread, %d pairs (ABBA): %.3fx (median of per-pair ratios; 95%% confidence interval of the median %.3fx to %.3fx; above 1: faster than before)\n' "$n" "$m" "$lo" "$hi"
fi
if [ "$stages" = 1 ]; then echo; cat "$work/stages.txt"; fi
echo
echo "raw figures: $results (label round wall user sys maxrss_kb rssanon_peak_kb vmrss_peak_kb rssanon_mean_kb)"
