#!/usr/bin/env bash
# build-pgo.sh: builds pgnmill with profile-guided optimisation (PGO), the
# way rustc and many C and C++ projects build their own releases: an
# instrumented pgnmill runs the usual jobs on training games, LLVM records
# which branches go which way and which calls are hot, and the release
# build then lays out and inlines the code by those counts. The result is
# the same program (the script checks that it writes byte for byte the
# same report as `cargo build --release`), faster on the replay loop
# (docs/performance.md, "Profile-guided build").
#
# The training games are testdata/'s, except the five real collections
# (benches/measured_corpus.txt)
# that scripts/throughput.sh and benches/instructions_per_ply.sh measure
# on, and every file made from them (testdata/compressed/ holds games of
# the lichess sample): a profile learnt from the benchmark's own games
# would flatter the benchmark. They are chess.com, TCEC and Dortmund
# games, a TWIC issue and lichess exports from other sources, games in a
# lichess dump's shape with clock and evaluation comments
# (testdata/training/), the parser's edge cases, xiangqi records and FEN
# lists; the compressed shapes (gzip, bzip2, and xz, zstd and pzstd's
# many frames when those tools are installed) are made here from the
# training games, so that no common path is left cold.
#
# Usage: scripts/build-pgo.sh [--check]
#   --check   also compare the PGO binary's reports with the standard
#             release build's on testdata/ (both built if needed)
# Writes target/pgo/pgnmill (under CARGO_TARGET_DIR when it is set).
#
# Needs llvm-profdata of the LLVM that rustc uses: `rustup component add
# llvm-tools` installs it in the toolchain's sysroot, where this script
# looks (or set LLVM_PROFDATA). Takes two release builds: about 10 minutes
# on a fresh clone on a 2-core machine (12 with --check, a third build).
set -euo pipefail

check=0
while [ $# -gt 0 ]; do
  case $1 in
    --check) check=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "build-pgo.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
mkdir -p "$target"
target=$(cd "$target" && pwd)
pgo=$target/pgo
log() { printf '== %s\n' "$*" >&2; }

host=$(rustc -vV | sed -n 's/^host: //p')
profdata=${LLVM_PROFDATA:-$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata}
if [ ! -x "$profdata" ]; then
  echo "build-pgo.sh: no llvm-profdata at $profdata; install it with" >&2
  echo "  rustup component add llvm-tools" >&2
  echo "or set LLVM_PROFDATA to one of the LLVM version rustc -vV names" >&2
  exit 1
fi

rm -rf "$pgo/profiles" "$pgo/build-profiles" "$pgo/runs"
mkdir -p "$pgo/profiles" "$pgo/build-profiles" "$pgo/runs"

# Build scripts and procedural macros are instrumented too, and write
# their counts where -Cprofile-generate says while the build runs; the
# training runs write theirs where LLVM_PROFILE_FILE says.
log "building the instrumented pgnmill"
(cd "$root" && RUSTFLAGS="-Cprofile-generate=$pgo/build-profiles" \
  CARGO_TARGET_DIR=$pgo/instrumented cargo build --release --quiet --bin pgnmill)
instrumented=$pgo/instrumented/release/pgnmill

mapfile -t measured < <(grep -v '^#' "$root/benches/measured_corpus.txt")
training=()
for f in "$root"/testdata/corpus/*.pgn; do
  case " ${measured[*]} " in *" $(basename "$f") "*) continue ;; esac
  training+=("$f")
done
training+=("$root"/testdata/training/*.pgn)
lichess_shaped=$root/testdata/training/lichess-shaped-clocks.pgn
clocked=("$root/testdata/corpus/chesscom-cancer0707.pgn" "$lichess_shaped")

# A lichess dump is pzstd-compressed, the FICS database's downloads are
# bzip2; each shape has a decoder of its own. Made from training games,
# not from testdata/compressed/.
compressed=$pgo/runs/compressed
mkdir -p "$compressed"
gzip -c "$lichess_shaped" > "$compressed/training.pgn.gz"
# 100 kB blocks, so that a file of training games has several.
bzip2 -1 -c "$lichess_shaped" > "$compressed/training.pgn.bz2"
if command -v xz > /dev/null; then
  xz -c "$lichess_shaped" > "$compressed/training.pgn.xz"
fi
if command -v zstd > /dev/null; then
  zstd -q -c "$lichess_shaped" > "$compressed/training.pgn.zst"
  # Four frames one after the other, found by their headers: games
  # cross from one frame into the next, as in a dump.
  split -n l/4 "$lichess_shaped" "$compressed/part-"
  for part in "$compressed"/part-*; do zstd -q -c "$part"; rm "$part"; done \
    > "$compressed/training-frames.pgn.zst"
fi
if command -v pzstd > /dev/null; then
  # pzstd's layout: a skippable frame gives the size of each data frame.
  pzstd -q -p 2 -c "$lichess_shaped" > "$compressed/training-pzstd.pgn.zst"
fi

run=0
train() {
  run=$((run + 1))
  LLVM_PROFILE_FILE="$pgo/profiles/%m_%p.profraw" "$instrumented" "$@" \
    > "$pgo/runs/$run.out" 2>&1 || {
    # A non-zero exit is a report of broken input, not a failed run; a
    # crash is.
    [ $? -lt 128 ] || { echo "build-pgo.sh: training run $run crashed: $*" >&2; exit 1; }
  }
}
log "training on ${#training[@]} PGN files and the rest of testdata"
train report -j 1 --quiet --force -o "$pgo/runs/r1" "${training[@]}"
train report -j 2 --quiet --force -o "$pgo/runs/r2" "${training[@]}"
train report -j 1 --quiet --force --format parquet --clocks --plies --moves \
  -o "$pgo/runs/r3" "${clocked[@]}" "$root/testdata/chess"
train report -j 2 --quiet --force -o "$pgo/runs/r4" "$root/testdata/xiangqi" \
  "$root/testdata/binary"
train report -j 2 --quiet --force -o "$pgo/runs/r5" "$compressed"
train report -j 1 --quiet --force -o "$pgo/runs/r6" "$compressed"
train fen --force -o "$pgo/runs/f1.csv" "$root/testdata/fen"
train convert --force --to wxf -o "$pgo/runs/c1.pgn" "$root/testdata/xiangqi/convert"

log "merging $(find "$pgo/profiles" -name '*.profraw' | wc -l) profiles"
"$profdata" merge -o "$pgo/merged.profdata" "$pgo/profiles"

log "building pgnmill with the profile"
(cd "$root" && RUSTFLAGS="-Cprofile-use=$pgo/merged.profdata" \
  CARGO_TARGET_DIR=$pgo/optimised cargo build --release --quiet --bin pgnmill)
cp "$pgo/optimised/release/pgnmill" "$pgo/pgnmill"
log "built $pgo/pgnmill"

if [ "$check" = 1 ]; then
  log "checking its reports against the standard release build's"
  (cd "$root" && cargo build --release --quiet --bin pgnmill)
  for bin in "$target/release/pgnmill" "$pgo/pgnmill"; do
    name=$(basename "$(dirname "$bin")")
    "$bin" report -j 2 --quiet --force --clocks --plies --moves \
      -o "$pgo/runs/check-$name" "$root/testdata/corpus" "$root/testdata/xiangqi" || true
  done
  for f in games.csv castling.csv plies.csv; do
    [ -f "$pgo/runs/check-release/$f" ] || continue
    cmp "$pgo/runs/check-release/$f" "$pgo/runs/check-pgo/$f" ||
      { echo "build-pgo.sh: $f differs between the two builds" >&2; exit 1; }
  done
  log "same reports"
fi
