//! Rewriting xiangqi games in another move notation (`pgnmill convert`).
//!
//! One game in (its text, already decoded to UTF-8), one game out: the tags
//! as written with `[Format]` set to the target notation, and the movetext
//! with every move, of the main line and of every variation, replaced by
//! the same move in the target notation: a file that says `[Format "ICCS"]`
//! holds ICCS throughout. Every move is checked by the rules kernel: it is
//! read against the position (so it must name exactly one legal move),
//! written in the target notation, and the written text is read back and
//! must name the same move. Everything that is not a move — move numbers,
//! comments, NAGs, parentheses, the result, line breaks — is copied byte
//! for byte, by splicing the new moves in at the tokens' offsets.
//!
//! A line that meets a move it cannot convert stops there: the move and
//! the rest of the line stay as written, after a comment that says why,
//! and a main line that stopped sets `[PgnmillError]` to the same reason,
//! so the converted game is as broken as the original, where and why, to
//! any reader.
//!
//! Nothing here knows about files or threads; the `convert` command feeds it.

mod movetext;
mod outcome;
mod tags;
mod variations;

pub use movetext::{MovetextOutcome, rewrite_movetext};
pub use outcome::{Failure, Outcome};
pub use tags::{TagValue, set_tags};
pub use variations::{Variation, find_variations};

use crate::pgn::GameText;
use crate::pgn::headers::{GameHeaders, text};
use crate::variant::{GameVariant, detect};
use crate::xiangqi::notation::Notation;

/// The tag that says why a converted game's main line stopped.
pub const ERROR_TAG: &str = "PgnmillError";

/// One converted game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertedGame {
    pub text: String,
    pub outcome: Outcome,
    /// The variations that stopped at a move that could not be converted.
    pub variation_stops: Vec<Failure>,
}

/// Converts one game, given as UTF-8 text starting on source line `line`.
///
/// The variant is decided as `pgnmill report --variant auto` decides it (tags,
/// `[FEN]` shape, look of the first move); a game that is not xiangqi comes
/// back unchanged with [`Outcome::NotXiangqi`].
pub fn convert_game(game_text: &str, line: u64, to: Notation) -> ConvertedGame {
    let game = GameText::new(game_text.as_bytes(), line);
    let headers = GameHeaders::read(&game);
    let fen = headers
        .fen
        .is_some()
        .then(|| text(&headers.fen).trim().to_string());
    let variant = detect(&headers, fen.as_deref(), &game);
    if variant != GameVariant::Xiangqi {
        return ConvertedGame {
            text: game_text.to_string(),
            outcome: Outcome::NotXiangqi {
                variant: variant.name().to_string(),
            },
            variation_stops: Vec::new(),
        };
    }
    let mut moves = String::with_capacity(game_text.len() + 32);
    let done = rewrite_movetext(&game, fen.as_deref(), to, &mut moves);
    let error = match &done.main {
        Outcome::Stopped(f) => Some(f.in_text()),
        _ => None,
    };
    let mut out = String::with_capacity(moves.len() + 128);
    let tags = [
        ("Format", Some(to.format_tag())),
        (ERROR_TAG, error.as_deref()),
    ];
    set_tags(&game, &tags, &mut out);
    out.push_str(&moves);
    ConvertedGame {
        text: out,
        outcome: done.main,
        variation_stops: done.variation_stops,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_chinese_to_iccs_and_keeps_everything_else() {
        let pgn = "[Game \"Chinese Chess\"]\n[Result \"*\"]\n\n1. 炮二平五 {中炮} 马８进７ $1 (1... 炮8平5) 2.马二进三 *\n";
        let got = convert_game(pgn, 1, Notation::Iccs);
        assert_eq!(got.outcome, Outcome::Converted { plies: 3 });
        assert_eq!(
            got.text,
            "[Game \"Chinese Chess\"]\n[Result \"*\"]\n[Format \"ICCS\"]\n\n1. h2e2 {中炮} h9g7 $1 (1... h7e7) 2.h0g2 *\n"
        );
    }

    #[test]
    fn an_illegal_move_stops_the_game_and_stays_as_written() {
        let pgn = "[Format \"Chinese\"]\n1. 炮二平五 将5进2 {x} 2. 马二进三 1-0\n";
        let got = convert_game(pgn, 1, Notation::Iccs);
        let Outcome::Stopped(f) = &got.outcome else {
            panic!("{:?}", got.outcome)
        };
        assert_eq!((f.ply, f.line, f.text.as_str()), (2, 2, "将5进2"));
        let error = f.in_text().replace('"', "\\\"");
        assert_eq!(
            got.text,
            format!(
                "[Format \"ICCS\"]\n[PgnmillError \"{error}\"]\n1. h2e2 {{pgnmill: not converted from here, {}}} 将5进2 {{x}} 2. 马二进三 1-0\n",
                f.in_text()
            )
        );
        // Converting the result again changes nothing.
        let again = convert_game(&got.text, 1, Notation::Iccs);
        assert_eq!(again.text, got.text);
    }

    #[test]
    fn variations_are_converted_from_the_position_they_branch_from() {
        // 1... 炮8平5 is an alternative to black's first move; its own
        // alternative (2. 马八进七) to red's second; 2... 车9平8 stops.
        let pgn = "1. 炮二平五 马8进7 (1... 炮8平5 2. 马二进三 (2. 马八进七) 车9进1) 2. 马二进三 (2. 车一进一 车9平7) *\n";
        let got = convert_game(pgn, 1, Notation::Iccs);
        assert_eq!(got.outcome, Outcome::Converted { plies: 3 });
        let stops: Vec<(u32, &str)> = got
            .variation_stops
            .iter()
            .map(|f| (f.ply, f.text.as_str()))
            .collect();
        assert_eq!(stops, [(4, "车9平7")]);
        assert_eq!(
            got.text,
            format!(
                "[Format \"ICCS\"]\n1. h2e2 h9g7 (1... h7e7 2. h0g2 (2. b0c2) i9i8) 2. h0g2 (2. i0i1 {{pgnmill: not converted from here, {}}} 车9平7) *\n",
                got.variation_stops[0].in_text()
            )
        );
    }

    #[test]
    fn chess_games_pass_through() {
        let pgn = "[White \"a\"]\n1. e4 e5 *\n";
        let got = convert_game(pgn, 1, Notation::Wxf);
        assert_eq!(got.text, pgn);
        assert!(matches!(got.outcome, Outcome::NotXiangqi { .. }));
    }
}
