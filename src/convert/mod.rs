//! Rewriting xiangqi games in another move notation (`pgnmill convert`).
//!
//! One game in (its text, already decoded to UTF-8), one game out: the tags
//! as written with `[Format]` set to the target notation, and the movetext
//! with every main-line move replaced by the same move in the target
//! notation. Every move is checked by the rules kernel: it is read against
//! the position (so it must name exactly one legal move), written in the
//! target notation, and the written text is read back and must name the same
//! move. Everything that is not a main-line move — move numbers, comments,
//! NAGs, variations, the result, line breaks — is copied byte for byte, by
//! splicing the new moves in at the tokens' offsets.
//!
//! Nothing here knows about files or threads; the `convert` command feeds it.

mod movetext;
mod tags;

pub use movetext::rewrite_movetext;
pub use tags::set_format_tag;

use crate::pgn::GameText;
use crate::pgn::headers::{GameHeaders, text};
use crate::variant::{GameVariant, detect};
use crate::xiangqi::notation::Notation;

/// What happened to one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Every main-line move was converted.
    Converted { plies: u32 },
    /// Converted up to a move that could not be read (or a `[FEN]` that
    /// could not be used); the rest of the movetext is kept in a comment.
    Stopped(Failure),
    /// Not a xiangqi game: the text is passed through unchanged.
    NotXiangqi { variant: String },
}

/// Where and why a game's conversion stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// 1-based ply of the move that failed (0 for a bad `[FEN]`).
    pub ply: u32,
    /// 1-based source line of the move (or of the game for a bad `[FEN]`).
    pub line: u64,
    /// The move as written (empty for a bad `[FEN]`).
    pub text: String,
    /// Why, in words.
    pub reason: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.ply == 0 {
            write!(f, "line {}: {}", self.line, self.reason)
        } else {
            write!(
                f,
                "ply {} (line {}) \"{}\": {}",
                self.ply, self.line, self.text, self.reason
            )
        }
    }
}

/// One converted game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertedGame {
    pub text: String,
    pub outcome: Outcome,
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
        };
    }
    let mut out = String::with_capacity(game_text.len() + 32);
    set_format_tag(&game, to.format_tag(), &mut out);
    let outcome = rewrite_movetext(&game, fen.as_deref(), to, &mut out);
    ConvertedGame { text: out, outcome }
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
            "[Game \"Chinese Chess\"]\n[Result \"*\"]\n[Format \"ICCS\"]\n\n1. h2e2 {中炮} h9g7 $1 (1... 炮8平5) 2.h0g2 *\n"
        );
    }

    #[test]
    fn an_illegal_move_stops_the_game_and_keeps_the_rest_in_a_comment() {
        let pgn = "[Format \"Chinese\"]\n1. 炮二平五 将5进2 {x} 2. 马二进三 1-0\n";
        let got = convert_game(pgn, 1, Notation::Iccs);
        let Outcome::Stopped(f) = &got.outcome else {
            panic!("{:?}", got.outcome)
        };
        assert_eq!((f.ply, f.line, f.text.as_str()), (2, 2, "将5进2"));
        assert!(got.text.starts_with("[Format \"ICCS\"]\n1. h2e2 {pgnmill:"));
        assert!(
            got.text.contains("将5进2 ｛x｝ 2. 马二进三"),
            "{}",
            got.text
        );
        assert!(got.text.ends_with("} 1-0\n"), "{}", got.text);
    }

    #[test]
    fn chess_games_pass_through() {
        let pgn = "[White \"a\"]\n1. e4 e5 *\n";
        let got = convert_game(pgn, 1, Notation::Wxf);
        assert_eq!(got.text, pgn);
        assert!(matches!(got.outcome, Outcome::NotXiangqi { .. }));
    }
}
