//! `opening_conflict`: the recorded `[ECO]` and `[Opening]` tags against
//! the opening the moves give.

use super::hit::OpeningHit;

/// What the recorded tags say that the moves do not, or `None`. A tag
/// counts when present with a value other than empty or `?`.
///
/// - `[ECO]` differs when it is not the hit's code, ignoring ASCII case
///   and surrounding spaces: `ECO C02 but the moves give B12`.
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
        tag.map(str::trim).filter(|t| !t.is_empty() && *t != "?")
    }
    let mut parts = Vec::new();
    if let Some(eco) = recorded(eco_tag)
        && !eco.eq_ignore_ascii_case(hit.eco())
    {
        parts.push(format!("ECO {eco} but the moves give {}", hit.eco()));
    }
    if let Some(name) = recorded(opening_tag)
        && name != hit.name()
    {
        parts.push(format!(
            "Opening \"{name}\" but the moves give \"{}\"",
            hit.name()
        ));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::{OpeningBook, OpeningTrail, TableKind};
    use std::sync::Arc;

    fn hit() -> OpeningHit {
        let book = Arc::new(
            OpeningBook::from_tables(&[(
                "t",
                "B12\tCaro-Kann Defense: Advance Variation\t1. e4 c6 2. d4 d5 3. e5\n",
            )])
            .unwrap(),
        );
        let mut trail = OpeningTrail::new(&book, TableKind::Chess, true);
        let mut pos = crate::chess::Position::startpos();
        for m in ["e4", "c6", "d4", "d5", "e5"] {
            pos.play_san(m.as_bytes()).unwrap();
            trail.push(pos.key_without_ep());
        }
        trail.classify(&book, TableKind::Chess).unwrap()
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
