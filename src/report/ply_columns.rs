//! The columns of `plies.csv` and `plies.parquet` (`--plies`, issue 33):
//! one row per main-line ply of every game, declared once here, as the
//! columns of `games.csv` are in `columns.rs`.

use super::column::{Column, ColumnType};
use super::column_table::column_group;
use super::columns::GameView;
use super::rows::FieldSink;
use crate::replay::ply_data::PlyRow;

/// A ply as the table reads it: where its game is and the row.
pub struct PlyView<'a> {
    pub source: &'a str,
    pub game: u64,
    pub row: PlyRow<'a>,
}

column_group! {
    /// The columns of `plies.csv` and `plies.parquet`, in order.
    PLY_COLUMNS, PLY_COLUMN_WRITERS, write_ply_fields,
    |p: &PlyView<'_>| {
        /// the input path, as in games.csv
        source: Text = text(p.source),
        /// the game's index within its source, as in games.csv (join on `source` and `game`)
        game: Int64 = int64(p.game),
        /// 1 for the first move of the game, whoever makes it (a game from a `[FEN]` with Black to move starts with Black's ply 1)
        ply: Int32 = int32(Some(p.row.ply)),
        /// the move: chess SAN as python-chess writes it (`Nbd7`, `exd8=Q#`, `O-O`, `--` for a null move); xiangqi WXF (`C2.5`)
        san: Text = plain_text(p.row.san),
        /// the move: chess UCI (`e1g1`; Chess960 castling king-takes-rook, `e1h1`; `0000` for a null move); xiangqi ICCS (`h2e2`)
        uci: Text = plain_text(p.row.uci),
        /// the position after the move; for chess with an en-passant square only where a capture is legal, as python-chess `Board.fen()` writes it
        fen: Text = plain_text(p.row.fen),
        /// the move's `[%clk]`: the mover's clock after it, in milliseconds
        clock_ms: Int32 = int32_signed(p.row.clock_ms()),
        /// the move's `[%emt]`: the time it took, in milliseconds
        emt_ms: Int32 = int32_signed(p.row.emt_ms()),
        /// the move's `[%eval]` in centipawns, White's point of view; empty for a mate
        eval_cp: Int32 = int32_signed(p.row.eval_cp()),
        /// the move's `[%eval #n]`: moves to mate, negative when Black mates, 0 for a mate on the board
        eval_mate: Int32 = int32_signed(p.row.eval_mate()),
        /// the search depth of `[%eval 0.17,20]`
        eval_depth: Int32 = int32_signed(p.row.eval_depth()),
        /// how many times the position after the move has occurred so far, this time included (ep-if-legal): 1 for a new position, 3 at a threefold
        repetition: Int32 = int32(Some(p.row.repetition)),
    }
}

/// Writes a game's ply rows, each ended, and returns how many (none for
/// a game without them: one not replayed, or damaged input).
pub fn write_game_plies<S: FieldSink>(game: &GameView<'_, '_>, w: &mut S) -> usize {
    let Some(rows) = game.record.ply_data.as_ref().and_then(|d| d.plies.as_ref()) else {
        return 0;
    };
    for row in rows.iter() {
        let view = PlyView {
            source: game.at.source,
            game: game.at.game,
            row,
        };
        write_ply_fields(&view, w);
        w.end_record();
    }
    rows.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ply_column_is_written_as_its_type() {
        crate::report::columns::tests::assert_types(&PLY_COLUMNS, PLY_COLUMN_WRITERS);
    }
}
