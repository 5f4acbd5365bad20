#!/usr/bin/env bash
# python_cost.sh: what reading games from Python costs beside the command
# line. One run each, on one file, with the same threads:
#   1. `pgnmill report --format parquet FILE` (the binary);
#   2. `polars.DataFrame(pgnmill.read_games(FILE))` (all rows kept, as a
#      notebook would);
#   3. the batches of `pgnmill.read_games(FILE)` consumed in a loop and
#      dropped (memory: what streaming keeps resident).
# Prints user+sys CPU seconds, wall seconds and peak RSS (GNU time's %M) of
# each, and the CPU ratios of 2 and 3 over 1. One run on a shared machine
# moves by about 10 %: quote it as one run.
#
# Usage: scripts/python_cost.sh PYTHON PGNMILL_BINARY FILE [THREADS]
# PYTHON must have the package (pip install ./python, built with the
# release profile for a fair comparison: `maturin build --release`) and
# polars.
set -euo pipefail
py=$1
bin=$2
file=$3
threads=${4:-$(nproc)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One measured run: label, then the command. GNU time writes
# "user sys wall maxrss_kb" to a file of its own.
measure() {
  local label=$1
  shift
  /usr/bin/time -f '%U %S %e %M' -o "$work/$label.time" "$@" > "$work/$label.out"
  read -r user sys wall rss < "$work/$label.time"
  awk -v l="$label" -v u="$user" -v s="$sys" -v w="$wall" -v r="$rss" \
    'BEGIN { printf "%-8s CPU %7.2f s   wall %7.2f s   peak RSS %7.1f MB\n", l, u + s, w, r / 1024 }'
  echo "$user $sys" > "$work/$label.cpu"
}

measure cli "$bin" report -q --force -j "$threads" --format parquet -o "$work/report" "$file"
measure polars "$py" -c '
import sys, pgnmill, polars as pl
games = pl.DataFrame(pgnmill.read_games(sys.argv[1], threads=int(sys.argv[2])))
print(games.height)' "$file" "$threads"
measure stream "$py" -c '
import sys, pgnmill, pyarrow as pa
rows = 0
for batch in pa.RecordBatchReader.from_stream(pgnmill.read_games(sys.argv[1], threads=int(sys.argv[2]))):
    rows += batch.num_rows
print(rows)' "$file" "$threads"

cli_rows=$("$py" -c 'import sys, pyarrow.parquet as pq; print(pq.read_metadata(sys.argv[1]).num_rows)' "$work/report/games.parquet")
echo "rows: games.parquet $cli_rows, polars $(cat "$work/polars.out"), stream $(cat "$work/stream.out")"
for label in polars stream; do
  read -r cu cs < "$work/cli.cpu"
  read -r pu ps < "$work/$label.cpu"
  awk -v l="$label" -v c="$cu $cs" -v p="$pu $ps" 'BEGIN {
    split(c, a, " "); split(p, b, " ");
    printf "%s over the command line, CPU: %.2fx\n", l, (b[1] + b[2]) / (a[1] + a[2]) }'
done
