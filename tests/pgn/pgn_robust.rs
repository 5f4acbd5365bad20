//! Untrusted input: the splitter and tokenizer never panic, keep spans
//! ordered and disjoint, stay linear in time, and use no stack that the
//! input can make deep.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use pgnmill::pgn::Batches;
use pgnmill::pgn::{GameSpan, GameText, TokenKind, split_all};
use pgnmill::source::{Encoding, ReadOptions};
use proptest::prelude::*;

/// Everything a consumer would do with every game of `bytes`.
fn walk_all(bytes: &[u8], dbcs: bool) -> Vec<GameSpan> {
    let spans = split_all(bytes, dbcs);
    let mut prev_end = 0u64;
    for s in &spans {
        assert!(s.offset >= prev_end, "spans overlap or go back: {spans:?}");
        assert!(s.len > 0);
        prev_end = s.end();
        let g = s.slice(bytes, 0).expect("span inside the input");
        let game = GameText::new(g, s.line);
        for t in game.tags() {
            let _ = t.value();
            assert!(t.line >= s.line);
        }
        let tokens = game.movetext();
        for t in tokens.clone() {
            assert!(!t.text.is_empty());
            assert!(t.offset + t.text.len() <= g.len());
            assert!(tokens.line_at(t.offset) >= s.line);
        }
    }
    spans
}

fn stream_spans(bytes: &[u8], batch: usize, dbcs: bool) -> Vec<GameSpan> {
    let enc = if dbcs { Encoding::Big5 } else { Encoding::Utf8 };
    let o = ReadOptions {
        batch_bytes: batch,
        encoding: Some(enc),
        ..ReadOptions::default()
    };
    let r = Batches::from_read(
        Path::new("p"),
        Box::new(std::io::Cursor::new(bytes.to_vec())),
        &o,
    )
    .unwrap();
    r.flat_map(|b| b.unwrap().games).collect()
}

const PIECES: &[&str] = &[
    "[Event \"x\"]",
    // Whole tag lines, as the splitter's fast path reads them.
    "[Event \"x\"]\n",
    "[Site \"y z\"]\r\n",
    "[White \"a\\\"b\"]\n",
    "[",
    "]",
    "\"",
    "\\",
    "\n",
    "\r",
    "\r\n",
    "\n\n",
    " ",
    "{",
    "}",
    "(",
    ")",
    ";",
    "%",
    "1-0",
    "*",
    "1/2-1/2",
    "e4",
    "12.",
    "...",
    "$3",
    "!?",
    "\u{3000}",
    "\u{a0}",
    "\u{feff}",
    "炮二平五",
    "\u{FEFF}",
    "\u{a4}\u{7b}",
];

fn pgnish() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(0..PIECES.len(), 0..200).prop_map(|ix| {
        ix.into_iter()
            .flat_map(|i| PIECES[i].as_bytes().iter().copied())
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2000), dbcs: bool) {
        walk_all(&bytes, dbcs);
    }

    #[test]
    fn pgn_like_text_never_panics_and_splits_the_same_in_any_window(
        bytes in pgnish(), batch in 1usize..64, dbcs: bool,
    ) {
        let whole = walk_all(&bytes, dbcs);
        prop_assert_eq!(stream_spans(&bytes, batch, dbcs), whole.clone());
        let o = ReadOptions { batch_bytes: batch, encoding: Some(if dbcs { Encoding::Gb18030 } else { Encoding::Utf8 }), ..ReadOptions::default() };
        let mapped: Vec<GameSpan> = Batches::from_shared(Path::new("p"), Arc::new(bytes.clone()), &o)
            .flat_map(|b| b.unwrap().games)
            .collect();
        prop_assert_eq!(mapped, whole);
    }
}

fn seconds(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64()
}

fn moves_of(bytes: &[u8]) -> Vec<Vec<u8>> {
    let spans = split_all(bytes, false);
    assert_eq!(spans.len(), 1);
    GameText::new(spans[0].slice(bytes, 0).unwrap(), 1)
        .movetext()
        .map(|t| t.text.to_vec())
        .collect()
}

#[test]
fn ten_megabyte_comment_is_linear() {
    let mut pgn = b"[Event \"big\"]\n\n1. e4 {".to_vec();
    while pgn.len() < 10 << 20 {
        pgn.extend_from_slice(b"a (b) [c] ; d\n[Event \"no\"]\n\n");
    }
    pgn.extend_from_slice(b"} e5 1-0\n");
    let mut toks = Vec::new();
    let t = seconds(|| toks = moves_of(&pgn));
    assert_eq!(toks, [b"e4".to_vec(), b"e5".to_vec(), b"1-0".to_vec()]);
    // Same size of ordinary games, for a ratio rather than an absolute time.
    let normal = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/pgn/corpus/lichess-2025-05-blitz-sample.pgn"),
    )
    .unwrap();
    let mut big = Vec::new();
    while big.len() < pgn.len() {
        big.extend_from_slice(&normal);
    }
    let tn = seconds(|| {
        walk_all(&big, false);
    });
    assert!(
        t < tn * 10.0 + 0.05,
        "10 MB comment took {t:.3}s, 10 MB of games {tn:.3}s"
    );
    // Streamed in small windows it must not go quadratic either.
    let ts = seconds(|| assert_eq!(stream_spans(&pgn, 64 << 10, false).len(), 1));
    assert!(ts < tn * 20.0 + 0.1, "streamed: {ts:.3}s vs {tn:.3}s");
}

#[test]
fn hundred_thousand_nested_parentheses() {
    let n = 100_000;
    let mut pgn = b"1. e4 ".to_vec();
    pgn.extend(std::iter::repeat_n(b'(', n));
    pgn.extend_from_slice(b"1... c5 ");
    pgn.extend(std::iter::repeat_n(b')', n));
    pgn.extend_from_slice(b" e5 *\n");
    assert_eq!(
        moves_of(&pgn),
        [b"e4".to_vec(), b"e5".to_vec(), b"*".to_vec()]
    );

    // Unbalanced: never closed, then too many closed.
    let mut open = b"1. e4 ".to_vec();
    open.extend(std::iter::repeat_n(b'(', n));
    open.extend_from_slice(b" e5 1-0");
    assert_eq!(moves_of(&open), [b"e4".to_vec()]);
    let mut close = b"1. e4 ".to_vec();
    close.extend(std::iter::repeat_n(b')', n));
    close.extend_from_slice(b" e5 1-0");
    assert_eq!(
        moves_of(&close),
        [b"e4".to_vec(), b"e5".to_vec(), b"1-0".to_vec()]
    );
}

#[test]
fn long_line_without_newline_streams_linearly() {
    let mut pgn = b"[Event \"x\"]\n1. ".to_vec();
    while pgn.len() < 20 << 20 {
        pgn.extend_from_slice(b"Nf3 Nf6 Ng1 Ng8 ");
    }
    let t = seconds(|| assert_eq!(stream_spans(&pgn, 64 << 10, false).len(), 1));
    assert!(t < 5.0, "20 MB line took {t:.2}s");
}

#[test]
fn unterminated_comment_runs_to_the_end_and_keeps_every_byte() {
    // With no blank line and tag pair after it, the comment runs to the end.
    let pgn = b"[Event \"a\"]\n\n1. e4 {oops\n[Event \"b\"]\n\n1. d4 *\n";
    let spans = split_all(pgn, false);
    assert_eq!(spans.len(), 1);
    assert_eq!(spans[0].len, pgn.len());
}

#[test]
fn games_run_together_and_tagless_games() {
    let pgn =
        b"\xEF\xBB\xBF[Event \"a\"]\n1. e4 1-0\n[Event \"b\"]\n\n1. d4 { x\n[not a tag] } 0-1\n\n\
                1. c4 *\n\n% escaped\n;comment line\n1. Nf3\n";
    let spans = split_all(pgn, false);
    let starts: Vec<(u64, u64)> = spans.iter().map(|s| (s.offset, s.line)).collect();
    // Counted by hand: BOM 3 bytes; each line's length and number.
    assert_eq!(starts, [(3, 1), (25, 3), (67, 8), (100, 12)]);
    let texts: Vec<&[u8]> = spans.iter().map(|s| s.slice(pgn, 0).unwrap()).collect();
    assert_eq!(texts[0], b"[Event \"a\"]\n1. e4 1-0\n");
    assert_eq!(texts[3], b"1. Nf3\n");
    let kinds: Vec<TokenKind> = GameText::new(texts[1], 3)
        .movetext()
        .map(|t| t.kind)
        .collect();
    assert_eq!(kinds, [TokenKind::Move, TokenKind::Result]);
}

/// Big5 `弓` is A4 7D and `許` is B3 5C: their trail bytes are `}` and `\`.
/// Read as double-byte text they are characters, never syntax.
#[test]
fn double_byte_trail_bytes_are_not_syntax() {
    let pgn: &[u8] =
        b"[Red \"\xB3\x5C\"]\n\n1. e4 {\xA4\x7D still a comment\n[Event \"x\"]\n} e5 *\n";
    assert_eq!(split_all(pgn, true).len(), 1);
    // Read as single bytes, the `}` closes the comment and `[Event` starts a game.
    assert_eq!(split_all(pgn, false).len(), 2);
    // Decoded first, the game tokenizes like any UTF-8 game.
    let text = pgnmill::source::decode_game(pgn, Encoding::Big5);
    let game = GameText::new(text.as_bytes(), 1);
    assert_eq!(game.tag("Red").as_deref(), Some("許".as_bytes()));
    let moves: Vec<&[u8]> = game.movetext().map(|t| t.text).collect();
    assert_eq!(moves, [&b"e4"[..], b"e5", b"*"]);
}

#[test]
fn binary_junk_with_nul_bytes_is_split_without_hanging() {
    let mut junk = Vec::new();
    let mut x: u32 = 12345;
    for _ in 0..(1 << 20) {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        junk.push((x >> 16) as u8);
    }
    junk.extend_from_slice(b"\0\0\0[Event \"x\"]\n\n1. e4 *\n");
    let spans = walk_all(&junk, false);
    assert!(!spans.is_empty());
    walk_all(&junk, true);
}
