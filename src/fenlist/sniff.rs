//! Inputs that are not FEN/EPD lists at all, told from their first record
//! line: a PGN file given to `pgnmill fen` would otherwise give one
//! `bad_fen` row per tag and movetext line, and hide the mistake.

/// True when `line` (the first line of a file that is neither blank nor a
/// `#` comment) starts the way PGN does: a tag pair (`[Event "x"]`, `[Red
/// "y"]`: a name, space, a quote), or movetext from move 1 (`1. e4`,
/// `1.e4 e5`) with no `/` in its first word, which every FEN board has.
pub fn looks_like_pgn(line: &str) -> bool {
    let line = line.trim_start_matches('\u{feff}').trim_start();
    if let Some(rest) = line.strip_prefix('[') {
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let after = &rest[name_len..];
        return name_len > 0
            && after.trim_start().starts_with('"')
            && after.starts_with(char::is_whitespace);
    }
    let first_word = line.split_whitespace().next().unwrap_or("");
    first_word.starts_with("1.") && !first_word.contains('/')
}

#[cfg(test)]
mod tests {
    use super::looks_like_pgn;

    #[test]
    fn tags_and_first_moves_are_pgn() {
        for line in [
            "[Event \"Rated Blitz game\"]",
            "\u{feff}[Event \"x\"]",
            "  [Red \"Hu Ronghua\"]",
            "[White  \"\"]",
            "1. e4 e5 2. Nf3",
            "1.e4 e5",
            "1... e5",
        ] {
            assert!(looks_like_pgn(line), "{line}");
        }
    }

    #[test]
    fn records_of_every_list_shape_are_not() {
        for line in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - bm O-O; id \"castle\";",
            "1k6/8/8/8/8/8/8/6K1 w - -",
            "id pos-2",
            "epd r3k2r/8/8/8/8/8/8/R3K2R w KQkq -",
            "perft 1 26",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "[not a tag]",
            "[Event]",
            "11/8 w",
        ] {
            assert!(!looks_like_pgn(line), "{line}");
        }
    }
}
