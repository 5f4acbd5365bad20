#!/usr/bin/env bash
# same_outputs.sh: does a change leave every output byte-identical? Runs two
# pgnmill binaries (say, one built before a refactoring and one after) over
# the same inputs with the same options and compares every file they write:
# reports (CSV, Parquet, report.html, summary.json without its timing,
# extracts), `convert` in each notation and `fen`, on testdata/ and, when it
# is there, ../shared/corpora/. Prints the files that differ; exits 1 if any.
#
# Usage: scripts/same_outputs.sh OLD_BINARY NEW_BINARY
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old=$(realpath "$1")
new=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
corpora=$(cd "$root/.." && pwd)/shared/corpora

# One run of everything, by binary $1, in folder $2.
run_all() {
  local bin=$1 dir=$2
  mkdir -p "$dir"
  cd "$dir"
  "$bin" report -q -j 2 -o corpus --format csv,parquet --tags lichess --moves \
    --extract missed=missed.pgn --extract castling=castling.pgn \
    --extract errors=errors.pgn --extract conflicts=conflicts.pgn \
    "$root/testdata/corpus" "$root/testdata/research" "$root/testdata/compressed" \
    "$root/testdata/xiangqi" 2> report.stderr || echo "exit $?" >> report.stderr
  if [ -d "$corpora" ]; then
    "$bin" report -q -o shared --format csv,parquet "$corpora" 2> shared.stderr \
      || echo "exit $?" >> shared.stderr
    "$bin" fen -q -o shared-fen.csv "$corpora/chess-fen" "$corpora/xiangqi/perft" \
      2> shared-fen.stderr || echo "exit $?" >> shared-fen.stderr
  fi
  for to in iccs wxf chinese chinese-traditional; do
    "$bin" convert -q --to "$to" -o "convert-$to.pgn" "$root/testdata/xiangqi" \
      2> "convert-$to.stderr" || echo "exit $?" >> "convert-$to.stderr"
  done
  "$bin" fen -q -o fen.csv "$root/testdata/fen" 2> fen.stderr || echo "exit $?" >> fen.stderr
  # Timing is the one thing allowed to differ.
  find . -name summary.json | while read -r s; do
    python3 - "$s" <<'EOF'
import json, sys
p = sys.argv[1]
s = json.load(open(p))
s.pop("elapsed_seconds", None)
json.dump(s, open(p, "w"), indent=1, sort_keys=True)
EOF
  done
}

(run_all "$old" "$work/old")
(run_all "$new" "$work/new")
if diff -rq "$work/old" "$work/new"; then
  n=$(find "$work/old" -type f | wc -l)
  echo "same outputs: $n files identical ($old, $new)"
else
  echo "outputs differ (above)" >&2
  exit 1
fi
