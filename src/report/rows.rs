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

impl GameRow<'_> {
    /// Whether the outcome columns are those of most games (see
    /// [`GameRow::write_fields`]).
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
    pub fn write_fields(&self, w: &mut CsvRecords) {
        let mut n = itoa::Buffer::new();
        w.field(self.source.as_bytes());
        w.plain_field(n.format(self.game).as_bytes());
        w.plain_field(n.format(self.offset).as_bytes());
        w.plain_field(n.format(self.line).as_bytes());
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
            w.field(text.as_bytes());
        }
        w.plain_field(n.format(self.plies).as_bytes());
        w.field(self.start_fen.as_bytes());
        // Written by the FEN writers (chess, xiangqi), whose alphabet holds
        // no comma, quote or line end; empty when nothing was replayed.
        w.plain_field(self.final_fen.as_bytes());
        w.plain_field(self.final_fen_ep_legal.as_bytes());
        for number in [
            self.rep_max_ep_always,
            self.threefold_ply_ep_always,
            self.rep_max_ep_legal,
            self.threefold_ply_ep_legal,
        ] {
            match number {
                Some(v) => w.plain_field(n.format(v).as_bytes()),
                None => w.plain_field(b""),
            }
        }
        w.plain_field(if self.missed_threefold {
            b"true"
        } else {
            b"false"
        });
        w.field(self.castling_conflict.as_bytes());
        w.plain_field(self.status.as_str().as_bytes());
        w.field(self.error.as_bytes());
        if self.is_plain_outcome() {
            // Most games: an open board, both sides with mating material,
            // no draw rule met, no conflict.
            w.plain_fields(b"none,,both,,,,,,,,,");
            return;
        }
        for word in [self.termination, self.board_result, self.mating_material] {
            w.plain_field(word.as_bytes());
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
            match number {
                Some(v) => w.plain_field(n.format(v).as_bytes()),
                None => w.plain_field(b""),
            }
        }
        w.plain_field(self.game_over.as_bytes());
        w.field(self.result_conflict.as_bytes());
    }
}
