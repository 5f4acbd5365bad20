//! Inputs through the source layer: compressed round trips, truncation,
//! batch boundaries, input expansion and encoding detection.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use pgnmill::pgn::{Batch, Batches, GameSpan, split_all};
use pgnmill::source::{
    Compression, Encoding, Input, ReadOptions, SourceError, decode_game, decode_tag_value,
    expand_inputs,
};
use proptest::prelude::*;

fn corpus_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/pgn/corpus")
        .join(name)
}

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(corpus_path(name)).unwrap()
}

fn opts(batch_bytes: usize) -> ReadOptions {
    ReadOptions {
        batch_bytes,
        ..ReadOptions::default()
    }
}

/// All spans of a reader, checking that every batch holds its games.
fn spans_of(reader: Batches) -> (Vec<GameSpan>, Option<SourceError>) {
    let mut spans = Vec::new();
    for batch in reader {
        match batch {
            Ok(b) => {
                for s in &b.games {
                    assert_eq!(b.game_bytes(s).len(), s.len, "game outside its batch");
                }
                spans.extend(b.games.iter().copied());
            }
            Err(e) => return (spans, Some(e)),
        }
    }
    (spans, None)
}

fn zstd_bytes(raw: &[u8]) -> Vec<u8> {
    zstd::encode_all(raw, 3).unwrap()
}

fn gzip_bytes(raw: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(raw).unwrap();
    enc.finish().unwrap()
}

#[test]
fn zstd_and_gzip_round_trips_give_the_spans_of_the_plain_file() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "chesscom-cancer0707.pgn",
        "tcec_9_15_testgames.pgn",
        "kokopu-bom.pgn",
    ] {
        let raw = corpus(name);
        let want = split_all(&raw, false);
        for (ext, bytes, comp) in [
            ("pgn.zst", zstd_bytes(&raw), Compression::Zstd),
            ("pgn.gz", gzip_bytes(&raw), Compression::Gzip),
            // Magic bytes decide, not the name.
            ("pgn", zstd_bytes(&raw), Compression::Zstd),
        ] {
            let p = dir.path().join(format!("{name}.{ext}"));
            std::fs::write(&p, &bytes).unwrap();
            let reader = Batches::open(&Input::file(&p), &opts(64 << 10)).unwrap();
            assert_eq!(reader.compression(), comp);
            let (got, err) = spans_of(reader);
            assert!(err.is_none(), "{err:?}");
            assert_eq!(got, want, "{name} as {ext}");
        }
        let reader = Batches::open(&Input::file(corpus_path(name)), &opts(64 << 10)).unwrap();
        assert_eq!(reader.compression(), Compression::None);
        assert_eq!(spans_of(reader).0, want, "{name} mapped");
    }
}

#[test]
fn truncated_zstd_yields_the_games_before_the_cut_then_an_error() {
    let raw = corpus("chesscom-cancer0707.pgn");
    let full = split_all(&raw, false);
    let z = zstd_bytes(&raw);
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("cut.pgn.zst");
    std::fs::write(&p, &z[..z.len() / 2]).unwrap();
    let (got, err) = spans_of(Batches::open(&Input::file(&p), &opts(256 << 10)).unwrap());
    let err = err.expect("a truncated stream must end with an error");
    let msg = err.to_string();
    eprintln!("{msg}");
    assert!(msg.contains("cut.pgn.zst"), "{msg}");
    assert!(matches!(err, SourceError::Truncated { .. }), "{err:?}");
    assert!(
        got.len() > 100 && got.len() < full.len(),
        "{} games",
        got.len()
    );
    assert_eq!(got[..], full[..got.len()], "games before the cut");
    // The error points just past the last complete game's bytes.
    if let SourceError::Truncated { offset, .. } = err {
        assert!(offset >= got.last().unwrap().end());
    }
}

#[test]
fn truncated_gzip_is_an_error_too() {
    let raw = corpus("tcec_9_15_testgames.pgn");
    let g = gzip_bytes(&raw);
    let rd = std::io::Cursor::new(g[..g.len() - 100].to_vec());
    let reader = Batches::from_read(Path::new("x.pgn.gz"), Box::new(rd), &opts(4096)).unwrap();
    let (got, err) = spans_of(reader);
    assert!(err.is_some());
    let full = split_all(&raw, false);
    assert_eq!(got[..], full[..got.len()]);
}

#[test]
fn empty_file_has_no_games() {
    let reader = Batches::open(
        &Input::file(corpus_path("kokopu-empty.pgn")),
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(spans_of(reader).0, vec![]);
}

const SMALL_FILES: &[&str] = &[
    "kokopu-misc.pgn",
    "chessops-leading-whitespace.pgn",
    "kokopu-linebreak-mac.pgn",
    "fairy-deep-blue-cr.pgn",
    "python-chess-utf8-bom.pgn",
    "kokopu-syntactic-error-1.pgn",
    "xq-black-first-gbk.pgn",
    "xq-wukong-chinese.pgn",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A stream cut into tiny chunks and a mapped file cut into tiny batches
    /// give exactly the spans of the whole buffer split at once.
    #[test]
    fn batch_boundaries_do_not_change_spans(file in 0..SMALL_FILES.len(), size in 1usize..700) {
        let raw = corpus(SMALL_FILES[file]);
        let enc = pgnmill::source::sniff(&raw);
        let want = split_all(&raw, enc.is_dbcs());
        let o = ReadOptions { batch_bytes: size, encoding: Some(enc), ..ReadOptions::default() };
        let streamed = Batches::from_read(
            Path::new("t"),
            Box::new(std::io::Cursor::new(raw.clone())),
            &o,
        ).unwrap();
        prop_assert_eq!(&spans_of(streamed).0, &want);
        let mapped = Batches::from_shared(Path::new("t"), Arc::new(raw.clone()), &o);
        prop_assert_eq!(&spans_of(mapped).0, &want);
    }
}

#[test]
fn big_file_in_small_batches_matches_whole() {
    let raw = corpus("dortmund.pgn");
    let want = split_all(&raw, false);
    for size in [1000, 4096, 65536] {
        let r = Batches::from_shared(Path::new("d"), Arc::new(raw.clone()), &opts(size));
        let batches: Vec<_> = r.map(|b| b.unwrap()).collect();
        assert!(batches.len() > 1);
        let mut first = 0;
        for (i, b) in batches.iter().enumerate() {
            assert_eq!(b.index, i as u64);
            assert_eq!(b.first_game, first);
            first += b.games.len() as u64;
        }
        let got: Vec<GameSpan> = batches.iter().flat_map(|b| b.games.clone()).collect();
        assert_eq!(got, want);
    }
}

#[test]
fn expand_inputs_walks_directories_sorted_and_names_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("b/deep")).unwrap();
    std::fs::create_dir_all(d.join("a")).unwrap();
    std::fs::create_dir_all(d.join("empty")).unwrap();
    for f in [
        "b/deep/z.PGN",
        "b/x.pgn.zst",
        "a/y.pgn.gz",
        "a/notes.txt",
        "c.pgn",
        "a/q.zst",
    ] {
        std::fs::write(d.join(f), b"1. e4 *\n").unwrap();
    }
    let got = expand_inputs(&[d.to_path_buf(), "-".into()]).unwrap();
    let names: Vec<String> = got
        .iter()
        .map(|i| {
            i.path
                .strip_prefix(d)
                .map(|p| p.display().to_string())
                .unwrap_or_else(|_| i.path.display().to_string())
        })
        .collect();
    assert_eq!(
        names,
        ["a/y.pgn.gz", "b/deep/z.PGN", "b/x.pgn.zst", "c.pgn", "-"]
    );
    assert!(got[4].is_stdin());

    let missing = d.join("nope.pgn");
    let e = expand_inputs(std::slice::from_ref(&missing)).unwrap_err();
    assert!(matches!(e, SourceError::NotFound { .. }));
    assert!(e.to_string().contains("nope.pgn"), "{e}");

    let e = expand_inputs(&[d.join("empty")]).unwrap_err();
    assert!(matches!(e, SourceError::NoInputFiles { .. }));
    assert!(e.to_string().contains("empty"), "{e}");

    // An explicit file is taken whatever its name.
    let got = expand_inputs(&[d.join("a/notes.txt")]).unwrap();
    assert_eq!(got.len(), 1);
}

#[test]
fn encodings_are_detected() {
    for (name, want) in [
        ("xq-endgames-big5.pgn", Encoding::Big5),
        ("xq-eleeye-sample-gbk.pgn", Encoding::Gb18030),
        ("xq-ccgc2006-01-gbk.pgn", Encoding::Gb18030),
        ("xq-black-first-gbk.pgn", Encoding::Gb18030),
        ("dortmund.pgn", Encoding::Latin1),
        ("lichess-2025-05-blitz-sample.pgn", Encoding::Utf8),
        ("kokopu-bom.pgn", Encoding::Utf8),
        ("xq-wukong-chinese.pgn", Encoding::Utf8),
    ] {
        let r = Batches::open(&Input::file(corpus_path(name)), &ReadOptions::default()).unwrap();
        assert_eq!(r.encoding(), want, "{name}");
    }
}

/// Big5 games decode to the traditional characters iconv gives.
#[test]
fn big5_games_decode_to_utf8_and_tokenize() {
    let raw = corpus("xq-endgames-big5.pgn");
    let spans = split_all(&raw, true);
    let text = decode_game(spans[0].slice(&raw, 0).unwrap(), Encoding::Big5);
    let game = pgnmill::pgn::GameText::new(text.as_bytes(), spans[0].line);
    // From `iconv -f big5 -t utf-8` of the file's first game.
    assert_eq!(game.tag("Red").as_deref(), Some("廣東 楊官璘".as_bytes()));
    let moves: Vec<String> = game
        .movetext()
        .map(|t| String::from_utf8_lossy(t.text).into_owned())
        .collect();
    assert_eq!(moves.first().map(String::as_str), Some("卒３進１"));
    assert_eq!(moves.get(1).map(String::as_str), Some("車五退二"));
    assert_eq!(moves.last().map(String::as_str), Some("0-1"));
}

/// Latin-1 tag values come out as the UTF-8 python-chess reads (latin-1).
#[test]
fn latin1_tag_values_decode_like_python() {
    let raw = corpus("dortmund.pgn");
    let spans = split_all(&raw, false);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/pgn/mainline.csv");
    let mut rdr = csv::Reader::from_path(path).unwrap();
    let mut checked = 0;
    let mut accented = 0;
    for rec in rdr.records() {
        let rec = rec.unwrap();
        if &rec[0] != "dortmund.pgn" {
            continue;
        }
        let i: usize = rec[1].parse().unwrap();
        let game = pgnmill::pgn::GameText::new(spans[i - 1].slice(&raw, 0).unwrap(), 1);
        let white = game.tag("White").unwrap();
        let got = decode_tag_value(&white, Encoding::Latin1);
        assert_eq!(got, &rec[4]);
        checked += 1;
        accented += usize::from(!rec[4].is_ascii());
    }
    assert_eq!(checked, 347);
    assert!(accented > 0);
}

/// Batches go to worker threads; readers may move to a reading thread.
#[test]
fn batches_and_readers_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    send_sync::<Batch>();
    send::<Batches>();
    send_sync::<SourceError>();
}

#[test]
fn progress_counts_input_bytes_for_compressed_and_mapped_files() {
    let raw = corpus("tcec_9_15_testgames.pgn");
    let z = zstd_bytes(&raw);
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("t.pgn.zst");
    std::fs::write(&p, &z).unwrap();
    let mut r = Batches::open(&Input::file(&p), &opts(32 << 10)).unwrap();
    assert_eq!(r.text().input_len(), Some(z.len() as u64));
    let mut last = 0;
    while let Some(b) = r.next() {
        b.unwrap();
        assert!(r.text().input_read() >= last);
        last = r.text().input_read();
    }
    assert_eq!(r.text().input_read(), z.len() as u64);
    assert_eq!(r.position().offset, raw.len() as u64);

    let mut m = Batches::open(
        &Input::file(corpus_path("tcec_9_15_testgames.pgn")),
        &opts(32 << 10),
    )
    .unwrap();
    assert_eq!(m.text().input_len(), Some(raw.len() as u64));
    for b in m.by_ref() {
        b.unwrap();
    }
    assert_eq!(m.text().input_read(), raw.len() as u64);
}
