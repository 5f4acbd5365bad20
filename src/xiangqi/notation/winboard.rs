//! XBoard/WinBoard's xiangqi SAN (`Che2`, `Hxc7`): a notation this crate
//! does not read yet, recognised so that such games are reported as
//! `unsupported` with a hint, not as illegal moves.

/// Appended to the error of a game whose first move is WinBoard SAN.
pub const WINBOARD_SAN_HINT: &str = " (WinBoard/XBoard xiangqi SAN such as Che2 or Hxc7 is not read; save the game in ICCS, WXF or Chinese notation)";

/// True for a move written in WinBoard/XBoard's xiangqi SAN (`Che2`, `Hc7`,
/// `Cxe6`, `Ege7`, `Rxi5`, `gf3`): an optional piece letter, an optional
/// origin file and/or rank, an optional `x`, a destination square a0..i9 and
/// an optional `+`/`#`. Only asked about a text that no notation this crate
/// reads accepted (plain ICCS `h2e2` has this shape too, but is read first),
/// so that such games get status `unsupported` rather than `illegal_move`.
pub fn looks_like_winboard_san(text: &str) -> bool {
    let b = text.trim_end_matches(['+', '#']).as_bytes();
    let file = |c: &u8| (b'a'..=b'i').contains(c);
    let rest = match b {
        [p, rest @ ..] if b"KAEHRCPNB".contains(p) => rest,
        rest => rest,
    };
    let [head @ .., f, r] = rest else {
        return false;
    };
    if !file(f) || !r.is_ascii_digit() {
        return false;
    }
    let head = head.strip_suffix(b"x").unwrap_or(head);
    match head {
        [] => true,
        [c] => file(c) || c.is_ascii_digit(),
        [c, d] => file(c) && d.is_ascii_digit(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::looks_like_winboard_san;

    #[test]
    fn winboard_san_is_told_apart() {
        // From wukong-xiangqi's WinBoard games (testdata/xiangqi/corpus).
        for t in [
            "Che2", "Hc7", "Cxe6", "Ege7", "Rxi5", "ixi5", "gf3", "Ci4+", "Rh0", "g5",
        ] {
            assert!(looks_like_winboard_san(t), "{t}");
        }
        for t in [
            "炮二平五",
            "C2.5",
            "H8+7",
            "Ｃ２＝５",
            "e4x",
            "Qh4",
            "--",
            "1-0",
        ] {
            assert!(!looks_like_winboard_san(t), "{t}");
        }
    }
}
