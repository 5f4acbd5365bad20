//! Choosing games by their tags, and reading the tags a report adds as
//! columns (`--where`, `--tags`), from the tag section alone: a game that
//! is not chosen is never replayed, so a filtered run over a dump costs
//! little more than reading it.
//!
//! A condition is `TAG=VALUE`, `TAG!=VALUE`, `TAG~REGEX` or a comparison of
//! numbers `TAG>=N`, `TAG<=N`, `TAG>N`, `TAG<N`. Tag names are compared
//! without regard to case, as everywhere else; the last tag of a name
//! wins (as python-chess reads a tag given twice). A missing tag has the
//! empty value for `=`, `!=` and `~`, and is no number, so a comparison of
//! numbers fails on it (as on `?` or `-`).

mod decimal;

use super::GameText;
use super::headers::text_in;
use decimal::Decimal;
use std::borrow::Cow;

/// How a tag's value is tested.
#[derive(Clone, Debug)]
enum Test {
    Equal(String),
    NotEqual(String),
    Matches(regex::Regex),
    Number(Compare, Decimal<'static>),
}

/// A comparison of numbers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Compare {
    AtLeast,
    AtMost,
    Above,
    Below,
}

/// Reads the value after an operator into its test.
type MakeTest = fn(&str) -> Result<Test, String>;

/// One `--where` condition.
#[derive(Clone, Debug)]
pub struct Condition {
    /// The condition as written.
    text: String,
    /// The tag as the user wrote it.
    tag: String,
    test: Test,
}

impl std::str::FromStr for Condition {
    type Err = String;

    /// Reads `TAG OP VALUE`; the tag is a PGN symbol (letters, digits, `_`),
    /// the operator the first that follows it.
    fn from_str(expr: &str) -> Result<Self, String> {
        let name_end = expr
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(expr.len());
        let (tag, rest) = expr.split_at(name_end);
        if tag.is_empty() {
            return Err(format!(
                "\"{expr}\": expected TAG=VALUE, TAG!=VALUE, TAG~REGEX or TAG>=N (<=, >, <)"
            ));
        }
        let ops: [(&str, MakeTest); 7] = [
            ("!=", |v| Ok(Test::NotEqual(v.to_string()))),
            (">=", |v| number(v, Compare::AtLeast)),
            ("<=", |v| number(v, Compare::AtMost)),
            ("=", |v| Ok(Test::Equal(v.to_string()))),
            ("~", |v| {
                regex::Regex::new(v)
                    .map(Test::Matches)
                    .map_err(|e| format!("bad regular expression: {e}"))
            }),
            (">", |v| number(v, Compare::Above)),
            ("<", |v| number(v, Compare::Below)),
        ];
        for (op, make) in ops {
            if let Some(value) = rest.strip_prefix(op) {
                if matches!(op, "=" | "!=")
                    && let Some(c) = value.chars().next().filter(|c| "=<>!~".contains(*c))
                {
                    // `WhiteElo=>2000`, `Result==1-0`: an operator mistyped,
                    // which would silently select no game.
                    return Err(format!(
                        "\"{expr}\": the value after {op} starts with \"{c}\", which looks like a mistyped operator (=, !=, ~, >=, <=, >, <); to match a value that does start with it, write {tag}~^{}",
                        regex::escape(&c.to_string())
                    ));
                }
                let test = make(value).map_err(|e| format!("\"{expr}\": {e}"))?;
                return Ok(Condition {
                    text: expr.to_string(),
                    tag: tag.to_string(),
                    test,
                });
            }
        }
        Err(format!(
            "\"{expr}\": after the tag name {tag} comes no operator (=, !=, ~, >=, <=, >, <)"
        ))
    }
}

impl std::fmt::Display for Condition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// The number a comparison is made with; not a number is a usage error.
fn number(value: &str, compare: Compare) -> Result<Test, String> {
    match Decimal::parse(value) {
        Some(n) => Ok(Test::Number(compare, n.into_owned())),
        None => Err(format!("\"{value}\" is not a number")),
    }
}

impl Condition {
    /// Whether a game whose tag has `value` (`None`: no such tag) meets it.
    fn holds(&self, value: Option<&str>) -> bool {
        let v = value.unwrap_or("");
        match &self.test {
            Test::Equal(want) => v == want,
            Test::NotEqual(want) => v != want,
            Test::Matches(re) => re.is_match(v),
            Test::Number(compare, n) => match value.and_then(Decimal::parse) {
                None => false,
                Some(x) => match compare {
                    Compare::AtLeast => x >= *n,
                    Compare::AtMost => x <= *n,
                    Compare::Above => x > *n,
                    Compare::Below => x < *n,
                },
            },
        }
    }
}

/// The tags one run reads from every game beyond those replay reads: the
/// `--tags` columns and the tags of the `--where` conditions, each read
/// once per game in one walk of its tag section.
#[derive(Clone, Debug, Default)]
pub struct TagQuery {
    /// Every tag name read, the columns first (in their order).
    names: Vec<String>,
    columns: usize,
    /// Each condition and the index of its tag in `names`.
    conditions: Vec<(Condition, usize)>,
}

/// The values a [`TagQuery`] read from one game, by the query's names.
pub type TagValues<'a> = Vec<Option<Cow<'a, str>>>;

impl TagQuery {
    /// A query for the `columns` tags (as given) and the `conditions`.
    pub fn new(columns: Vec<String>, conditions: Vec<Condition>) -> Self {
        let mut names = columns;
        let n_columns = names.len();
        let conditions = conditions
            .into_iter()
            .map(|c| {
                let at = match names.iter().position(|n| n.eq_ignore_ascii_case(&c.tag)) {
                    Some(at) => at,
                    None => {
                        names.push(c.tag.clone());
                        names.len() - 1
                    }
                };
                (c, at)
            })
            .collect();
        TagQuery {
            names,
            columns: n_columns,
            conditions,
        }
    }

    /// Whether the query reads nothing: the report's hot path then does
    /// not walk the tags a second time.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The `--tags` columns, as given.
    pub fn column_names(&self) -> &[String] {
        self.names.get(..self.columns).unwrap_or_default()
    }

    /// Reads the query's tags from `game`, whose bytes are `text`
    /// (UTF-8): the last tag of each name, compared without case (as the
    /// report's columns read them, docs/pgn-dialect.md §3).
    pub fn read<'a>(&self, text: &'a str, line: u64) -> TagValues<'a> {
        let mut values: TagValues<'a> = vec![None; self.names.len()];
        for tag in GameText::new(text.as_bytes(), line).tags() {
            for (slot, name) in values.iter_mut().zip(&self.names) {
                // The last occurrence of a name wins, as for the columns.
                if tag.name_is(name) {
                    *slot = Some(text_in(Some(text), &Some(tag.value())));
                }
            }
        }
        values
    }

    /// Whether a game with `values` (from [`TagQuery::read`]) meets every
    /// condition.
    pub fn selects(&self, values: &TagValues<'_>) -> bool {
        self.conditions
            .iter()
            .all(|(c, at)| c.holds(values.get(*at).and_then(|v| v.as_deref())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cond(s: &str) -> Condition {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn each_operator_tests_as_written() {
        let cases: &[(&str, Option<&str>, bool)] = &[
            ("WhiteElo>=2000", Some("2000"), true),
            ("WhiteElo>=2000", Some("1999"), false),
            ("WhiteElo>2000", Some("2000"), false),
            ("WhiteElo<2000", Some("1999.5"), true),
            ("WhiteElo<=2000", Some("2000"), true),
            ("WhiteElo>=2000", Some("?"), false),
            ("WhiteElo>=2000", None, false),
            ("WhiteElo<9", Some("inf"), false),
            ("WhiteElo>-1", Some("-0"), true),
            // The spellings of 1800 docs/reports.md lists, and two that
            // are no number.
            ("WhiteElo>=1800", Some(" 1800 "), true),
            ("WhiteElo<=1800", Some("+1800"), true),
            ("WhiteElo>=1800", Some("1800.0"), true),
            ("WhiteElo<=1800", Some("01800"), true),
            ("WhiteElo<=1800", Some("1800."), true),
            ("WhiteElo>=1", Some("1,800"), false),
            ("WhiteElo>=1", Some("1800?"), false),
            ("Event=Rated Blitz game", Some("Rated Blitz game"), true),
            ("Event=Rated", Some("Rated Blitz game"), false),
            ("Event=", None, true),
            ("Event!=x", None, true),
            ("Event!=x", Some("x"), false),
            ("TimeControl~^(60|180)\\+", Some("180+2"), true),
            ("TimeControl~^(60|180)\\+", Some("300+2"), false),
            ("Opening~a=b", Some("xa=b"), true),
        ];
        for &(expr, value, want) in cases {
            assert_eq!(cond(expr).holds(value), want, "{expr} on {value:?}");
        }
    }

    #[test]
    fn bad_conditions_say_why() {
        for (expr, says) in [
            ("=x", "expected TAG=VALUE"),
            ("Elo", "no operator"),
            ("Elo>=abc", "\"abc\" is not a number"),
            ("Opening~(", "bad regular expression"),
            (
                "WhiteElo=>2000",
                "starts with \">\", which looks like a mistyped operator",
            ),
            ("Result==1-0", "write Result~^="),
            ("Event!=~x", "starts with \"~\""),
        ] {
            let err = expr.parse::<Condition>().err().unwrap_or_default();
            assert!(err.contains(says), "{expr}: {err}");
        }
        // The way out the message gives matches such a value.
        let game = "[Event \">x\"]\n[Round \"=1\"]\n\n*\n";
        let q = TagQuery::new(vec![], vec![cond("Event~^>"), cond("Round~^=")]);
        assert!(q.selects(&q.read(game, 1)));
    }

    #[test]
    fn query_reads_last_tag_without_case_and_selects_on_all() {
        let game =
            "[Event \"a\"]\n[whiteelo \"1500\"]\n[WhiteElo \"2500\"]\n[ECO \"B01\"]\n\n1. e4 *\n";
        let q = TagQuery::new(
            vec!["WhiteElo".into(), "Opening".into()],
            vec![cond("ECO~^B"), cond("WhiteElo>=2000")],
        );
        let values = q.read(game, 1);
        assert_eq!(q.column_names(), ["WhiteElo", "Opening"]);
        assert_eq!(values.len(), 3);
        assert_eq!(values[0].as_deref(), Some("2500"));
        assert_eq!(values[1].as_deref(), None);
        assert_eq!(values[2].as_deref(), Some("B01"));
        assert!(q.selects(&values));
        let q = TagQuery::new(vec![], vec![cond("ECO~^B"), cond("WhiteElo<2000")]);
        assert!(!q.selects(&q.read(game, 1)));
    }
}
