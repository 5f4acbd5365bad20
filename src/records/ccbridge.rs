//! CCBridge (象棋桥): `.cbr` records and `.cbl` libraries of records. All
//! text is UTF-16LE in fixed-size fields; docs/xiangqi-formats.md §2.1–2.3.

use super::error::RecordError;
use super::game::RecordGame;
use super::text::{comment, utf16le, utf16le_field};
use super::tree::{Break, MoveTree, Point, PreOrder, RawMove};
use crate::pgn::ReaderNote;
use crate::source::{CBL_MAGIC, CBR_MAGIC};
use crate::xiangqi::board::Board;
use crate::xiangqi::types::{Color, Piece, Role, Square};

/// Bytes up to the root's flags; the moves follow them.
const FIXED: usize = 2214;
/// Records of a library start on blocks of this size.
const BLOCK: usize = 4096;

/// A board index (row 0 = black's back rank) as an ICCS point.
fn point(i: u8) -> Point {
    if i < 90 {
        Point {
            file: i % 9,
            rank: 9 - i / 9,
        }
    } else {
        // Off the board: kept, so that the move is reported.
        Point {
            file: i % 9,
            rank: i,
        }
    }
}

fn piece(b: u8) -> Option<Piece> {
    let color = match b >> 4 {
        1 => Color::Red,
        2 => Color::Black,
        _ => return None,
    };
    let role = match b & 0x0F {
        1 => Role::Rook,
        2 => Role::Horse,
        3 => Role::Elephant,
        4 => Role::Advisor,
        5 => Role::King,
        6 => Role::Cannon,
        7 => Role::Pawn,
        _ => return None,
    };
    Some(Piece::new(color, role))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at + 4)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// Reads one CBR record image that starts at byte `offset` of its file.
pub fn read_record(bytes: &[u8], offset: u64) -> Result<RecordGame, RecordError> {
    if !bytes.starts_with(CBR_MAGIC) {
        return Err(RecordError::Unsupported(
            "not a CCBridge record (no `CCBridge Record` magic)".into(),
        ));
    }
    if bytes.len() < FIXED + 4 {
        return Err(RecordError::Broken(format!(
            "CCBridge record cut short: {} bytes, its header needs {}",
            bytes.len(),
            FIXED + 4
        )));
    }
    let field = |at: usize, len: usize| utf16le_field(&bytes[at..at + len]);
    let mut game = RecordGame::new("CBR", offset, 1);
    game.tags = vec![
        ("Event", field(692, 64)),
        ("Site", field(948, 64)),
        ("Date", field(884, 64)),
        ("Round", field(756, 64)),
        ("Red", field(1076, 64)),
        ("Black", field(1300, 64)),
        ("Title", field(180, 128)),
    ];
    game.result = match bytes[2076] {
        1 => "1-0",
        2 => "0-1",
        3 => "1/2-1/2",
        _ => "*",
    };
    let stored = if bytes[2112] == 2 {
        Color::Black
    } else {
        Color::Red
    };
    let mut board = Board::empty();
    for (i, &b) in bytes[2120..2210].iter().enumerate() {
        let p = point(i as u8);
        if let (Some(pc), Some(sq)) = (piece(b), Square::new(p.file, p.rank)) {
            board.set(sq, Some(pc));
        }
    }
    game.board = board;
    let intro = u32_at(bytes, FIXED).unwrap_or(0);
    let mut at = FIXED + 4;
    let mut damage = None;
    if intro & 0x04 != 0 {
        match read_comment(bytes, &mut at) {
            Some(c) => {
                if let Some(root) = game.tree.node_mut(MoveTree::ROOT) {
                    root.comment = c;
                }
            }
            None => {
                damage = Some(Break {
                    at: offset + at as u64,
                    main_line_read: false,
                })
            }
        }
    }
    if damage.is_none() && intro & 0x01 == 0 {
        damage = read_tree(bytes, at, offset, &mut game.tree);
    }
    game.settle_turn(stored);
    if game.kingless() && game.tree.moves() == 0 {
        game.problem = Some(ReaderNote::NotAGame(
            "CCBridge chapter-heading record (empty board, a comment): no game".into(),
        ));
    } else if let Some(cut) = damage {
        game.problem = Some(cut.note("CCBridge move records"));
    }
    Ok(game)
}

/// An int32 byte length and that much UTF-16LE text at `*at`.
fn read_comment(bytes: &[u8], at: &mut usize) -> Option<String> {
    let len = usize::try_from(u32_at(bytes, *at)?).ok()?;
    let text = bytes.get(*at + 4..(*at + 4).checked_add(len)?)?;
    *at += 4 + len;
    Some(comment(&utf16le(text)))
}

/// The move records from `at`, pre-order like XQF's but without a dummy
/// root and with the "end of line" flag inverted (§2.1). Returns where
/// they broke off (a file offset, the record starting at `offset`), if
/// before the tree was complete.
fn read_tree(bytes: &[u8], mut at: usize, offset: u64, tree: &mut MoveTree) -> Option<Break> {
    let mut order = PreOrder::new(MoveTree::ROOT);
    while !order.complete() {
        let start = at;
        let cut = |order: &PreOrder| Break {
            at: offset + start as u64,
            main_line_read: order.main_line_read(),
        };
        let Some(rec) = bytes.get(at..at + 4) else {
            return Some(cut(&order));
        };
        let (flags, from, to) = (rec[0], rec[2], rec[3]);
        // A zero record is block padding: the tree ended without saying so.
        if rec == [0, 0, 0, 0] {
            return Some(cut(&order));
        }
        at += 4;
        let mut text = String::new();
        if flags & 0x04 != 0 {
            match read_comment(bytes, &mut at) {
                Some(c) => text = c,
                None => return Some(cut(&order)),
            }
        }
        let mv = RawMove {
            from: point(from),
            to: point(to),
        };
        order.add(tree, mv, text, flags & 0x01 == 0, flags & 0x02 != 0);
    }
    None
}

/// Reads an uncompressed library: one game per record found at a block
/// boundary of the record area (§2.2). Empty slots give nothing; a record
/// that cannot be read gives a damaged game, so that it still has a row.
pub fn read_library(bytes: &[u8]) -> Result<Vec<RecordGame>, RecordError> {
    if !bytes.starts_with(CBL_MAGIC) {
        return Err(RecordError::Unsupported(
            "not a CCBridge library (no `CCBridgeLibrary` magic)".into(),
        ));
    }
    let capacity = u32_at(bytes, 60).ok_or_else(|| {
        RecordError::Broken("CCBridge library cut short: no slot count".to_string())
    })?;
    let data = usize::try_from(capacity)
        .ok()
        .and_then(|c| c.checked_mul(276))
        .and_then(|s| s.checked_add(66624))
        .ok_or_else(|| {
            RecordError::Broken(format!(
                "CCBridge library: slot count {capacity} is impossible"
            ))
        })?;
    if data > bytes.len() {
        return Err(RecordError::Broken(format!(
            "CCBridge library cut short: {} bytes, its {capacity} slots need {data} before the records",
            bytes.len()
        )));
    }
    let starts: Vec<usize> = (data..bytes.len())
        .step_by(BLOCK)
        .filter(|&at| bytes.get(at..).is_some_and(|b| b.starts_with(CBR_MAGIC)))
        .collect();
    let mut games = Vec::with_capacity(starts.len());
    for (i, &at) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(bytes.len());
        let record = bytes.get(at..end).unwrap_or_default();
        let game = match read_record(record, at as u64) {
            Ok(mut g) => {
                g.format = "CBL".into();
                g
            }
            Err(why) => {
                let mut g = RecordGame::new("CBL", at as u64, 1);
                g.problem = Some(ReaderNote::Damaged(why.to_string()));
                g.start_read = false;
                g
            }
        };
        games.push(game);
    }
    Ok(games)
}
