//! The annotation glyphs that stand alone between moves in real files: the
//! textual forms of the NAGs (`+/=`, `∞`, `N`, `□` ...), as ChessBase,
//! Fritz, SCID and printed books write them. The list is the one of
//! docs/pgn-dialect.md §4; a token on it is an annotation, skipped by every
//! reader of moves. A token that is neither a move nor on this list stops
//! the replay (that decision is the replay's, not this module's).

/// Whether a whole token is a known annotation glyph. Tokens made only of
/// `!` and `?` are suffix annotations and are told apart by the tokenizer
/// before this is asked.
#[inline]
pub fn is_annotation_glyph(tok: &[u8]) -> bool {
    // Cheap rejection first: moves like `e4`, `Nf3`, `exd5` are most tokens.
    let quick = match tok {
        [] => false,
        [b'N'] => return true,
        [b'e', b'.' | b'p', ..] => true,
        [
            b'e' | b'N' | b'a'..=b'd' | b'f'..=b'h' | b'B' | b'K' | b'Q' | b'O',
            ..,
        ] => false,
        _ => tok.len() <= 7,
    };
    quick
        && matches!(
            tok,
            // Evaluations, ASCII forms.
            b"+-"
            | b"-+"
            | b"+/-"
            | b"-/+"
            | b"+/="
            | b"=/+"
            | b"="
            | b"+="
            | b"=+"
            | b"inf"
            | b"=/inf"
            | b"inf/="
            // Novelty, editorial comment, en passant.
            | b"N"
            | b"TN"
            | b"RR"
            | b"e.p."
            | b"ep"
            // Evaluations, Unicode forms.
            | b"\xE2\x88\x9E" // ∞
            | b"=/\xE2\x88\x9E" // =/∞
            | b"\xE2\x88\x9E/=" // ∞/=
            | b"\xC2\xB1" // ±
            | b"\xE2\x88\x93" // ∓
            | b"\xE2\xA9\xB2" // ⩲
            | b"\xE2\xA9\xB1" // ⩱
            | b"+\xE2\x88\x92" // +−: with U+2212 MINUS SIGN
            | b"\xE2\x88\x92+" // −+
            // Move and position symbols (ChessBase's NAG fonts).
            | b"\xE2\x96\xA1" // □: only move
            | b"\xCE\x94" // Δ: with the idea (Greek capital delta)
            | b"\xE2\x88\x86" // ∆: the same, U+2206 INCREMENT
            | b"\xE2\x87\x86" // ⇆: counterplay
            | b"\xE2\x86\x92" // →: attack
            | b"\xE2\x86\x91" // ↑: initiative
            | b"\xE2\x9F\xB3" // ⟳: development
            | b"\xE2\x86\xBB" // ↻
            | b"\xE2\xA8\x80" // ⨀: zugzwang
            | b"\xE2\x8A\x99" // ⊙
            | b"\xE2\x97\x8B" // ○: space
            | b"\xE2\x8A\x95" // ⊕: time trouble
            | b"\xE2\x8C\x93" // ⌓: weak point
            | b"\xE2\x88\x87" // ∇: directed against
        )
}

#[cfg(test)]
mod tests {
    use super::is_annotation_glyph;

    #[test]
    fn glyphs_and_moves_are_told_apart() {
        for g in [
            "+/=", "=/+", "+/-", "-/+", "+-", "-+", "=", "∞", "=/∞", "N", "TN", "RR", "□", "Δ",
            "⇆", "e.p.", "±",
        ] {
            assert!(is_annotation_glyph(g.as_bytes()), "{g}");
        }
        for m in [
            "e4",
            "Nf3",
            "O-O",
            "foo",
            "Nf9",
            "E5",
            "P-K4",
            "炮二平五",
            "NN",
            "==",
            "",
        ] {
            assert!(!is_annotation_glyph(m.as_bytes()), "{m}");
        }
    }
}
