//! XQF (象棋演播室 / XQStudio): a 1024-byte header, then the move records
//! as a pre-order tree, lightly encrypted from version 11 on.
//! docs/xiangqi-formats.md §1 gives every byte.

use super::error::RecordError;
use super::game::{RecordGame, place};
use super::text::{comment, gbk, pascal_gbk};
use super::tree::{Break, MoveTree, Point, PreOrder, RawMove};
use crate::pgn::ReaderNote;
use crate::xiangqi::board::Board;
use crate::xiangqi::types::Color;

const HEADER: usize = 0x400;
const STREAM_KEY: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// The keys of versions 11 and later (§1.3); all zero for version 10.
#[derive(Default)]
struct Keys {
    xy: u8,
    xyf: u8,
    xyt: u8,
    rmk: u32,
    stream: [u8; 32],
}

/// `54·b² + 221` (mod 256): XQFRW's `((((b·b·3+9)·3+8)·2+1)·3+8)`.
fn square54(b: u8) -> u8 {
    let b = u32::from(b);
    ((54 * b * b + 221) & 0xFF) as u8
}

fn keys(h: &[u8]) -> Keys {
    let at = |i: usize| h.get(i).copied().unwrap_or(0);
    let (mask, sum, xy, xyf, xyt) = (at(3), at(0x0C), at(0x0D), at(0x0E), at(0x0F));
    let kxy = square54(xy).wrapping_mul(xy);
    let kxyf = square54(xyf).wrapping_mul(kxy);
    let kxyt = square54(xyt).wrapping_mul(kxyf);
    let rmk = ((u32::from(sum) * 256 + u32::from(xy)) % 32000) + 767;
    let k = [
        (sum & mask) | at(8),
        (xy & mask) | at(9),
        (xyf & mask) | at(10),
        (xyt & mask) | at(11),
    ];
    let mut stream = [0u8; 32];
    for (i, s) in stream.iter_mut().enumerate() {
        *s = STREAM_KEY[i] & k[i % 4];
    }
    Keys {
        xy: kxy,
        xyf: kxyf,
        xyt: kxyt,
        rmk,
        stream,
    }
}

/// Reads one XQF file; `Err` says why its header cannot be used (the file
/// is then not a game at all).
pub fn read(bytes: &[u8]) -> Result<RecordGame, RecordError> {
    if !bytes.starts_with(b"XQ") {
        return Err(RecordError::Unsupported(
            "not an XQF file (no `XQ` at its start)".into(),
        ));
    }
    if bytes.len() < HEADER {
        return Err(RecordError::Broken(format!(
            "XQF header cut short: {} bytes, 1024 needed",
            bytes.len()
        )));
    }
    let h = &bytes[..HEADER];
    let version = h[2];
    if version > 18 {
        return Err(RecordError::Unsupported(format!(
            "XQF version {version} is unknown (XQStudio writes 10 to 18)"
        )));
    }
    let encrypted = version >= 11;
    let keys = if encrypted {
        let sum = h[0x0C]
            .wrapping_add(h[0x0D])
            .wrapping_add(h[0x0E])
            .wrapping_add(h[0x0F]);
        if sum != 0 {
            return Err(RecordError::Broken(format!(
                "damaged XQF {version} header: its four key bytes do not add up to 0 mod 256"
            )));
        }
        keys(h)
    } else {
        Keys::default()
    };
    let mut game = RecordGame::new(format!("XQF {version}"), 0, 1);
    let mut overlaps = 0;
    let mut board = Board::empty();
    for (i, at) in table(&h[0x10..0x30], version, keys.xy).iter().enumerate() {
        if *at <= 89 && !place(&mut board, i, Point::from_xqf(*at)) {
            overlaps += 1;
        }
    }
    game.board = board;
    game.result = match h[0x33] {
        1 => "1-0",
        2 => "0-1",
        3 | 4 => "1/2-1/2",
        _ => "*",
    };
    let field = |at: usize, len: usize| pascal_gbk(&h[at..at + len]);
    game.tags = vec![
        ("Event", field(0xD0, 64)),
        ("Site", field(0x120, 16)),
        ("Date", field(0x110, 16)),
        ("Red", field(0x130, 16)),
        ("Black", field(0x140, 16)),
        ("Title", field(0x50, 64)),
        ("TimeControl", field(0x150, 64)),
        ("Annotator", field(0x1D0, 16)),
        ("Author", field(0x1E0, 16)),
    ];
    let mut body: Vec<u8> = bytes[HEADER..].to_vec();
    if encrypted {
        for (j, b) in body.iter_mut().enumerate() {
            *b = b.wrapping_sub(keys.stream[j % 32]);
        }
    }
    let damage = read_tree(&body, version, &keys, &mut game.tree);
    let who = if h[0x32] == 1 {
        Color::Black
    } else {
        Color::Red
    };
    game.settle_turn(who);
    if game.board == Board::empty() {
        // No piece at all (a blank template, or a header zeroed by
        // damage): nothing to replay, said as such rather than as a
        // position without kings.
        game.problem = Some(ReaderNote::NotAGame(
            "record 1: empty board (the XQF piece table places no piece): no game".into(),
        ));
    } else if let Some(cut) = damage {
        game.problem = Some(cut.note("XQF move records"));
    } else if overlaps > 0 {
        game.problem = Some(ReaderNote::DamagedOffMainLine(format!(
            "XQF piece table puts {overlaps} piece(s) on an occupied point"
        )));
    }
    Ok(game)
}

/// The piece table decoded (§1.4): one square byte per piece, > 89 off
/// the board.
fn table(raw: &[u8], version: u8, kxy: u8) -> [u8; 32] {
    let mut tmp = [0u8; 32];
    for (i, &b) in raw.iter().enumerate().take(32) {
        if version >= 12 {
            tmp[(usize::from(kxy) + 1 + i) % 32] = b;
        } else {
            tmp[i] = b;
        }
    }
    if version >= 11 {
        for t in tmp.iter_mut() {
            *t = t.wrapping_sub(kxy);
        }
    }
    tmp
}

/// Reads the records of `body` (already stream-decoded) into `tree`, in
/// pre-order (§1.5); record 0 is the dummy root, with the opening comment.
/// Returns where the records broke off (a file offset), if they did
/// before the tree was complete.
fn read_tree(body: &[u8], version: u8, keys: &Keys, tree: &mut MoveTree) -> Option<Break> {
    let mut at = 0usize;
    let mut order: Option<PreOrder> = None;
    let cut = |start: usize, order: &Option<PreOrder>| Break {
        at: (HEADER + start) as u64,
        main_line_read: order.as_ref().is_some_and(PreOrder::main_line_read),
    };
    loop {
        let Some(rec) = body.get(at..at + 4) else {
            return Some(cut(at, &order));
        };
        let (src, dst, tag) = (rec[0], rec[1], rec[2]);
        let start = at;
        at += 4;
        let (child, sibling, len) = if version <= 10 {
            let Some(len) = body.get(at..at + 4) else {
                return Some(cut(start, &order));
            };
            at += 4;
            let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]);
            (tag & 0xF0 != 0, tag & 0x0F != 0, u64::from(len))
        } else {
            let mut len = 0u64;
            if tag & 0x20 != 0 {
                let Some(l) = body.get(at..at + 4) else {
                    return Some(cut(start, &order));
                };
                at += 4;
                let raw = u32::from_le_bytes([l[0], l[1], l[2], l[3]]);
                len = u64::from(raw.wrapping_sub(keys.rmk));
            }
            (tag & 0x80 != 0, tag & 0x40 != 0, len)
        };
        let text = match usize::try_from(len)
            .ok()
            .and_then(|n| body.get(at..at.checked_add(n)?))
        {
            Some(t) => {
                at += t.len();
                comment(&gbk(t))
            }
            None => return Some(cut(start, &order)),
        };
        match &mut order {
            // The root's sibling flag means nothing.
            None => {
                if let Some(root) = tree.node_mut(MoveTree::ROOT) {
                    root.comment = text;
                }
                order = Some(if child {
                    PreOrder::new(MoveTree::ROOT)
                } else {
                    PreOrder::finished()
                });
            }
            Some(o) => {
                let mv = RawMove {
                    from: Point::from_xqf(src.wrapping_sub(0x18).wrapping_sub(keys.xyf)),
                    to: Point::from_xqf(dst.wrapping_sub(0x20).wrapping_sub(keys.xyt)),
                };
                o.add(tree, mv, text, child, sibling);
            }
        }
        if order.as_ref().is_some_and(PreOrder::complete) {
            return None;
        }
    }
}
