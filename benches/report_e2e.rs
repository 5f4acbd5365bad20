//! End-to-end throughput of `pgnmill report`, in bytes of PGN per second,
//! through the library entry point the binary calls
//! (`job::Job::report`): open, split, replay on rayon workers, format,
//! write the report folder. Input: the whole sample corpus
//! `testdata/corpus/` (45 files, 7.7 MB: lichess with clocks, TWIC,
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
use pgnmill::job::{Job, ReportOptions};
use pgnmill::pgn::Batches;
use pgnmill::replay::{ReplayOptions, replay_text};
use pgnmill::report::{
    ChunkBuilder, ChunkPlan, CsvFormat, FormattedChunk, GameLocation, ReportFolder,
};
use pgnmill::source::{Listing, ReadOptions, decode_game};

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

fn end_to_end(c: &mut Criterion) {
    let dir = corpus_dir();
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    let options = ReportOptions::default();
    let job =
        Job::new(std::slice::from_ref(&dir), Listing::Games).unwrap_or_else(|e| panic!("{e}"));
    let mut g = c.benchmark_group("report_e2e");
    g.throughput(Throughput::Bytes(dir_bytes(&dir)));
    g.sample_size(10);
    for threads in [1, 2] {
        let job = job.clone().threads(threads);
        let out = tmp.path().join("out");
        g.bench_function(format!("testdata-corpus/j{threads}"), |b| {
            b.iter(|| {
                let out = ReportFolder::prepare(&out, true).unwrap_or_else(|e| panic!("{e}"));
                job.report(black_box(&options), &out, &mut ())
                    .unwrap_or_else(|e| panic!("report: {e}"))
            })
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
            let reader = Batches::from_shared(path, bytes.clone(), &opts);
            let mut games = 0;
            for batch in reader {
                games += batch.map_or(0, |b| b.games.len());
            }
            black_box(games)
        })
    });
    // Split once outside the timing; replay and format every game on this
    // thread, as one worker does.
    let reader = Batches::from_shared(path, bytes.clone(), &opts);
    let encoding = reader.encoding();
    let batches: Vec<_> = reader.filter_map(Result::ok).collect();
    let options = ReplayOptions::default();
    let plan = ChunkPlan {
        rows: vec![std::sync::Arc::new(CsvFormat::new(Default::default()))],
        ..ChunkPlan::default()
    };
    g.bench_function("replay+format", |b| {
        b.iter(|| {
            let mut rows = 0;
            for batch in &batches {
                let mut chunk =
                    ChunkBuilder::new(FormattedChunk::default(), &plan, batch.games.len());
                for (i, span) in batch.games.iter().enumerate() {
                    let text = decode_game(batch.game_bytes(span), encoding);
                    let record = replay_text(&text, span.line, &options);
                    let at = GameLocation {
                        source: "real-games.pgn",
                        game: batch.first_game + 1 + i as u64,
                        offset: span.offset,
                        line: span.line,
                    };
                    let _ = chunk.push(at, &record, *span, &[], &text);
                }
                let r = chunk.finish();
                rows += r.map_or(0, |r| r.games.len());
            }
            black_box(rows)
        })
    });
    g.finish();
}

criterion_group!(benches, end_to_end, stages);
criterion_main!(benches);
