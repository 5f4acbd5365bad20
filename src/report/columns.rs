//! The columns of `games.csv` and `castling.csv`, each with its name and
//! type, in one table: the CSV header is written from it, the Parquet
//! schema is built from it, and the CSV text of a row is turned into typed
//! values (for the Parquet files) by it. A new column is one line here
//! (and its field in [`super::rows::GameRow`], which a test holds in the
//! same order). Names are a contract (`docs/reports.md`): add columns,
//! never rename or drop one.

use std::borrow::Cow;

/// What a column holds, which fixes its Parquet type: the schema follows
/// from the options, never from the data (a reader that infers types from
/// the first rows gets `round` wrong on a xiangqi report).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ColumnType {
    /// UTF-8 text, never null (empty when there is nothing to say).
    Text,
    /// A signed 64-bit count or position, always present.
    Int64,
    /// A signed 32-bit ply or count, null when the CSV field is empty.
    Int32,
    /// `true` or `false`, always present.
    Bool,
}

impl ColumnType {
    /// How the README and the HTML report name the type.
    pub fn name(self) -> &'static str {
        match self {
            ColumnType::Text => "text",
            ColumnType::Int64 => "int64",
            ColumnType::Int32 => "int32 (nullable)",
            ColumnType::Bool => "boolean",
        }
    }
}

/// One column: its name in the CSV header and the Parquet schema, and its
/// type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: Cow<'static, str>,
    pub kind: ColumnType,
}

impl Column {
    const fn new(name: &'static str, kind: ColumnType) -> Self {
        Column {
            name: Cow::Borrowed(name),
            kind,
        }
    }
}

use ColumnType::{Bool, Int32, Int64, Text};

/// The default columns of `games.csv`, in order.
pub static GAME_COLUMNS: [Column; 38] = [
    Column::new("source", Text),
    Column::new("game", Int64),
    Column::new("offset", Int64),
    Column::new("line", Int64),
    Column::new("variant", Text),
    Column::new("event", Text),
    Column::new("site", Text),
    Column::new("date", Text),
    Column::new("round", Text),
    Column::new("white", Text),
    Column::new("black", Text),
    Column::new("result", Text),
    Column::new("plies", Int32),
    Column::new("start_fen", Text),
    Column::new("final_fen", Text),
    Column::new("final_fen_ep_legal", Text),
    Column::new("rep_max_ep_always", Int32),
    Column::new("threefold_ply_ep_always", Int32),
    Column::new("rep_max_ep_legal", Int32),
    Column::new("threefold_ply_ep_legal", Int32),
    Column::new("missed_threefold", Bool),
    Column::new("castling_conflict", Text),
    Column::new("status", Text),
    Column::new("error", Text),
    Column::new("termination", Text),
    Column::new("board_result", Text),
    Column::new("mating_material", Text),
    Column::new("fivefold_ply", Int32),
    Column::new("fivefold_ply_ep_always", Int32),
    Column::new("threefold_claim_ply", Int32),
    Column::new("fifty_move_ply", Int32),
    Column::new("fifty_move_claim_ply", Int32),
    Column::new("seventyfive_move_ply", Int32),
    Column::new("game_over_ply", Int32),
    Column::new("game_over", Text),
    Column::new("result_conflict", Text),
    Column::new("perpetual_check", Text),
    Column::new("natural_limit_ply", Int32),
];

/// The `moves` column, after the defaults with `--moves`.
pub const MOVES_COLUMN: Column = Column::new("moves", Text);

/// The columns of `castling.csv`, in order.
pub static CASTLING_COLUMNS: [Column; 9] = [
    Column::new("source", Text),
    Column::new("game", Int64),
    Column::new("offset", Int64),
    Column::new("line", Int64),
    Column::new("fen", Text),
    Column::new("castling", Text),
    Column::new("invalid", Text),
    Column::new("effective", Text),
    Column::new("reason", Text),
];

/// The columns of one run's `games.csv`: the defaults, then `moves` with
/// `--moves`, then one text column per `--tags` tag, named as given, or
/// [`tag_column_name`] when that name is taken.
pub fn game_columns(with_moves: bool, tags: &[String]) -> Vec<Column> {
    let mut columns = GAME_COLUMNS.to_vec();
    if with_moves {
        columns.push(MOVES_COLUMN);
    }
    columns.extend(tags.iter().map(|t| Column {
        name: tag_column_name(t),
        kind: Text,
    }));
    columns
}

/// The tags of the seven-tag roster, whose values the default columns
/// (`event` ... `result`) already hold as written: `--tags` refuses them.
const ROSTER_TAGS: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Whether `tag` is a roster tag, which the report already has as a
/// column (compared without regard to case, as tag names are): `--tags
/// White` is refused, the `white` column holds it.
pub fn is_column(tag: &str) -> bool {
    ROSTER_TAGS.iter().any(|t| t.eq_ignore_ascii_case(tag))
}

/// The column of tag `tag` (`--tags`): its name as given, unless that is
/// the name of a column pgnmill computes (compared without case, `moves`
/// included whether or not it is written), then `tag_` and the name:
/// lichess's `Termination` tag ("Normal", "Time forfeit") is the column
/// `tag_Termination`, beside `termination`, the board's verdict. A column's
/// name thus never depends on the data, and the default columns never
/// change.
pub fn tag_column_name(tag: &str) -> Cow<'static, str> {
    let taken = GAME_COLUMNS
        .iter()
        .chain(std::iter::once(&MOVES_COLUMN))
        .any(|c| c.name.eq_ignore_ascii_case(tag));
    if taken {
        Cow::Owned(format!("tag_{tag}"))
    } else {
        Cow::Owned(tag.to_string())
    }
}

/// The position of column `name` in `columns`.
pub fn position(columns: &[Column], name: &str) -> Option<usize> {
    columns.iter().position(|c| c.name == name)
}

/// The tags lichess writes in its monthly dumps; `--tags lichess` adds
/// those that are not roster columns already (`Termination` as
/// `tag_Termination`).
pub const LICHESS_TAGS: [&str; 19] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "UTCDate",
    "UTCTime",
    "WhiteElo",
    "BlackElo",
    "WhiteRatingDiff",
    "BlackRatingDiff",
    "WhiteTitle",
    "BlackTitle",
    "ECO",
    "Opening",
    "TimeControl",
    "Termination",
];

/// The `--tags` tags for the names given: `lichess` expanded, a name
/// given twice kept once (first spelling). A roster tag is refused, with
/// the column that holds it; so is a tag whose column would have the name
/// of another one's (`--tags Termination,tag_Termination`).
pub fn tag_columns(given: &[String]) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    let add = |name: &str, out: &mut Vec<String>| -> Result<(), String> {
        if out.iter().any(|t| t.eq_ignore_ascii_case(name)) {
            return Ok(());
        }
        let column = tag_column_name(name);
        if let Some(other) = out
            .iter()
            .find(|t| tag_column_name(t).eq_ignore_ascii_case(&column))
        {
            return Err(format!(
                "--tags {name}: its column `{column}` would have the name of tag {other}'s"
            ));
        }
        out.push(name.to_string());
        Ok(())
    };
    for name in given.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        if name.eq_ignore_ascii_case("lichess") {
            for tag in LICHESS_TAGS.iter().filter(|t| !is_column(t)) {
                add(tag, &mut out)?;
            }
        } else if is_column(name) {
            return Err(format!(
                "--tags {name}: the report already has this tag as the column `{}`",
                name.to_ascii_lowercase()
            ));
        } else if !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(format!(
                "--tags {name}: a tag name is letters, digits and `_`"
            ));
        } else {
            add(name, &mut out)?;
        }
    }
    Ok(out)
}
