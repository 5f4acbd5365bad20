//! The splitter's vectorised line scan (`pgn::split_window`) against its
//! byte-by-byte scan (`pgn::split::split_window_bytewise`, the splitter as
//! it was before the vector scan, kept for GBK/Big5 input and for lines the
//! vector scan hands back): the same spans and the same resume positions,
//! window for window, on random PGN-like bytes (tags, movetext, comments
//! across lines, `;` and `%` escapes, variations, results, blank lines,
//! CRLF and lone CR, stray and invalid UTF-8 bytes) and on every file under
//! `testdata/`. The byte-by-byte splitter's rules are those of
//! `tests/pgn/pgn_split_rules.rs` and `tests/pgn/pgn_counts.rs`.

use crate::support;

use pgnmill::pgn::split::{split_all_bytewise, split_window_bytewise};
use pgnmill::pgn::{GameSpan, Position, split_all, split_window};
use proptest::prelude::*;

type Split = fn(&[u8], Position, bool, bool, &mut Vec<GameSpan>) -> Position;

/// Every step of a windowed split as the reader does it (a window of
/// `first` bytes, doubled while it finishes nothing): what each call
/// appended and returned.
fn windowed(data: &[u8], first: usize, split: Split) -> Vec<(Vec<GameSpan>, Position)> {
    let mut steps = Vec::new();
    let mut pos = Position::START;
    let mut size = first;
    loop {
        let start = pos.offset as usize;
        let end = start.saturating_add(size).min(data.len());
        let is_final = end == data.len();
        let mut out = Vec::new();
        let next = split(&data[start..end], pos, is_final, false, &mut out);
        let progressed = !out.is_empty() || next.offset > pos.offset;
        steps.push((out, next));
        if is_final {
            return steps;
        }
        if progressed {
            pos = next;
            size = first;
        } else {
            size = size.saturating_mul(2);
        }
    }
}

fn check_same(data: &[u8], window: usize) -> Result<(), String> {
    let fast = split_all(data, false);
    let bytewise = split_all_bytewise(data, false);
    if fast != bytewise {
        return Err(format!("whole: {fast:?} != {bytewise:?}"));
    }
    let fast = windowed(data, window, split_window);
    let bytewise = windowed(data, window, split_window_bytewise);
    if fast != bytewise {
        return Err(format!("window {window}: {fast:?} != {bytewise:?}"));
    }
    Ok(())
}

/// Pieces of PGN and of what PGN files hold besides.
const PIECES: &[&[u8]] = &[
    b"[Event \"Rated Blitz game\"]",
    b"[Site \"https://lichess.org/x\"]",
    b"[White \"A \\\"q\\\" B\"]",
    b"[Black \"a]b\"]",
    b"[ Round \"1\" ]",
    b"[A \"b\"] [C \"d\"]",
    b"[Variant \"x\"] 1. e4",
    b"[Game \"1\"]",
    b"[Event \"{\"]",
    b"[A \"b",
    b"[A]",
    b"[",
    b"]",
    b"\"",
    b"\\",
    b"1.",
    b"1. ",
    b"1...",
    b" e4",
    b" Nf3",
    b" h6*",
    b"e5",
    b" ",
    b"  ",
    b"\t",
    b"\x0b",
    b"\x1c",
    b"\xe3\x80\x80",
    b"{ [%clk 0:03:00] }",
    b" { [%clk 0:05:00] } ",
    b"{",
    b"}",
    b"{ a",
    b"b }",
    b"(",
    b")",
    b" (1... c5) ",
    b";",
    b"; note",
    b"%",
    b"% escape",
    b" 1-0",
    b"1-0",
    b" 0-1",
    b" 1/2-1/2",
    b" *",
    b"*",
    b"$1",
    b"y",
    b"\x7f",
    b"\x00",
    b"\xff",
    b"\x80",
    b"\xef\xbb\xbf",
    b"=====",
    b"[White \"x\"]",
    b"value\"]",
    b" O-O-O",
    b"e2-e4",
    b"-",
    b" 1-0 1. d4",
    b"1/2-1/2 e4",
    b" e5* Nf3",
];

const LINE_ENDS: &[&[u8]] = &[b"\n", b"\r\n", b"\r"];

/// One piece of input: mostly PGN pieces and line ends, sometimes a byte.
fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        8 => (0..PIECES.len()).prop_map(|i| PIECES[i].to_vec()),
        4 => (0..LINE_ENDS.len()).prop_map(|i| LINE_ENDS[i].to_vec()),
        1 => any::<u8>().prop_map(|b| vec![b]),
    ]
}

fn pgn_like() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(piece(), 0..80).prop_map(|v| v.concat())
}

/// Games of typical shape (tags, a blank line, movetext with clock
/// comments, a result), with pieces put in between.
fn games_like() -> impl Strategy<Value = Vec<u8>> {
    let game = (
        0usize..4,
        prop::collection::vec(piece(), 0..12),
        0usize..30,
        prop::collection::vec(piece(), 0..6),
        0usize..3,
    )
        .prop_map(|(tags, middle, moves, tail, nl)| {
            let nl = LINE_ENDS[nl];
            let mut g = Vec::new();
            for t in 0..tags {
                g.extend_from_slice(format!("[T{t} \"v{t}\"]").as_bytes());
                g.extend_from_slice(nl);
            }
            g.extend_from_slice(nl);
            for m in 0..moves {
                g.extend_from_slice(format!("{}. e4 {{ [%clk 0:03:00] }} ", m + 1).as_bytes());
                if m % 7 == 6 {
                    g.extend_from_slice(nl);
                }
            }
            g.extend(middle.concat());
            // Some games are only tags (a tag-only game of a broadcast).
            if moves > 0 || tags == 0 {
                g.extend_from_slice(b"1-0");
            }
            g.extend_from_slice(nl);
            g.extend(tail.concat());
            g.extend_from_slice(nl);
            g
        });
    prop::collection::vec(game, 0..6).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_pieces_split_the_same(data in pgn_like(), window in 1usize..80) {
        check_same(&data, window).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn games_split_the_same(data in games_like(), window in 1usize..200) {
        check_same(&data, window).map_err(TestCaseError::fail)?;
    }
}

/// Hand-made lines at the edges of the vector scan: each alone, after a
/// tag section, and after movetext, in every window size.
#[test]
fn edge_lines_split_the_same() {
    let lines: &[&[u8]] = &[
        b"1. e4 { a { b } 1-0 c }",
        b"1. e4 { 1-0 { open",
        b"1. e4 } 1-0",
        b"1-0 {x} e4 ; c",
        b"1-0 {a;b} e4",
        b"e4 {a} ; {b",
        b"(1. e4 1-0) {c} 1-0",
        b"1. e4 (1... e5 {c} 0-1",
        b"1. e4 {c}1-0",
        b"1. e4 1-0{c}",
        b"1. e4 x{c}y",
        b"1. e4 {c\n d} 1/2-1/2",
        b"1. e4 {c\r\n d\r e} *",
        b"  \t1. e4 *",
        b"\xe3\x80\x801. e4 *",
        b"1. e4 h6*",
        b"1. e4 y\x7f*",
        b"1. e4\t1-0",
        b"1. e4 \x00 1-0",
        b"[A \"b\"]",
        b"[A \"b\"] ",
        b"[A \"\t\"]",
        b"[A \"b\"]1-0",
    ];
    let mut checked = 0;
    for line in lines {
        for nl in LINE_ENDS {
            for before in [&b""[..], b"[E \"x\"]\n\n", b"1. d4 d5\n", b"1. d4 1-0\n\n"] {
                for after in [&b""[..], b"\n", b"\n\n[E \"y\"]\n", b" 2. Nf3\n"] {
                    let data = [before, line, nl, after].concat();
                    for window in 1..=data.len() + 1 {
                        if let Err(e) = check_same(&data, window) {
                            panic!("{:?}: {e}", String::from_utf8_lossy(&data));
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 10_000);
}

/// Every file under `testdata/`: whole, and in windows of a few sizes.
#[test]
fn testdata_files_split_the_same() {
    let paths = support::testdata_files();
    assert!(paths.len() > 50, "testdata not found");
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        for window in [4096, 65536] {
            if let Err(e) = check_same(&bytes, window) {
                panic!("{path:?}: {}", e.chars().take(2000).collect::<String>());
            }
        }
        let small = bytes.get(..bytes.len().min(3000)).unwrap();
        for window in [1, 7, 64, 100] {
            if let Err(e) = check_same(small, window) {
                panic!(
                    "{path:?} head: {}",
                    e.chars().take(2000).collect::<String>()
                );
            }
        }
    }
}
