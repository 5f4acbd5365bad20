//! Property: random legal chess games, written as PGN in random
//! valid styles (move numbers or not, comments of both kinds, variations,
//! NAGs and suffix annotations, line breaks wherever whitespace may go,
//! CRLF), read back by the splitter and `replay_game`, give the same moves
//! and the same final position. The moves come from the kernel's
//! `legal_moves`; the check is that no writing style changes what is read.

use pgnmill::chess::{EpMode, Position};
use pgnmill::pgn::split_all;
use pgnmill::replay::{ReplayOptions, replay_game};
use proptest::prelude::*;

/// How one game is written.
#[derive(Debug, Clone)]
struct Style {
    tags: bool,
    numbers: bool,
    /// `1. e4` or `1.e4`.
    glued_numbers: bool,
    crlf: bool,
    /// Per-ply choices: which separator, and which decorations follow.
    seps: Vec<u8>,
    decorations: Vec<u8>,
}

fn style() -> impl Strategy<Value = Style> {
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        proptest::collection::vec(any::<u8>(), 200),
        proptest::collection::vec(any::<u8>(), 200),
    )
        .prop_map(
            |(tags, numbers, glued_numbers, crlf, seps, decorations)| Style {
                tags,
                numbers,
                glued_numbers,
                crlf,
                seps,
                decorations,
            },
        )
}

const COMMENTS: [&str; 5] = [
    "{a comment}",
    "{ (not a variation) and 1. d4 is not a move }",
    "{spans\n[two lines] }",
    "{[%clk 0:03:00]}",
    "{}",
];

fn sep(style: &Style, i: usize) -> &'static str {
    match style.seps.get(i).copied().unwrap_or(0) % 6 {
        0..=2 => " ",
        3 => "\n",
        4 => "  \t",
        _ => " \n ",
    }
}

/// Writes the game `moves` (played from the start) in `style`; returns the
/// PGN, the UCI list and the final FEN.
fn write_game(choices: &[u16], style: &Style) -> (String, Vec<String>, String) {
    let mut pos = Position::startpos();
    let mut out = String::new();
    let mut uci = Vec::new();
    if style.tags {
        out.push_str("[Event \"prop\"]\n[Site \"?\"]\n[Result \"*\"]\n\n");
    }
    // True when the next Black move needs `N...` (after a comment or a
    // variation interrupted the move pair).
    let mut need_black_number = false;
    for (i, &c) in choices.iter().enumerate() {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[c as usize % moves.len()];
        let white = i % 2 == 0;
        let number = i / 2 + 1;
        if style.numbers && (white || need_black_number) {
            out.push_str(&number.to_string());
            out.push_str(if white { "." } else { "..." });
            if !style.glued_numbers {
                out.push_str(sep(style, 2 * i));
            }
        }
        need_black_number = false;
        out.push_str(&pos.san(m));
        let d = style.decorations.get(i).copied().unwrap_or(0);
        match d % 16 {
            0 => out.push('!'),
            1 => out.push_str("?!"),
            2 => {
                out.push_str(sep(style, 2 * i + 1));
                out.push_str("$1");
            }
            3 => {
                out.push_str(sep(style, 2 * i + 1));
                out.push_str(COMMENTS[(d as usize / 16) % COMMENTS.len()]);
                need_black_number = true;
            }
            4 => {
                // A variation: another legal move from the same position.
                let alt = moves.as_slice()[(c as usize + 1) % moves.len()];
                out.push_str(sep(style, 2 * i + 1));
                out.push('(');
                if style.numbers {
                    out.push_str(&format!("{number}{} ", if white { "." } else { "..." }));
                }
                out.push_str(&pos.san(alt));
                if d & 0x20 != 0 {
                    // Nested, and a comment inside.
                    let mut inner = pos;
                    inner.play(alt);
                    if let Some(&reply) = inner.legal_moves().as_slice().first() {
                        out.push_str(&format!(" {{inner}} ( {} )", inner.san(reply)));
                    }
                }
                out.push(')');
                need_black_number = true;
            }
            5 => {
                out.push_str(" ; a rest-of-line comment\n");
                need_black_number = true;
            }
            _ => {}
        }
        out.push_str(sep(style, 2 * i + 1));
        uci.push(pos.uci(m));
        pos.play(m);
    }
    out.push_str("*\n");
    if style.crlf {
        out = out.replace('\n', "\r\n");
    }
    (out, uci, pos.fen(EpMode::Always))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn written_games_read_back_the_same(
        choices in proptest::collection::vec(any::<u16>(), 0..160),
        style in style(),
    ) {
        let (pgn, uci, fen) = write_game(&choices, &style);
        let spans = split_all(pgn.as_bytes(), false);
        prop_assert_eq!(spans.len(), 1, "one game expected in {:?}", pgn);
        let text = spans[0].slice(pgn.as_bytes(), 0).unwrap();
        let options = ReplayOptions { moves: true, ..ReplayOptions::default() };
        let r = replay_game(text, spans[0].line, &options);
        prop_assert_eq!(r.status.as_str(), "ok", "{} in {:?}", r.error, pgn);
        prop_assert_eq!(r.plies as usize, uci.len());
        prop_assert_eq!(r.moves.unwrap_or_default(), uci.join(" "), "in {:?}", pgn);
        prop_assert_eq!(r.final_fen, fen);
    }

    /// Several such games in one file: as many spans, each read back.
    #[test]
    fn files_of_written_games_split_into_them(
        games in proptest::collection::vec(
            (proptest::collection::vec(any::<u16>(), 0..40), style()), 1..6),
    ) {
        let mut file = String::new();
        let mut want = Vec::new();
        for (choices, st) in &games {
            let mut st = st.clone();
            st.tags = true; // tagless games after a `*` line start new games too, but keep it clear
            let (pgn, uci, _) = write_game(choices, &st);
            file.push_str(&pgn);
            file.push_str(if st.crlf { "\r\n" } else { "\n" });
            want.push(uci.join(" "));
        }
        let spans = split_all(file.as_bytes(), false);
        prop_assert_eq!(spans.len(), want.len(), "in {:?}", file);
        for (span, w) in spans.iter().zip(&want) {
            let text = span.slice(file.as_bytes(), 0).unwrap();
            let r = replay_game(text, span.line, &ReplayOptions { moves: true, ..ReplayOptions::default() });
            prop_assert_eq!(r.moves.unwrap_or_default(), w.clone());
        }
    }
}
