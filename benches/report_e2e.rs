//! End-to-end throughput of `pgnmill report` (issue 5), in bytes of PGN per
//! second, through the library entry point the binary calls
//! (`commands::report::run`): open, split, replay on rayon workers, format,
//! write the report folder. Input: the whole sample corpus
//! `testdata/corpus/` (43 files, 7.5 MB: lichess with clocks, TWIC,
//! annotated world-championship games, Latin-1, CRLF, Chess960, engine games
//! from `[FEN]`, edge cases), with 1 and 2 worker threads.
//!
//! Two stage benches isolate the pipeline's parts on the corpus's real games
//! concatenated into one input: `read+split` is the serial stage that runs
//! between parallel sections, `replay+format` is the per-game work one worker
//! does. Their ratio is the serial fraction on this corpus; for the large
//! corpus use `benches/pipeline_stages.rs` via `scripts/throughput.sh`.
//!
//! Criterion prints time per iteration and the derived throughput; the
//! absolute figures drift on a shared machine, so compare runs made
//! side by side.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgnmill::commands::report::{ReportArgs, VariantChoice, run};
use pgnmill::replay::ReplayOptions;
use pgnmill::report::chunk::{ChunkResult, process_chunk};
use pgnmill::source::{ReadOptions, Reader};

/// The real games of the corpus (no edge cases, no generated files), in the
/// mix `scripts/throughput.sh` uses for its 200 MB corpus.
const REAL: &[&str] = &[
    "lichess-2025-05-blitz-sample.pgn",
    "twic1599-sample.pgn",
    "pychess-world-matches.pgn",
    "pgn2tex-london1851.pgn",
    "pgn2tex-tatamast22.pgn",
];

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/corpus")
}

/// Total size of the `.pgn` files directly in `dir`.
fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "pgn"))
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .sum()
}

/// The real files concatenated, each followed by a blank line.
fn real_games() -> Vec<u8> {
    let mut all = Vec::new();
    for f in REAL {
        let p = corpus_dir().join(f);
        all.extend(std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())));
        all.extend_from_slice(b"\n\n");
    }
    all
}

fn report_args(input: PathBuf, out: PathBuf, threads: usize) -> ReportArgs {
    ReportArgs {
        inputs: vec![input],
        out,
        force: true,
        threads: Some(threads),
        variant: VariantChoice::Auto,
        moves: false,
        extract: Vec::new(),
        quiet: true,
    }
}

fn end_to_end(c: &mut Criterion) {
    let dir = corpus_dir();
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    let mut g = c.benchmark_group("report_e2e");
    g.throughput(Throughput::Bytes(dir_bytes(&dir)));
    g.sample_size(10);
    for threads in [1, 2] {
        let args = report_args(dir.clone(), tmp.path().join("out"), threads);
        g.bench_function(format!("testdata-corpus/j{threads}"), |b| {
            b.iter(|| run(black_box(&args)).unwrap_or_else(|e| panic!("report: {e}")))
        });
    }
    g.finish();
}

fn stages(c: &mut Criterion) {
    let bytes: Arc<Vec<u8>> = Arc::new(real_games());
    let path = Path::new("real-games.pgn");
    let opts = ReadOptions::default();
    let mut g = c.benchmark_group("report_stages");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(10);
    g.bench_function("read+split", |b| {
        b.iter(|| {
            let reader = Reader::from_shared(path, bytes.clone(), &opts);
            let mut games = 0;
            for batch in reader {
                games += batch.map_or(0, |b| b.games.len());
            }
            black_box(games)
        })
    });
    // Split once outside the timing; replay and format every game on this
    // thread, as one worker does.
    let reader = Reader::from_shared(path, bytes.clone(), &opts);
    let encoding = reader.encoding();
    let batches: Vec<_> = reader.filter_map(Result::ok).collect();
    let options = ReplayOptions {
        moves: false,
        variant: None,
    };
    g.bench_function("replay+format", |b| {
        b.iter(|| {
            let mut rows = 0;
            for batch in &batches {
                let r = process_chunk(
                    ChunkResult::default(),
                    "real-games.pgn",
                    batch.bytes(),
                    batch.base_offset,
                    &batch.games,
                    batch.first_game + 1,
                    encoding,
                    &options,
                );
                rows += r.map_or(0, |r| r.games.len());
            }
            black_box(rows)
        })
    });
    g.finish();
}

criterion_group!(benches, end_to_end, stages);
criterion_main!(benches);
