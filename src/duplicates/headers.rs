//! The tags `--duplicates` compares: kept as 32-bit prints of their
//! normalised text, so that a game costs 20 bytes of them however long its
//! names.

use twox_hash::XxHash3_64;

/// The tags of one game, as the report shows them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tags<'a> {
    pub white: &'a str,
    pub black: &'a str,
    pub event: &'a str,
    pub site: &'a str,
    pub date: &'a str,
}

/// A tag's text as it is compared: lower case, letters and digits only
/// (spaces and punctuation dropped), so that `Steinitz, William` and
/// `steinitz william` agree, and `?` is the empty text.
pub fn normalized(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// One tag's print: the low 32 bits of XXH3-64 of its normalised text.
/// Two different texts share a print with a chance of 2⁻³², which the
/// docs state. Nearly every tag is short ASCII, normalised here on the
/// stack; others go through [`normalized`] (the same text either way).
fn print(text: &str) -> u32 {
    const ROOM: usize = 128;
    if text.len() <= ROOM && text.is_ascii() {
        let mut buf = [0u8; ROOM];
        let mut n = 0;
        for b in text.bytes().filter(u8::is_ascii_alphanumeric) {
            buf[n] = b.to_ascii_lowercase();
            n += 1;
        }
        return XxHash3_64::oneshot(&buf[..n]) as u32;
    }
    XxHash3_64::oneshot(normalized(text).as_bytes()) as u32
}

/// The prints of a game's White, Black, Event, Site and Date.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HeaderPrints {
    pub white: u32,
    pub black: u32,
    pub event: u32,
    pub site: u32,
    pub date: u32,
}

impl HeaderPrints {
    pub fn of(tags: &Tags<'_>) -> Self {
        HeaderPrints {
            white: print(tags.white),
            black: print(tags.black),
            event: print(tags.event),
            site: print(tags.site),
            date: print(tags.date),
        }
    }

    /// All five in one 64-bit word, never 0: what a game of fewer than
    /// `min_plies` plies mixes into its keys, so that it only meets games
    /// whose five tags agree with its own.
    pub fn group(&self) -> u64 {
        let words = [self.white, self.black, self.event, self.site, self.date];
        let mut bytes = [0u8; 20];
        for (chunk, w) in bytes.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&w.to_le_bytes());
        }
        XxHash3_64::oneshot(&bytes) | 1
    }
}

/// `dup_headers`: how a game's tags compare with those of the game it
/// copies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeaderComparison {
    /// White and Black are each other's.
    pub colours_swapped: bool,
    /// Otherwise, either name differs.
    pub names_differ: bool,
    pub date_differs: bool,
    pub event_differs: bool,
}

impl HeaderComparison {
    /// `this` game's tags against `original`'s.
    pub fn of(this: &HeaderPrints, original: &HeaderPrints) -> Self {
        let same_names = this.white == original.white && this.black == original.black;
        let swapped = this.white == original.black && this.black == original.white;
        HeaderComparison {
            colours_swapped: swapped && !same_names,
            names_differ: !same_names && !swapped,
            date_differs: this.date != original.date,
            event_differs: this.event != original.event,
        }
    }
}

impl HeaderComparison {
    /// `same`, or the differences joined with `;`, appended to `out`.
    pub fn write_words(&self, out: &mut String) {
        let parts = [
            (self.colours_swapped, "colours_swapped"),
            (self.names_differ, "names_differ"),
            (self.date_differs, "date_differs"),
            (self.event_differs, "event_differs"),
        ];
        let start = out.len();
        for (_, word) in parts.iter().filter(|(on, _)| *on) {
            if out.len() > start {
                out.push(';');
            }
            out.push_str(word);
        }
        if out.len() == start {
            out.push_str("same");
        }
    }
}

impl std::fmt::Display for HeaderComparison {
    /// `same`, or the differences joined with `;`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut words = String::new();
        self.write_words(&mut words);
        f.write_str(&words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prints(white: &str, black: &str, event: &str, date: &str) -> HeaderPrints {
        HeaderPrints::of(&Tags {
            white,
            black,
            event,
            site: "",
            date,
        })
    }

    #[test]
    fn names_are_compared_without_case_spaces_and_punctuation() {
        assert_eq!(normalized("Steinitz, William"), "steinitzwilliam");
        assert_eq!(normalized(" ?"), "");
        assert_eq!(normalized("Réti, R."), "rétir");
        let a = prints("Steinitz, William", "Zukertort, J.", "London", "1883.??.??");
        let b = prints("STEINITZ William", "zukertort j", "London", "1883.??.??");
        assert_eq!(HeaderComparison::of(&a, &b).to_string(), "same");
        // The short-ASCII path and the general one agree.
        for text in [
            "Steinitz, William",
            "a".repeat(200).as_str(),
            "Réti, R.",
            " ?",
        ] {
            let general = XxHash3_64::oneshot(normalized(text).as_bytes()) as u32;
            assert_eq!(print(text), general, "{text}");
        }
    }

    #[test]
    fn each_difference_is_named() {
        let a = prints("Steinitz, William", "Zukertort", "London", "1883");
        let respelled = prints("Steinitz, Wilhelm", "Zukertort", "London ch", "1884");
        assert_eq!(
            HeaderComparison::of(&respelled, &a).to_string(),
            "names_differ;date_differs;event_differs"
        );
        let swapped = prints("Zukertort", "Steinitz, William", "London", "1883");
        assert_eq!(
            HeaderComparison::of(&swapped, &a).to_string(),
            "colours_swapped"
        );
        // One player against himself: the names agree, nothing is swapped.
        let mirror = prints("X", "X", "", "");
        assert_eq!(HeaderComparison::of(&mirror, &mirror).to_string(), "same");
        assert_ne!(a.group(), respelled.group());
        assert_ne!(a.group(), swapped.group());
    }
}
