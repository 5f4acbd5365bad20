//! The fast tokenizer and tag walk against plain references.
//!
//! `movetext_reference.rs` is the main-line tokenizer and
//! `tag_reference.rs` the tag reader written plainly from the PGN rules,
//! byte by byte: the specification of every token (kind, text, offset), of
//! `line_at`, `line` and `unclosed_comment`, of the tags, of where the
//! movetext starts and of its line. The tests feed the shipped code and the
//! references the same bytes, random text built from the pieces real files
//! hold and the malformed ones they sometimes hold, and every file of the
//! repository's test data, and require the same answers.

use crate::support;
use crate::{movetext_reference, tag_reference};

use pgnmill::pgn::headers::GameHeaders;
use pgnmill::pgn::{GameText, Movetext, split_all};
use proptest::prelude::*;

/// Every observable answer of a tokenizer over `buf[start..]`: each token
/// with its line, the line reached after each step, then a few calls past
/// the end (an iterator that is done stays done), and the unclosed comment.
type Trace = (Vec<(String, Vec<u8>, usize, u64, u64)>, Option<u64>, u64);

/// The [`Trace`] of a tokenizer type: the same walk for the shipped one and
/// the reference, which share no trait, so a macro writes it once.
macro_rules! trace {
    ($movetext:ty, $buf:expr, $start:expr, $line:expr) => {{
        let (buf, line): (&[u8], u64) = ($buf, $line);
        let mut t = <$movetext>::new(buf, $start, line);
        let mut out = Vec::new();
        let mut ends = 0;
        while ends < 3 {
            match t.next() {
                Some(tok) => out.push((
                    format!("{:?}", tok.kind),
                    tok.text.to_vec(),
                    tok.offset,
                    t.line_at(tok.offset),
                    t.line(),
                )),
                None => ends += 1,
            }
            if out.len() > buf.len() + 10 {
                break;
            }
        }
        let trace: Trace = (out, t.unclosed_comment(), t.line());
        trace
    }};
}

fn trace_new(buf: &[u8], start: usize, line: u64) -> Trace {
    trace!(Movetext, buf, start, line)
}

fn trace_reference(buf: &[u8], start: usize, line: u64) -> Trace {
    trace!(movetext_reference::Movetext, buf, start, line)
}

fn assert_same(buf: &[u8], start: usize, line: u64) {
    let new = trace_new(buf, start, line);
    let reference = trace_reference(buf, start, line);
    assert_eq!(
        new,
        reference,
        "start {start} of {:?}",
        String::from_utf8_lossy(buf)
    );
}

/// Pieces of movetext, from the common export format to the odd bytes of
/// real and broken files.
const PIECES: &[&str] = &[
    // Move numbers, plain, with dots for Black, glued, full-width, ellipsis.
    "1.",
    "12.",
    "12...",
    "1..",
    "123456.",
    "\u{ff11}\u{ff12}\u{ff0e}",
    "1\u{2026}",
    "12",
    "1.e4",
    "3...Nf6",
    // Moves.
    "e4",
    "Nf3",
    "exd8=Q#",
    "Nbxd7+",
    "O-O",
    "O-O-O",
    "O-O+",
    "0-0",
    "0-0-0",
    "0000",
    "Nf3!",
    "e4?!",
    "Qh5!!",
    "--",
    "Z0",
    "h2e2",
    "C2.5",
    "R1+1",
    // Whitespace beyond ASCII: no-break space, byte order mark, and a
    // full-width character that shares the mark's first byte.
    "1.\u{a0}e4",
    "\u{feff}",
    "e4\u{feff}",
    "\u{ff25}4",
    // WXF pawn stacks: `77.6` is a move, `10.4` and `7.6` still numbers.
    "77.6",
    "1.77.6",
    "77.6+",
    "10.4",
    "7.6",
    "77..6",
    "\u{ff17}\u{ff17}\u{ff0e}\u{ff16}",
    "7\u{ff17}.\u{ff16}\u{ff0b}",
    "Kxe2",
    "abcdefghijklmnop1",
    "Nf",
    "\u{70ae}\u{4e8c}\u{5e73}\u{4e94}",
    "\u{9a6c}\u{ff18}\u{8fdb}\u{ff17}",
    "\u{5175}\u{4e03}\u{8fdb}\u{4e00}",
    // Comments.
    "{ [%clk 0:03:00] }",
    "{ [%eval 0.17] [%clk 0:00:30] }",
    "{}",
    "{a}",
    "{multi\nline\r\ncomment}",
    "{ a long comment that runs past thirty-two bytes, with ( and ) in it }",
    "{ unclosed",
    "}",
    "; rest of line ( {\n",
    ";",
    "\n% escape line ( {\n",
    "%",
    "%not at line start",
    // Variations.
    "(",
    ")",
    "(1... c5 2. Nf3)",
    "(1... c5 (1... e5 {x)} ; (\n2. d4) 2. c3)",
    "(\n%(\n)",
    // NAGs and glyphs.
    "$1",
    "$",
    "$123",
    "!?",
    "!",
    "?",
    "+/=",
    "=/+",
    "+-",
    "-+",
    "=",
    "inf",
    "N",
    "TN",
    "RR",
    "e.p.",
    "ep",
    "\u{221e}",
    "\u{b1}",
    "=/\u{221e}",
    // Results, alone and glued.
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "h6*",
    "1-0*",
    "1/2",
    // Ideographic space and other whitespace as tokens.
    "\u{3000}",
    "\t",
    "\x0b",
    "\x1c",
];

const SEPARATORS: &[&[u8]] = &[
    b" ",
    b" ",
    b" ",
    b"\n",
    b"\r\n",
    b"\r",
    b"",
    b"  ",
    b"\t",
    "\u{3000}".as_bytes(),
    b" \n",
];

/// One piece of movetext: a known piece (most of the time) or a few
/// arbitrary bytes (invalid UTF-8, stray control bytes, lone 0xE3).
fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        12 => (0..PIECES.len()).prop_map(|i| PIECES[i].as_bytes().to_vec()),
        1 => proptest::collection::vec(any::<u8>(), 1..4),
        1 => proptest::collection::vec(
            prop_oneof![Just(0xe3u8), Just(0x80), Just(0xff), Just(b'{'), Just(b'}'),
                        Just(b'('), Just(b')'), Just(b'%'), Just(b'\r'), Just(b'.')],
            1..4
        ),
    ]
}

fn movetext() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec((piece(), 0..SEPARATORS.len()), 0..60).prop_map(|parts| {
        let mut out = Vec::new();
        for (p, sep) in parts {
            out.extend_from_slice(&p);
            out.extend_from_slice(SEPARATORS[sep]);
        }
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Random movetext of the common shape and its breakages.
    #[test]
    fn same_tokens_as_the_reference(buf in movetext(), cut in 0usize..8, line in 1u64..5) {
        let start = cut.min(buf.len());
        assert_same(&buf, start, line);
        assert_same(&buf, 0, line);
    }

    /// The lichess shape, where the fast path does most of the work, with
    /// a random byte changed.
    #[test]
    fn same_tokens_on_clock_games_with_one_byte_changed(
        plies in 1usize..40, at in any::<prop::sample::Index>(), byte in any::<u8>()
    ) {
        let mut buf = Vec::new();
        let moves = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O", "Nf6", "exd5", "Qxd8+"];
        for ply in 0..plies {
            if ply % 2 == 0 {
                buf.extend_from_slice(format!("{}. ", ply / 2 + 1).as_bytes());
            } else {
                buf.extend_from_slice(format!("{}... ", ply / 2 + 1).as_bytes());
            }
            buf.extend_from_slice(moves[ply % moves.len()].as_bytes());
            buf.extend_from_slice(b" { [%clk 0:02:58] } ");
        }
        buf.extend_from_slice(b"1-0\n\n");
        assert_same(&buf, 0, 1);
        let i = at.index(buf.len());
        buf[i] = byte;
        assert_same(&buf, 0, 1);
    }

    /// Arbitrary bytes.
    #[test]
    fn same_tokens_on_arbitrary_bytes(buf in proptest::collection::vec(any::<u8>(), 0..200)) {
        assert_same(&buf, 0, 1);
    }
}

/// Hand-picked edges: a chunk boundary right at a move end, a move number
/// followed by a lone `\r`, a comment closing at byte 16 and 32 of its
/// chunk, the `%` rule after each kind of step.
#[test]
fn same_tokens_on_edges() {
    let cases: &[&[u8]] = &[
        b"",
        b" ",
        b"e4",
        b"e4 ",
        b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0",
        b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6",
        b"12345678901234. e4",
        b"1.\re4 2.\r\ne5 3.\nNf3",
        b"1. e4 {123456789012345} e5 {1234567890123456} Nf3 {12345678901234567} 1-0",
        b"1. e4 {1234567890123456789012345678901} e5 {12345678901234567890123456789012} *",
        b"1. e4\n%x\n{c}%y\n(a)%z\n;w\n%v\n$1%u\ne5",
        b"%a\n1. e4",
        b"1. e4 { never closed\n2. d4 d5 1-0\n\n[Event \"next\"]\n",
        b"1. e4 (1. d4 {)} d5 (1... Nf6)) e5 1/2-1/2",
        b"1. O-O O-O-O 2. O-O-O+ O-O# 3. Oxo 0-1",
        b"1.e4 e5 2.Nf3 Nc6 3...a6 *",
        b"1. e4 e5 2. Nf3\xe3\x80\x80Nc6\xe3\x80\x80\xe3\x81\x81 3. Bb5 *",
        "１．炮二平五　马８进７　２．马二进三 1-0".as_bytes(),
        // Results next to every byte that may or may not end them.
        b"1. e4 1-0",
        b"1. e4 0-1\r\n",
        b"1. e4 1/2-1/2\n\n",
        b"1. e4 1-0 2. d4",
        b"1. e4 1-00 e5",
        b"1. e4 1-0! e5",
        b"1. e4 1-0\te5",
        b"1. e4 1-0{x} e5",
        b"1. e4 0-1( e5",
        b"1. e4 1/2-1/ e5",
        b"1. e4 1/2-1/2% e5",
        b"1. e4 1-0\xe3\x80\x80e5",
        b"1. e4 1-0\xe3\x81\x81 e5",
        b"1. e4 1-",
        b"1. e4 1/2",
    ];
    for &buf in cases {
        for start in 0..buf.len().min(20) {
            for line in [1, 7] {
                assert_same(buf, start, line);
            }
        }
    }
}

/// Every game of every PGN file under `testdata/` (chess and xiangqi, clean
/// and malformed), as the report splits it.
#[test]
fn same_tokens_on_every_test_file() {
    let files: Vec<_> = support::testdata_files()
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pgn")))
        .collect();
    assert!(files.len() > 20, "test data not found: {files:?}");
    let mut games = 0;
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        for span in split_all(&bytes, false) {
            let Some(g) = span.slice(&bytes, 0) else {
                continue;
            };
            let game = GameText::new(g, span.line);
            assert_same(g, game.movetext_start(), span.line);
            assert_same_tags(g, span.line);
            games += 1;
        }
    }
    assert!(games > 1000, "only {games} games");
}

/// Tags as a reader reports them: name, raw value, line.
type TagList = Vec<(Vec<u8>, Vec<u8>, u64)>;

/// The tag section of `buf` read by the new code, all three ways a caller
/// reads it (the report's one-walk reader, `GameText::new` and the `tags()`
/// iterator), against the reference walk and iterator.
fn assert_same_tags(buf: &[u8], line: u64) {
    let mut scans = Vec::new();
    let (start, movetext_line) = tag_reference::walk_tag_section(buf, line, |s| scans.push(*s));
    let reference: TagList = tag_reference::Tags::new(buf.get(..start).unwrap(), line)
        .map(|t| (t.name.to_vec(), t.raw_value.to_vec(), t.line))
        .collect();
    assert_eq!(scans.len(), reference.len());
    let context = || format!("{:?}", String::from_utf8_lossy(buf));

    let (headers, game) = GameHeaders::read_game(buf, line);
    assert_eq!(game.movetext_start(), start, "{}", context());
    assert_eq!(game.movetext().line(), movetext_line, "{}", context());
    let plain = GameText::new(buf, line);
    assert_eq!(plain.movetext_start(), start, "{}", context());
    let tags: TagList = game
        .tags()
        .map(|t| (t.name.to_vec(), t.raw_value.to_vec(), t.line))
        .collect();
    assert_eq!(tags, reference, "{}", context());
    // The one-walk reader picked the same values as reading the list.
    assert_eq!(
        format!("{headers:?}"),
        format!("{:?}", GameHeaders::read(&game)),
        "{}",
        context()
    );
}

/// Pieces of a tag section: the lichess and TWIC lines, and every oddity
/// the tag reader has a rule for.
const TAG_PIECES: &[&str] = &[
    "[Event \"Rated Blitz game\"]\n",
    "[Site \"https://lichess.org/abcdefgh\"]\n",
    "[WhiteElo \"1500\"]\n",
    "[White \"A\"]\r\n",
    "[Black \"B\"]\r",
    "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n",
    "[Fen \"x\"]\n",
    "[Annotator \"a long value that runs past thirty-two bytes of the chunk\"]\n",
    "[White \"Say \\\"hi\\\" \\\\ there\"]\n",
    "[Black \"R\u{e9}ti\"]\n",
    "[Event \"x\"] [Site \"y\"]\n",
    "[Event \"x\"]  \n",
    " [Event \"x\"]\n",
    "[ Event \"x\"]\n",
    "[Event  \"x\"]\n",
    "[Event\"x\"]\n",
    "[Event \"x\n",
    "[Event \"x\"\n",
    "[Event]\n",
    "[]\n",
    "[Event \"]\"]\n",
    "[Event \"x\"]",
    "[\u{4e2d} \"\u{6587}\"]\n",
    "\n",
    "\r\n",
    "   \n",
    "\u{3000}\n",
    "% escape\n",
    "; comment\n",
    "1. e4 e5 1-0\n",
    "{comment} 1. e4\n",
    "[",
    "\"",
    "\\",
    "]",
];

fn tag_section() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        12 => (0..TAG_PIECES.len()).prop_map(|i| TAG_PIECES[i].as_bytes().to_vec()),
        1 => proptest::collection::vec(any::<u8>(), 1..6),
    ];
    proptest::collection::vec(piece, 0..25).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Random tag sections: the same tags, values, lines and movetext start.
    #[test]
    fn same_tags_as_the_reference(buf in tag_section(), line in 1u64..5) {
        assert_same_tags(&buf, line);
    }

    /// Arbitrary bytes after a `[`.
    #[test]
    fn same_tags_on_arbitrary_bytes(tail in proptest::collection::vec(any::<u8>(), 0..100)) {
        let buf = [b"[".as_slice(), &tail].concat();
        assert_same_tags(&buf, 1);
        assert_same_tags(&tail, 1);
    }
}

/// Every comment length from empty to past the 33 bytes looked at before
/// memchr (so its `}` falls at every byte of the first chunks, exactly at
/// their edges included), at every alignment of the text, between moves
/// written with spaces, CR/LF or LF, and every prefix of such a text (its
/// end inside a move, a number or the comment).
#[test]
fn same_tokens_on_every_comment_length_and_alignment() {
    let seps: &[&[u8]] = &[b" ", b"\r\n", b"\n"];
    for len in 0..40 {
        let body: Vec<u8> = (0..len).map(|i| b"ab0:[%c] "[i % 9]).collect();
        for sep in seps {
            for pad in 0..17 {
                let mut buf = vec![b' '; pad];
                buf.extend_from_slice(b"1. e4");
                buf.extend_from_slice(sep);
                buf.push(b'{');
                buf.extend_from_slice(&body);
                buf.push(b'}');
                buf.extend_from_slice(sep);
                buf.extend_from_slice(b"1... e5 {");
                buf.extend_from_slice(&body);
                buf.extend_from_slice(b"} 2. Nf3+ {}} 2... Nc6");
                buf.extend_from_slice(sep);
                buf.extend_from_slice(b"%x}\n1-0");
                assert_same(&buf, 0, 1);
                if pad == 0 {
                    for cut in 0..buf.len() {
                        assert_same(&buf[..cut], 0, 1);
                    }
                }
            }
        }
    }
}

/// Lichess clock comments and their near misses (no space before the `}`
/// or after the `{`, more text, `%eval`, an unclosed one), at every
/// alignment, and every prefix of such a text.
#[test]
fn same_tokens_on_clock_comment_near_misses() {
    let comments: &[&[u8]] = &[
        b"{ [%clk 0:03:00] }",
        b"{ [%clk 0:03:00]}",
        b"{[%clk 0:03:00] }",
        b"{[%clk 0:03:00]}",
        b"{ [%clk 10:03:00] }",
        b"{ [%clk 0:03:00] good move }",
        b"{ [%eval 0.17] [%clk 0:03:00] }",
        b"{ [%eval #-3] }",
        b"{ [%clk 0:03:00] } }",
        b"{ {[%clk 0:03:00] }",
        b"{ [%clk 0:03:00]",
    ];
    for comment in comments {
        for pad in 0..17 {
            let mut buf = vec![b' '; pad];
            for (n, m) in [(1, "e4"), (1, "e5"), (2, "Nf3"), (2, "Nc6")] {
                let dots = if m == "e4" || m == "Nf3" { "." } else { "..." };
                buf.extend_from_slice(format!("{n}{dots} {m} ").as_bytes());
                buf.extend_from_slice(comment);
                buf.push(b' ');
            }
            buf.extend_from_slice(b"1-0\n\n");
            assert_same(&buf, 0, 1);
            if pad < 2 {
                for cut in 0..buf.len() {
                    assert_same(&buf[..cut], 0, 1);
                }
            }
        }
    }
}

/// Every byte value before, inside and after a move, at every position of
/// the 16-byte chunk: the fast path's tests of a move's first byte (a
/// letter), its bytes (letters, digits, `+#=-`) and the byte that ends it
/// (a space, a line end, `{`, `(`, `)`, `$` or `;`) must give the general
/// path's tokens whatever the byte.
#[test]
fn same_tokens_with_every_byte_around_a_move() {
    for b in 0..=255u8 {
        for pad in 0..17 {
            let shapes: [Vec<u8>; 5] = [
                [&b"1. Nf3"[..], &[b], b" Nc6 *"].concat(),
                [&b"1. "[..], &[b], b"f3 Nc6 *"].concat(),
                [&b"1."[..], &[b], b"1 Nc6 *"].concat(),
                [&b"1. N"[..], &[b], b"3 Nc6 *"].concat(),
                [&b"12"[..], &[b], b" Nc6 *"].concat(),
            ];
            for shape in shapes {
                let mut buf = vec![b' '; pad];
                buf.extend_from_slice(&shape);
                assert_same(&buf, 0, 1);
            }
        }
    }
}
