//! A [`FenLine`] audited into a [`FenRow`]: which rules it was read with, the
//! position written back, the castling rights the board contradicts, legal
//! moves and check (`docs/reports.md`, section `pgnmill fen`).

use super::line::{FenLine, FileState, read_line};
use crate::chess::{self, CastlingMode, CastlingNotation, EpMode, Setup};
use crate::xiangqi;

/// The rules a record is read with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Chess,
    Chess960,
    Xiangqi,
}

impl Variant {
    /// The word written in the `variant` column.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Chess960 => "chess960",
            Variant::Xiangqi => "xiangqi",
        }
    }
}

/// How to choose the rules of each record (`--variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum VariantRule {
    /// Per record: 10 ranks is xiangqi; a castling field with file letters
    /// (Shredder-FEN, `HAha`) is Chess960; anything else is chess.
    #[default]
    Auto,
    /// Standard chess for every record.
    Chess,
    /// Chess960 for every record (X-FEN `KQkq` means the outermost rooks).
    Chess960,
    /// Xiangqi for every record.
    Xiangqi,
}

/// How records are read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FenOptions {
    pub variant: VariantRule,
}

/// The CSV columns, in order (the field names of [`FenRow`]).
pub const COLUMNS: [&str; 16] = [
    "source",
    "line",
    "input",
    "status",
    "error",
    "fen",
    "fen_ep_legal",
    "castling_invalid",
    "castling_effective",
    "reason",
    "legal_moves",
    "check",
    "variant",
    "id",
    "game",
    "problems",
];

/// One output row.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct FenRow {
    pub source: String,
    pub line: u64,
    pub input: String,
    pub status: &'static str,
    pub error: String,
    pub fen: String,
    pub fen_ep_legal: String,
    pub castling_invalid: String,
    pub castling_effective: String,
    pub reason: String,
    pub legal_moves: Option<usize>,
    pub check: Option<bool>,
    /// The rules the record was read with: `chess`, `chess960`, `xiangqi`.
    pub variant: &'static str,
    /// The record's name (EPD `id`, or the `.perft` `id` line before it;
    /// a xiangqi record's title).
    pub id: String,
    /// A xiangqi record file's record: its index in the file from 1, as in
    /// `games.csv`'s `game` (empty for a line of a list).
    pub game: Option<u64>,
    /// What makes the position impossible in a real game, `;`-joined words
    /// of a fixed vocabulary ([`crate::chess::Problem`],
    /// [`crate::xiangqi::problems::Problem`]); empty if nothing does.
    pub problems: String,
}

impl FenRow {
    /// A row for `input` at `source`/`line` that says nothing yet: `bad_fen`
    /// until an audit reads the position.
    pub fn new(source: &str, line: u64, input: &str, id: &str) -> FenRow {
        FenRow {
            source: source.to_string(),
            line,
            input: input.to_string(),
            status: "bad_fen",
            error: String::new(),
            fen: String::new(),
            fen_ep_legal: String::new(),
            castling_invalid: String::new(),
            castling_effective: String::new(),
            reason: String::new(),
            legal_moves: None,
            check: None,
            variant: Variant::Chess.name(),
            id: id.to_string(),
            game: None,
            problems: String::new(),
        }
    }
}

/// Reads and audits one line; `None` when it is not a record (blank,
/// comment, `.perft` `id`/`perft` line). `state` carries what earlier lines
/// of the same file said (a `.perft` `id` line names the next record).
pub fn audit_line(
    source: &str,
    line_no: u64,
    text: &str,
    opts: &FenOptions,
    state: &mut FileState,
) -> Option<FenRow> {
    read_line(text, state).map(|record| audit_record(source, line_no, &record, opts))
}

/// Audits one record.
pub fn audit_record(source: &str, line: u64, record: &FenLine<'_>, opts: &FenOptions) -> FenRow {
    let mut row = FenRow::new(source, line, record.text, &record.id);
    let ranks = record.placement().split('/').count();
    let xiangqi_shape = ranks == xiangqi::types::RANKS as usize;
    match opts.variant {
        VariantRule::Xiangqi => audit_xiangqi(&record.fen_text(), &mut row),
        VariantRule::Auto if xiangqi_shape => audit_xiangqi(&record.fen_text(), &mut row),
        VariantRule::Auto => audit_chess(record, None, &mut row),
        VariantRule::Chess => {
            audit_chess(record, Some(CastlingMode::Standard), &mut row);
            if xiangqi_shape && row.status != "ok" {
                row.error
                    .push_str(" (10 ranks: a xiangqi FEN? read it with --variant auto or xiangqi)");
            }
        }
        VariantRule::Chess960 => audit_chess(record, Some(CastlingMode::Chess960), &mut row),
    }
    row
}

/// The words of the `problems` column, `;`-joined.
fn joined<P: Copy>(problems: &[P], word: fn(P) -> &'static str) -> String {
    problems
        .iter()
        .map(|&p| word(p))
        .collect::<Vec<_>>()
        .join(";")
}

/// Reads `fen` by the xiangqi rules into `row`. The board's problems are
/// listed whatever the status: most of them make the position `bad_fen`
/// for the kernel, and the column says which.
pub(super) fn audit_xiangqi(fen: &str, row: &mut FenRow) {
    row.variant = Variant::Xiangqi.name();
    let setup = match xiangqi::fen::parse(fen) {
        Ok(setup) => setup,
        Err(e) => {
            row.error = e.to_string();
            return;
        }
    };
    let problems = xiangqi::problems::problems(&setup.board, setup.turn);
    row.problems = joined(&problems, xiangqi::problems::Problem::as_str);
    match xiangqi::Position::from_setup(setup) {
        Ok(pos) => {
            row.status = "ok";
            row.fen = pos.fen();
            row.fen_ep_legal = row.fen.clone();
            row.legal_moves = Some(pos.legal_moves().len());
            row.check = Some(pos.is_check());
        }
        Err(e) => row.error = e.to_string(),
    }
}

/// `mode`: forced, or `None` to take Chess960 for a Shredder-FEN field.
fn audit_chess(record: &FenLine<'_>, mode: Option<CastlingMode>, row: &mut FenRow) {
    let setup = match Setup::parse(&record.fen_text()) {
        Ok(s) => s,
        Err(e) => {
            row.error = e.to_string();
            return;
        }
    };
    let mode = mode.unwrap_or(if setup.is_shredder() {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    });
    if mode == CastlingMode::Chess960 {
        row.variant = Variant::Chess960.name();
    }
    let notation = castling_notation(setup.castling_text());
    match chess::Position::from_setup(&setup, mode) {
        Ok((pos, audit)) => {
            row.status = "ok";
            row.fen = pos.fen_with(EpMode::Always, notation);
            row.fen_ep_legal = pos.fen_with(EpMode::Legal, notation);
            row.reason = audit.reason;
            if mode == CastlingMode::Standard && chess960_would_accept(&setup, &audit.invalid) {
                row.reason.push_str(CHESS960_HINT);
            }
            row.castling_invalid = audit.invalid;
            row.castling_effective = audit.effective;
            row.legal_moves = Some(pos.legal_moves().len());
            row.check = Some(pos.is_check());
            row.problems = joined(&chess::problems(&setup, &pos), chess::Problem::as_str);
        }
        Err(e) => row.error = e.to_string(),
    }
}

/// Appended to `reason` when standard rules refuse `KQkq`-style rights
/// because a king stands on its back rank off the e-file.
pub const CHESS960_HINT: &str =
    " (king on its back rank but off the e-file: a Chess960 position? read it with --chess960)";

/// Shredder-FEN when the field names rights only by file letters (`HFhf`),
/// otherwise X-FEN (`KQkq`, or mixed such as `KQkqB`) or `-`.
fn castling_notation(field: &str) -> CastlingNotation {
    let files = field
        .bytes()
        .any(|c| matches!(c.to_ascii_lowercase(), b'a'..=b'h'));
    let kq = field
        .bytes()
        .any(|c| matches!(c, b'K' | b'Q' | b'k' | b'q'));
    if files && !kq {
        CastlingNotation::Shredder
    } else {
        CastlingNotation::XFen
    }
}

/// Whether standard rules refused a `K`/`Q`/`k`/`q` right of a king that
/// stands on its back rank off the e-file, and Chess960 rules would accept
/// more of the field (a Chess960 list written in X-FEN, read as chess).
fn chess960_would_accept(setup: &Setup, invalid: &str) -> bool {
    let king_off_e = invalid
        .bytes()
        .filter(|c| matches!(c, b'K' | b'Q' | b'k' | b'q'))
        .any(|c| {
            let color = if c.is_ascii_uppercase() {
                chess::Color::White
            } else {
                chess::Color::Black
            };
            setup
                .board
                .king_of(color)
                .is_some_and(|k| k.rank() == color.back_rank() && k.file() != 4)
        });
    king_off_e && {
        let (_, as_960) =
            chess::castling::audit(&setup.board, setup.castling_text(), CastlingMode::Chess960);
        as_960.invalid.len() < invalid.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_the_row_fields_in_order() {
        let mut w = csv::Writer::from_writer(Vec::new());
        let row = audit_line(
            "s",
            1,
            "4k3/8/8/8/8/8/8/4K3 w - -",
            &FenOptions::default(),
            &mut FileState::default(),
        )
        .unwrap();
        w.serialize(&row).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().next().unwrap(), COLUMNS.join(","));
    }
}
