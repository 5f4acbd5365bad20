//! The splitter (`pgnmill::pgn::split_all`, vector path, and its
//! byte-exact path) against the plain reference splitter of
//! `tests/pgn/split_reference.rs`, written from docs/pgn-dialect.md §2 and
//! sharing no code with it: the same games, span for span, on every file
//! of `testdata/` and on generated inputs with comments, variations, blank
//! lines and tag lines in random places. One row per game holds when both
//! find the same spans.

use crate::split_reference;
use crate::support;

use pgnmill::pgn::split::split_all_bytewise;
use pgnmill::pgn::split_all;
use proptest::prelude::*;

fn check(data: &[u8]) -> Result<(), String> {
    let want = split_reference::split(data);
    for (path, got) in [
        ("vector", split_all(data, false)),
        ("bytewise", split_all_bytewise(data, false)),
    ] {
        let got: Vec<split_reference::Span> =
            got.iter().map(|s| (s.offset, s.line, s.len)).collect();
        if got != want {
            // The first game where they part, with its text.
            let at = (0..got.len().max(want.len()))
                .find(|&i| got.get(i) != want.get(i))
                .unwrap_or_default();
            let show = |span: Option<&split_reference::Span>| match span {
                Some(&(o, l, n)) => {
                    let text = String::from_utf8_lossy(&data[o as usize..o as usize + n]);
                    let text: String = text.chars().take(300).collect();
                    format!("line {l} offset {o} len {n}: {text:?}")
                }
                None => "none".to_string(),
            };
            return Err(format!(
                "game {at} of {}/{}: {path} splitter {}\nreference {}",
                got.len(),
                want.len(),
                show(got.get(at)),
                show(want.get(at))
            ));
        }
    }
    Ok(())
}

#[test]
fn every_testdata_file_splits_as_the_reference_does() {
    let paths = support::testdata_files();
    assert!(paths.len() > 50, "testdata not found");
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        if let Err(e) = check(&bytes) {
            panic!("{path:?}: {}", e.chars().take(3000).collect::<String>());
        }
    }
}

/// The inputs of issue 13 (comments and variations left open, tags after
/// a result) and of issue 28 (tag-only games, a tag name again after a
/// blank line; tagless games on one line; a tag value broken across lines).
#[test]
fn the_cases_of_issues_13_and_28() {
    let cases: &[&str] = &[
        "1. e4 {unclosed e5 2. Nf3 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n\n[Event \"c\"]\n\n1. c4 }*\n",
        "1. e4 (unclosed e5 2. Nf3 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n",
        "[Event \"a\"] 1. e4 e5 1-0 [Event \"b\"] 1. d4 d5 0-1",
        "[Event \"a\"] 1. e4 e5 1-0 {c} [Event \"b\"] 1. d4 d5 0-1 [Event \"c\"] *\n",
        "[Event \"a\n[Site \"b\"]\n\n1. e4 *\n",
        "1. e4 {a\n\n[%clk 0:01:00]\n} e5 *\n",
        "1. e4 {a\n\n\n  [Event \"b\"]\n1. d4 *\n",
        "[Event \"a\"]\n[White \"x\"]\n\n[White \"y\"]\n\n[White \"z\"]\n",
        "[Event \"a\"]\r\n[White \"x\"]\r\n\r\n[Black \"y\"]\r\n[White \"z\"]\r\n",
        "1. e4 e5 * 1. d4 d5 1/2-1/2 1. c4 0-1\n",
        "1. e4 e5* 1. d4 1-0 {1-0} 1. c4 {x\ny} 1. Nf3 *",
        "[Event \"Long\nvalue\"]\n[Site \"x\"]\n\n1. e4 *\n",
        "[Event \"Long\nwrapped\nvalue\"]\n1. e4 *\n",
        "[Event \"Long\n1. e4 *\n",
    ];
    for case in cases {
        check(case.as_bytes()).unwrap_or_else(|e| panic!("{case:?}: {e}"));
    }
}

/// Lines of PGN, whole or broken, that a file may hold.
const LINES: &[&str] = &[
    "[Event \"a\"]",
    "[Site \"b\"]",
    "[Event \"no closing quote",
    "[White \"x\"] [Black \"y\"]",
    "[Variant \"Standard\"] 1. e4 e5",
    "[%clk 0:03:00]",
    "",
    "",
    "   ",
    "1. e4 e5 2. Nf3 Nc6",
    "1. d4 { a comment } d5",
    "1... c5 2. Nf3",
    "3. Bb5 a6 1-0",
    "1-0",
    "*",
    "1. e4 h6*",
    "0-1 [Event \"same line\"] 1. c4 *",
    "1. e4 e5 1/2-1/2 [Event \"x\"]",
    "1. e4 { open",
    "closed } 2. d4",
    "a comment line",
    "1. e4 ( 1. d4 d5",
    ") 2. Nf3",
    "(1... e5 (1... c5) 2. Nf3)",
    "{ [%eval 0.2] [%clk 0:01:00] } 2. Nf3",
    "% escape",
    "; comment",
    "=====",
    "  1. e4",
    "Event \"lost its bracket\"]",
    "[White \"x\"]",
    "[White \"y\"] [Black \"z\"]",
    "  [Site \"b\"]",
    "value\"]",
    "  wrapped value \"] ",
    "1. e4 e5 * 1. d4 d5 1/2-1/2 1. c4 0-1",
    "1. e4 e5* 2. d4 O-O-O",
    "1-0 {c} 1. d4 { open",
    "1-0 === 1. d4",
    "0-1 ( 1. e4 ) e4",
    "1. O-O-O 1-0 [Event \"q\"] 1. e4",
];

fn generated() -> impl Strategy<Value = Vec<u8>> {
    let line = (0..LINES.len(), 0usize..3);
    prop::collection::vec(line, 0..40).prop_map(|lines| {
        let mut out = Vec::new();
        for (i, nl) in lines {
            out.extend_from_slice(LINES[i].as_bytes());
            out.extend_from_slice([&b"\n"[..], b"\r\n", b"\n"][nl]);
        }
        out
    })
}

/// Pieces of lines: comments, variations and tags open and close in
/// random places, within a line or across lines.
const PIECES: &[&str] = &[
    "[Event \"a\"]",
    "[Site \"b",
    "[%clk 1:00]",
    "[",
    "]",
    "\"",
    " ",
    "\t",
    "\u{3000}",
    "\u{a0}",
    "\u{feff}",
    "1.",
    "1. e4",
    " e5",
    " Nf3",
    "1...",
    " h6*",
    "{",
    "}",
    "{ c }",
    "(",
    ")",
    "( 1... c5 )",
    " 1-0",
    "0-1",
    " 1/2-1/2",
    " *",
    ";",
    "; x",
    "%",
    "% y",
    "$1",
    "=====",
    "\u{fffd}",
    "\0",
    "\n",
    "\n",
    "\n",
    "\r\n",
    "\r",
    "\n\n",
    "[White \"x\"]",
    "value\"]",
    " 1. d4",
    " O-O",
    "1-0 1.",
    " e5* Nf3",
];

fn pieces() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(0..PIECES.len(), 0..80)
        .prop_map(|v| v.iter().flat_map(|&i| PIECES[i].bytes()).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn generated_inputs_split_as_the_reference_does(data in generated()) {
        check(&data).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn random_pieces_split_as_the_reference_does(data in pieces()) {
        check(&data).map_err(TestCaseError::fail)?;
    }
}

#[test]
#[ignore]
fn shrink_debug() {
    let path = std::env::var("SHRINK").unwrap();
    let from: usize = std::env::var("FROM").unwrap().parse().unwrap();
    let to: usize = std::env::var("TO").unwrap().parse().unwrap();
    let d = std::fs::read(path).unwrap();
    let mut data = d[from..to].to_vec();
    assert!(check(&data).is_err());
    // Drop pieces while they still differ.
    let mut chunk = data.len() / 2;
    while chunk > 0 {
        let mut i = 0;
        while i < data.len() {
            let mut t = data.clone();
            t.drain(i..(i + chunk).min(data.len()));
            if check(&t).is_err() {
                data = t;
            } else {
                i += chunk;
            }
        }
        chunk /= 2;
    }
    panic!(
        "{:?}\n{}",
        String::from_utf8_lossy(&data),
        check(&data).unwrap_err()
    );
}
