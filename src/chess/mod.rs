//! The chess rules kernel: squares, bitboards, attacks, positions, FEN, SAN,
//! UCI, Zobrist keys and perft. It knows nothing of PGN files or reports.
//!
//! The flow for one game: [`Setup::parse`] reads a FEN as written,
//! [`Position::from_setup`] checks it against the rules (dropping and
//! reporting castling rights the board contradicts, [`CastlingAudit`]), then
//! [`Position::parse_san`] and [`Position::play`] replay the moves while the
//! two position keys ([`Position::key_ep_always`], [`Position::key_ep_legal`])
//! are kept up to date.

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod castling;
pub mod fen;
pub mod material;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod problems;
pub mod san;
pub mod setup;
pub mod square;
pub mod types;
pub mod uci;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use castling::{CastlingAudit, CastlingMode};
pub use fen::CastlingNotation;
pub use moves::{Move, MoveKind, MoveList};
pub use perft::{divide, perft};
pub use position::{EpMode, Position, PositionError};
pub use problems::{Problem, problems};
pub use san::SanError;
pub use setup::{FenError, Setup};
pub use square::Square;
pub use types::{Color, Piece, Role};
