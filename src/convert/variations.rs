//! Where a game's variations `( … )` are, so that `convert` can rewrite
//! their moves too: one pass over the movetext that skips comments as the
//! movetext tokenizer does (`{…}`, `;` to the line end, `%` lines) and
//! pairs the parentheses, nested or not, with a stack (never recursion).
//!
//! Each variation is given as the stretches of its own text, between its
//! parentheses and around the variations nested in it: a stretch holds no
//! parenthesis, so the movetext tokenizer reads its moves in order, and the
//! whole game is read once however deep the nesting.

/// One variation: where it opens, the line it branches from, and the
/// stretches of its own text in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// Offset of its `(`.
    pub open: usize,
    /// The variation it is nested in, as an index into the list; `None`
    /// for one that branches from the main line.
    pub parent: Option<usize>,
    /// Its text between the parentheses, less the variations nested in
    /// it: `(start, end)` byte ranges, in order.
    pub stretches: Vec<(usize, usize)>,
    /// Whether its `)` was found (an unclosed variation holds the rest of
    /// the game, and is left as written).
    pub closed: bool,
}

/// The variations of the movetext `bytes[start..]`, parents before the
/// variations nested in them.
pub fn find_variations(bytes: &[u8], start: usize) -> Vec<Variation> {
    let mut found: Vec<Variation> = Vec::new();
    // The variations open at this point, innermost last.
    let mut open: Vec<usize> = Vec::new();
    let mut i = start;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'{' => {
                i = memchr::memchr(b'}', bytes.get(i..).unwrap_or_default())
                    .map_or(bytes.len(), |k| i + k + 1);
                continue;
            }
            b';' => {
                i = line_end(bytes, i);
                continue;
            }
            b'%' if i == start || matches!(bytes.get(i.wrapping_sub(1)), Some(b'\n' | b'\r')) => {
                i = line_end(bytes, i);
                continue;
            }
            b'(' => {
                if let Some(&inner) = open.last()
                    && let Some(v) = found.get_mut(inner)
                {
                    close_stretch(v, i);
                }
                found.push(Variation {
                    open: i,
                    parent: open.last().copied(),
                    stretches: vec![(i + 1, i + 1)],
                    closed: false,
                });
                open.push(found.len() - 1);
            }
            b')' => {
                // A `)` with no `(` open is stray: the tokenizer skips it.
                if let Some(done) = open.pop() {
                    if let Some(v) = found.get_mut(done) {
                        close_stretch(v, i);
                        v.closed = true;
                    }
                    if let Some(&outer) = open.last()
                        && let Some(v) = found.get_mut(outer)
                    {
                        v.stretches.push((i + 1, i + 1));
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    for &k in &open {
        if let Some(v) = found.get_mut(k) {
            close_stretch(v, bytes.len());
        }
    }
    for v in &mut found {
        v.stretches.retain(|(s, e)| s < e);
    }
    found
}

/// Ends the variation's open stretch at `at`.
fn close_stretch(v: &mut Variation, at: usize) {
    if let Some(last) = v.stretches.last_mut() {
        last.1 = at;
    }
}

/// The offset of the line end at or after `from` (the text's end if none).
fn line_end(bytes: &[u8], from: usize) -> usize {
    memchr::memchr2(b'\n', b'\r', bytes.get(from..).unwrap_or_default())
        .map_or(bytes.len(), |k| from + k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(bytes: &[u8], v: &Variation) -> String {
        v.stretches
            .iter()
            .map(|&(s, e)| String::from_utf8_lossy(&bytes[s..e]).into_owned())
            .collect::<Vec<_>>()
            .join("|")
    }

    #[test]
    fn nested_variations_are_found_with_their_own_text() {
        let pgn = b"1. e4 (1. d4 d5 (1... Nf6) 2. c4) e5 {(not one)} ; (nor this\n(2. f4) *";
        let found = find_variations(pgn, 0);
        let texts: Vec<String> = found.iter().map(|v| text_of(pgn, v)).collect();
        assert_eq!(texts, ["1. d4 d5 | 2. c4", "1... Nf6", "2. f4"]);
        let parents: Vec<Option<usize>> = found.iter().map(|v| v.parent).collect();
        assert_eq!(parents, [None, Some(0), None]);
        assert!(found.iter().all(|v| v.closed));
    }

    #[test]
    fn escapes_stray_and_unclosed_parentheses() {
        let pgn = b"1. e4 ) e5\n% (an escape line\n2. Nf3 (2. f4";
        let found = find_variations(pgn, 0);
        assert_eq!(found.len(), 1);
        assert_eq!(text_of(pgn, &found[0]), "2. f4");
        assert!(!found[0].closed);
    }

    /// 100,000 nested variations: one pass, no recursion.
    #[test]
    fn deep_nesting_is_one_pass() {
        let pgn = [
            &b"1. e4 "[..],
            &b"(1. d4 ".repeat(100_000),
            &b")".repeat(100_000),
        ]
        .concat();
        let found = find_variations(&pgn, 0);
        assert_eq!(found.len(), 100_000);
        assert_eq!(found[99_999].parent, Some(99_998));
    }
}
