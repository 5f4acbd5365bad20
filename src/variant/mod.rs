//! Which rules a game is played by, from its tags.
//!
//! Real files spell Chess960 many ways (`Chess960`, `chess 960`, `chess-960`,
//! `Fischerandom`, `FRC` ...) and mark xiangqi by `[Game "Chinese Chess"]` or
//! `[Variant "xiangqi"]`; some mark nothing, and their start position or
//! movetext has to tell.

mod detect;

pub use detect::detect;

/// The rules a game is replayed with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameVariant {
    Chess,
    Chess960,
    Xiangqi,
    /// A variant this tool does not replay, with the tag value as written.
    Unsupported(String),
}

impl GameVariant {
    /// The word written in the report's `variant` column: the name of a
    /// supported variant, empty for the others (their tag's text is
    /// [`GameVariant::name`], which the row's `error` quotes), so that the
    /// column and summary.json's `variants` hold only the three names
    /// docs/reports.md lists.
    pub fn static_name(&self) -> &'static str {
        match self {
            GameVariant::Chess => "chess",
            GameVariant::Chess960 => "chess960",
            GameVariant::Xiangqi => "xiangqi",
            GameVariant::Unsupported(_) => "",
        }
    }

    /// The variant's name, an unsupported one as its tag wrote it.
    pub fn name(&self) -> &str {
        match self {
            GameVariant::Chess => "chess",
            GameVariant::Chess960 => "chess960",
            GameVariant::Xiangqi => "xiangqi",
            GameVariant::Unsupported(name) => name,
        }
    }

    /// Reads a `[Variant]` tag value; `None` for an absent or empty tag.
    pub fn from_variant_tag(value: &str) -> Option<GameVariant> {
        let key: String = value
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_' | '\t'))
            .flat_map(char::to_lowercase)
            .collect();
        Some(match key.as_str() {
            "" => return None,
            "standard" | "chess" | "regular" | "normal" | "fromposition" | "orthodox"
            | "classical" => GameVariant::Chess,
            "chess960"
            | "960"
            | "fischerandom"
            | "fischerrandom"
            | "frc"
            | "fischerrandomchess"
            | "chess960fischerandom" => GameVariant::Chess960,
            "xiangqi" | "chinesechess" | "cchess" => GameVariant::Xiangqi,
            _ => GameVariant::Unsupported(value.trim().to_string()),
        })
    }

    /// Reads a `[Game]` tag value (xiangqi files write `Chinese Chess`);
    /// `None` when it says nothing about the rules.
    pub fn from_game_tag(value: &str) -> Option<GameVariant> {
        match GameVariant::from_variant_tag(value)? {
            GameVariant::Xiangqi => Some(GameVariant::Xiangqi),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spellings seen in the corpora (kokopu/chess960.pgn, chess960rwch.pgn,
    /// lichess exports, xqbase PGN headers).
    #[test]
    fn spellings_found_in_real_files() {
        for s in ["Chess960", "chess 960", "chess-960", "Fischerandom", "FRC"] {
            assert_eq!(
                GameVariant::from_variant_tag(s),
                Some(GameVariant::Chess960),
                "{s}"
            );
        }
        for s in ["Standard", "From Position", "Regular"] {
            assert_eq!(
                GameVariant::from_variant_tag(s),
                Some(GameVariant::Chess),
                "{s}"
            );
        }
        assert_eq!(
            GameVariant::from_game_tag("Chinese Chess"),
            Some(GameVariant::Xiangqi)
        );
        assert_eq!(GameVariant::from_game_tag("Chess"), None);
        assert_eq!(
            GameVariant::from_variant_tag("Anti-chess"),
            Some(GameVariant::Unsupported("Anti-chess".into()))
        );
        assert_eq!(GameVariant::from_variant_tag("  "), None);
    }
}
