//! Deciding a game's variant when `--variant auto`: tags first, then the
//! shape of the `[FEN]`, then the look of the first move (of the first few,
//! when the first is two squares of the chess board). Files without any
//! marker exist for both chess960 (only a Shredder-FEN castling field says
//! so) and xiangqi (only the Chinese, WXF or ICCS movetext says so).

use super::GameVariant;
use crate::pgn::headers::{self, GameHeaders};
use crate::pgn::{GameText, TokenKind};
use crate::xiangqi::notation::looks_like_winboard_san;

/// The variant of a game, from everything it says about itself.
pub fn detect(headers: &GameHeaders<'_>, fen: Option<&str>, game: &GameText<'_>) -> GameVariant {
    let tag = headers::text;
    if headers.variant.is_some()
        && let Some(v) = GameVariant::from_variant_tag(&tag(&headers.variant))
    {
        return v;
    }
    if headers.game.is_some()
        && let Some(v) = GameVariant::from_game_tag(&tag(&headers.game))
    {
        return v;
    }
    if headers.format.is_some() {
        let format = tag(&headers.format).to_ascii_lowercase();
        if ["iccs", "wxf", "chinese"].contains(&format.trim()) {
            return GameVariant::Xiangqi;
        }
    }
    // xqbase PGN names the first player `Red`; chess files never do.
    if headers.red.is_some() && headers.white.is_none() {
        return GameVariant::Xiangqi;
    }
    if let Some(fen) = fen {
        let placement = fen.split_whitespace().next().unwrap_or("");
        if placement.matches('/').count() == 9 {
            return GameVariant::Xiangqi;
        }
        if let Some(castling) = fen.split_whitespace().nth(2)
            && is_shredder(castling)
        {
            return GameVariant::Chess960;
        }
    }
    let mut moves = game.movetext().filter(|t| t.kind == TokenKind::Move);
    match moves.next() {
        Some(first) if looks_like_xiangqi(first.text) => GameVariant::Xiangqi,
        // `h2e2`, the usual first move of an ICCS game, is also chess long
        // algebraic: a later move tells (`h0g2`, `b9c7`: the knights leave
        // ranks 0 and 9 within the first few moves). Only such games look
        // further, so a SAN game pays nothing.
        Some(first) if is_on_chess_squares(first.text) => {
            if moves
                .take(COORDINATE_LOOK_AHEAD)
                .any(|t| looks_like_xiangqi(t.text))
            {
                GameVariant::Xiangqi
            } else {
                GameVariant::Chess
            }
        }
        _ => GameVariant::Chess,
    }
}

/// Moves after a coordinate first move looked at for one that leaves the
/// chess board. In the 2,516 wukong ICCS master games of testdata such a
/// move (rank 0 or 9, or file i) comes by the sixth ply in all games but
/// one, where it is the eleventh.
const COORDINATE_LOOK_AHEAD: usize = 15;

/// A move written as two squares of the chess board (`h2e2`, `e2-e4`):
/// chess long algebraic, or ICCS on its files a to h and ranks 1 to 8.
fn is_on_chess_squares(token: &[u8]) -> bool {
    let square =
        |f: &u8, r: &u8| matches!(f.to_ascii_lowercase(), b'a'..=b'h') && matches!(r, b'1'..=b'8');
    match token {
        [f1, r1, b'-', f2, r2] | [f1, r1, f2, r2] => square(f1, r1) && square(f2, r2),
        _ => false,
    }
}

/// A castling field with file letters (`HAha`) rather than `KQkq`.
fn is_shredder(castling: &str) -> bool {
    castling.chars().any(|c| matches!(c, 'A'..='H' | 'a'..='h'))
}

/// Chinese characters, WXF (`C2.5`, `H8+7`, `R+.3`), ICCS that leaves
/// the chess board (`h0g2`, `i9h9`: rank 0 or 9, or file i), or SAN with a
/// xiangqi piece letter (`Che2`, `Hg2`, `Ege7`, `Ade1`): forms no chess move
/// takes. (ICCS such as `h2e2` is also chess long algebraic; such a game
/// is told apart by its tags or by a later move, [`detect`].)
fn looks_like_xiangqi(token: &[u8]) -> bool {
    if !token.is_ascii() {
        return true;
    }
    if let [f1, r1, rest @ ..] = token {
        let to = match rest {
            [b'-', f2, r2] | [f2, r2] => Some((f2, r2)),
            _ => None,
        };
        if let Some((f2, r2)) = to {
            let file = |f: &u8| matches!(f.to_ascii_lowercase(), b'a'..=b'i');
            let squares = file(f1) && file(f2) && r1.is_ascii_digit() && r2.is_ascii_digit();
            let off_chess_board = [f1, f2].iter().any(|f| f.eq_ignore_ascii_case(&b'i'))
                || [r1, r2].iter().any(|r| matches!(r, b'0' | b'9'));
            if squares && off_chess_board {
                return true;
            }
        }
    }
    if let [b'A' | b'C' | b'E' | b'H', ..] = token
        && token.len() <= 8
        && std::str::from_utf8(token).is_ok_and(looks_like_winboard_san)
    {
        return true;
    }
    match token {
        [piece, origin, op, to, ..] => {
            b"KAEBHNRCPkaebhnrcp".contains(piece)
                && (origin.is_ascii_digit() || *origin == b'+' || *origin == b'-')
                && matches!(op, b'.' | b'=' | b'+' | b'-')
                && to.is_ascii_digit()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wxf_and_chinese_moves_are_recognised() {
        for t in [
            "C2.5",
            "H8+7",
            "R+.3",
            "炮二平五",
            "c2=5",
            "h0g2",
            "i9h9",
            "H2-E0",
            "Che2",
            "Hg2",
            "Ege7",
            "Ade1",
            "Cxe6+",
        ] {
            assert!(looks_like_xiangqi(t.as_bytes()), "{t}");
        }
        for t in [
            "e4", "Nf3", "O-O", "e2e4", "Rd1+", "exd5", "Qh4#", "R1a3", "Bb5", "Ch",
        ] {
            assert!(!looks_like_xiangqi(t.as_bytes()), "{t}");
        }
    }

    #[test]
    fn shredder_fields_mean_chess960() {
        assert!(is_shredder("HAha"));
        assert!(is_shredder("FCfc"));
        assert!(!is_shredder("KQkq"));
        assert!(!is_shredder("-"));
    }
}
