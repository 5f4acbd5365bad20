//! `opening_conflict`: the recorded `[ECO]` and `[Opening]` tags against
//! the opening the moves give.

use super::hit::OpeningHit;

/// What the recorded tags say that the moves do not, or `None`. A tag
/// counts when present with a value other than empty or `?`.
///
/// - `[ECO]` differs when it is not the hit's code, ignoring ASCII case
///   and surrounding ASCII spaces: `ECO C02 but the moves give B12`.
/// - `[Opening]` differs when it is not the hit's name exactly (surrounding
///   spaces aside; names of other namings, `Sicilian` for lichess's
///   `Sicilian Defense`, differ): `Opening "French Defense" but the moves
///   give "Caro-Kann Defense"`.
///
/// Both are joined with `; `, ECO first.
pub fn conflict(
    hit: &OpeningHit,
    eco_tag: Option<&str>,
    opening_tag: Option<&str>,
) -> Option<String> {
    fn recorded(tag: Option<&str>) -> Option<&str> {
        tag.map(str::trim_ascii)
            .filter(|t| !t.is_empty() && *t != "?")
    }
    let eco = recorded(eco_tag).filter(|eco| !eco.eq_ignore_ascii_case(hit.eco()));
    let name = recorded(opening_tag).filter(|name| *name != hit.name());
    if eco.is_none() && name.is_none() {
        // Most named games: nothing allocated.
        return None;
    }
    // Built by appending: many games of a collection whose ECO codes come
    // from another classification (ChessBase's, say) have one.
    let mut text = String::with_capacity(160);
    if let Some(eco) = eco {
        for part in ["ECO ", eco, " but the moves give ", hit.eco()] {
            text.push_str(part);
        }
    }
    if let Some(name) = name {
        if !text.is_empty() {
            text.push_str("; ");
        }
        for part in [
            "Opening \"",
            name,
            "\" but the moves give \"",
            hit.name(),
            "\"",
        ] {
            text.push_str(part);
        }
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::{OpeningBook, OpeningTrail, Table, TableKind};
    use std::sync::Arc;

    fn hit() -> OpeningHit {
        let book = Table::User(Arc::new(
            OpeningBook::from_tables(&[(
                "t",
                "B12\tCaro-Kann Defense: Advance Variation\t1. e4 c6 2. d4 d5 3. e5\n",
            )])
            .unwrap(),
        ));
        let mut trail = OpeningTrail::new(book.book(), TableKind::Chess, true);
        let mut pos = crate::chess::Position::startpos();
        for (ply, m) in ["e4", "c6", "d4", "d5", "e5"].iter().enumerate() {
            pos.play_san(m.as_bytes()).unwrap();
            trail.push(ply as u32, pos.key_without_ep());
        }
        trail.classify(&book, TableKind::Chess, 5).unwrap()
    }

    #[test]
    fn recorded_tags_that_differ_are_named() {
        let hit = hit();
        assert_eq!(hit.ply, 5);
        assert_eq!(
            conflict(&hit, Some("C02"), None).as_deref(),
            Some("ECO C02 but the moves give B12")
        );
        assert_eq!(
            conflict(&hit, Some("C02"), Some("French Defense: Advance Variation")).as_deref(),
            Some(
                "ECO C02 but the moves give B12; Opening \"French Defense: Advance Variation\" \
                 but the moves give \"Caro-Kann Defense: Advance Variation\""
            )
        );
    }

    #[test]
    fn agreeing_absent_or_unknown_tags_are_no_conflict() {
        let hit = hit();
        assert_eq!(conflict(&hit, None, None), None);
        assert_eq!(conflict(&hit, Some("?"), Some("?")), None);
        assert_eq!(conflict(&hit, Some(""), Some(" ")), None);
        assert_eq!(
            conflict(
                &hit,
                Some(" b12 "),
                Some("Caro-Kann Defense: Advance Variation")
            ),
            None
        );
        // A name of another naming is a conflict, ECO agreeing.
        assert_eq!(
            conflict(&hit, Some("B12"), Some("Caro-Kann")).as_deref(),
            Some(
                "Opening \"Caro-Kann\" but the moves give \"Caro-Kann Defense: Advance Variation\""
            )
        );
    }
}
