//! Deciding a game's variant when `--variant auto`: tags first, then the
//! shape of the `[FEN]`, then the look of the first move. Files without any
//! marker exist for both chess960 (only a Shredder-FEN castling field says
//! so) and xiangqi (only the Chinese or WXF movetext says so).

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
    let first_move = game.movetext().find(|t| t.kind == TokenKind::Move);
    if first_move.is_some_and(|t| looks_like_xiangqi(t.text)) {
        return GameVariant::Xiangqi;
    }
    GameVariant::Chess
}

/// A castling field with file letters (`HAha`) rather than `KQkq`.
fn is_shredder(castling: &str) -> bool {
    castling.chars().any(|c| matches!(c, 'A'..='H' | 'a'..='h'))
}

/// Chinese characters, WXF (`C2.5`, `H8+7`, `R+.3`), ICCS that leaves
/// the chess board (`h0g2`, `i9h9`: rank 0 or 9, or file i), or SAN with a
/// xiangqi piece letter (`Che2`, `Hg2`, `Ege7`, `Ade1`): forms no chess move
/// takes. (ICCS such as `h2e2` is also chess long algebraic; such files
/// are told apart by their `[Red]`, `[Game]`, `[Variant]` or `[Format]` tag.)
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
