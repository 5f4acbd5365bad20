//! One CSV row per game (`games.csv`) and per castling conflict
//! (`castling.csv`), as serde structs whose field names are the column names.

use serde::Serialize;

use super::csv_record::CsvRecords;
use crate::replay::Status;

/// A row of `games.csv`. Borrowed strings: the row lives only as long as it
/// takes to format it.
#[derive(Debug, Serialize)]
pub struct GameRow<'a> {
    pub source: &'a str,
    pub game: u64,
    pub offset: u64,
    pub line: u64,
    pub variant: &'a str,
    pub event: &'a str,
    pub site: &'a str,
    pub date: &'a str,
    pub round: &'a str,
    pub white: &'a str,
    pub black: &'a str,
    pub result: &'a str,
    pub plies: u32,
    pub start_fen: &'a str,
    pub final_fen: &'a str,
    pub final_fen_ep_legal: &'a str,
    pub rep_max_ep_always: Option<u32>,
    pub threefold_ply_ep_always: Option<u32>,
    pub rep_max_ep_legal: Option<u32>,
    pub threefold_ply_ep_legal: Option<u32>,
    pub missed_threefold: bool,
    pub castling_conflict: &'a str,
    pub status: Status,
    pub error: &'a str,
    // The outcome columns (docs/outcomes.md), appended after the first ones.
    pub termination: &'a str,
    pub board_result: &'a str,
    pub mating_material: &'a str,
    pub fivefold_ply: Option<u32>,
    pub fivefold_ply_ep_always: Option<u32>,
    pub threefold_claim_ply: Option<u32>,
    pub fifty_move_ply: Option<u32>,
    pub fifty_move_claim_ply: Option<u32>,
    pub seventyfive_move_ply: Option<u32>,
    pub game_over_ply: Option<u32>,
    pub game_over: &'a str,
    pub result_conflict: &'a str,
    // The xiangqi columns (docs/xiangqi-rules.md, section 7), empty for
    // chess.
    pub perpetual_check: &'a str,
    pub natural_limit_ply: Option<u32>,
}

/// The optional `moves` column (`--moves`): the main line in UCI (chess) or
/// ICCS (xiangqi), space separated. Serialized after a [`GameRow`] as a tuple,
/// which the csv crate flattens into one record.
#[derive(Debug, Serialize)]
pub struct MovesColumn<'a> {
    pub moves: &'a str,
}

/// A row of `castling.csv`: a game whose `[FEN]` castling field names rights
/// the board cannot support.
#[derive(Debug, Serialize)]
pub struct CastlingRow<'a> {
    pub source: &'a str,
    pub game: u64,
    pub offset: u64,
    pub line: u64,
    pub fen: &'a str,
    pub castling: &'a str,
    pub invalid: &'a str,
    pub effective: &'a str,
    pub reason: &'a str,
}

/// Where a row's fields go, in column order: the CSV bytes
/// ([`CsvRecords`]) or the typed columns of a Parquet row group
/// (`super::parquet::ArrowRows`). The row writes its fields once, here, so
/// both files hold the same values in the same order.
pub trait FieldSink {
    /// Text that may need quoting or hold control bytes.
    fn text(&mut self, value: &str);
    /// Text known to need no quoting (a FEN, a fixed word).
    fn plain_text(&mut self, value: &str);
    /// A count or position (`Int64`).
    fn int64(&mut self, value: u64);
    /// A ply or count, absent as an empty field (`Int32`, nullable).
    fn int32(&mut self, value: Option<u32>);
    /// `true` or `false`.
    fn boolean(&mut self, value: bool);
    /// The outcome columns of most games ([`GameRow::is_plain_outcome`]):
    /// `none`, empty, `both`, then nothing (the xiangqi columns included).
    fn plain_outcome(&mut self) {
        for field in PLAIN_OUTCOME {
            match field {
                Some(text) => self.plain_text(text),
                None => self.int32(None),
            }
        }
    }
}

/// The outcome columns of most games ([`FieldSink::plain_outcome`]), from
/// `termination` to `natural_limit_ply`: a text (`Some`) or an empty ply
/// column (`None`).
pub(super) const PLAIN_OUTCOME: [Option<&str>; 14] = [
    Some("none"),
    Some(""),
    Some("both"),
    None,
    None,
    None,
    None,
    None,
    None,
    None,
    Some(""),
    Some(""),
    Some(""),
    None,
];

impl FieldSink for CsvRecords {
    #[inline(always)]
    fn text(&mut self, value: &str) {
        self.field(value.as_bytes());
    }
    #[inline(always)]
    fn plain_text(&mut self, value: &str) {
        self.plain_field(value.as_bytes());
    }
    #[inline(always)]
    fn int64(&mut self, value: u64) {
        self.plain_field(itoa::Buffer::new().format(value).as_bytes());
    }
    #[inline(always)]
    fn int32(&mut self, value: Option<u32>) {
        match value {
            Some(v) => self.plain_field(itoa::Buffer::new().format(v).as_bytes()),
            None => self.plain_field(b""),
        }
    }
    #[inline(always)]
    fn boolean(&mut self, value: bool) {
        self.plain_field(if value { b"true" } else { b"false" });
    }
    /// One copy of the fourteen fields' bytes.
    #[inline(always)]
    fn plain_outcome(&mut self) {
        self.plain_fields(b"none,,both,,,,,,,,,,,");
    }
}

impl GameRow<'_> {
    /// Whether the outcome columns are those of most games (see
    /// [`GameRow::write_fields`]). Such a row is a chess game (xiangqi rows
    /// leave `mating_material` empty), so its xiangqi columns are empty:
    /// they need no test here, which every chess game would pay for.
    fn is_plain_outcome(&self) -> bool {
        self.termination == "none"
            && self.mating_material == "both"
            && self.result_conflict.is_empty()
            && self.game_over_ply.is_none()
            && self.fivefold_ply.is_none()
            && self.fivefold_ply_ep_always.is_none()
            && self.threefold_claim_ply.is_none()
            && self.fifty_move_ply.is_none()
            && self.fifty_move_claim_ply.is_none()
            && self.seventyfive_move_ply.is_none()
    }

    /// Writes the row's fields, in column order, without ending the record
    /// (a `moves` column may follow). The same bytes as serde's
    /// serialization of the struct (a test holds them equal), without its
    /// per-field dispatch: this runs once per game.
    #[inline]
    pub fn write_fields<S: FieldSink>(&self, w: &mut S) {
        w.text(self.source);
        w.int64(self.game);
        w.int64(self.offset);
        w.int64(self.line);
        for text in [
            self.variant,
            self.event,
            self.site,
            self.date,
            self.round,
            self.white,
            self.black,
            self.result,
        ] {
            w.text(text);
        }
        w.int32(Some(self.plies));
        w.text(self.start_fen);
        // Written by the FEN writers (chess, xiangqi), whose alphabet holds
        // no comma, quote or line end; empty when nothing was replayed.
        w.plain_text(self.final_fen);
        w.plain_text(self.final_fen_ep_legal);
        for number in [
            self.rep_max_ep_always,
            self.threefold_ply_ep_always,
            self.rep_max_ep_legal,
            self.threefold_ply_ep_legal,
        ] {
            w.int32(number);
        }
        w.boolean(self.missed_threefold);
        w.text(self.castling_conflict);
        w.plain_text(self.status.as_str());
        w.text(self.error);
        if self.is_plain_outcome() {
            // Most games: an open board, both sides with mating material,
            // no draw rule met, no conflict.
            w.plain_outcome();
            return;
        }
        for word in [self.termination, self.board_result, self.mating_material] {
            w.plain_text(word);
        }
        for number in [
            self.fivefold_ply,
            self.fivefold_ply_ep_always,
            self.threefold_claim_ply,
            self.fifty_move_ply,
            self.fifty_move_claim_ply,
            self.seventyfive_move_ply,
            self.game_over_ply,
        ] {
            w.int32(number);
        }
        w.plain_text(self.game_over);
        w.text(self.result_conflict);
        w.plain_text(self.perpetual_check);
        w.int32(self.natural_limit_ply);
    }
}

impl CastlingRow<'_> {
    /// Writes the row's fields in column order (the Parquet file; the CSV
    /// is written by serde from the same struct).
    pub fn write_fields<S: FieldSink>(&self, w: &mut S) {
        w.text(self.source);
        w.int64(self.game);
        w.int64(self.offset);
        w.int64(self.line);
        for text in [
            self.fen,
            self.castling,
            self.invalid,
            self.effective,
            self.reason,
        ] {
            w.text(text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CSV writer's one copy of the common outcome fields is the
    /// fields of [`PLAIN_OUTCOME`], each written on its own.
    #[test]
    fn the_joined_outcome_fields_are_the_fields_one_by_one() {
        let mut joined = CsvRecords::reusing(Vec::new(), 0);
        joined.plain_outcome();
        joined.end_record();
        let mut each = CsvRecords::reusing(Vec::new(), 0);
        for field in PLAIN_OUTCOME {
            match field {
                Some(text) => each.plain_text(text),
                None => each.int32(None),
            }
        }
        each.end_record();
        assert_eq!(joined.into_bytes(), each.into_bytes());
    }
}
