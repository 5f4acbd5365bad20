//! CBF, CCBridge's XML record (docs/xiangqi-formats.md §2.4): a `<Head>` of
//! named fields with a full FEN, then a `<MoveList>` of
//! `<Move value="xy-xy"/>`, comments as CDATA inside a move. The XML is
//! read with quick-xml; no public CBF holds variations, so the list is
//! read as one line.

use super::error::RecordError;
use super::game::RecordGame;
use super::text::{clean, comment};
use super::tree::{MoveTree, Point, RawMove};
use crate::xiangqi::fen;
use quick_xml::events::Event;

/// `"77-47"`: file then row from black's side, twice.
fn parse_move(value: &str) -> Option<RawMove> {
    let b = value.trim().as_bytes();
    let digit = |i: usize| b.get(i).filter(|c| c.is_ascii_digit()).map(|c| c - b'0');
    if b.len() != 5 || b[2] != b'-' {
        return None;
    }
    let point = |x: u8, y: u8| Point {
        file: x,
        rank: 9 - y,
    };
    Some(RawMove {
        from: point(digit(0)?, digit(1)?),
        to: point(digit(3)?, digit(4)?),
    })
}

/// The root element of every CBF record (docs/xiangqi-formats.md §2.4).
const ROOT: &[u8] = b"ChineseChessRecord";

pub fn read(bytes: &[u8]) -> Result<RecordGame, RecordError> {
    let mut reader = quick_xml::Reader::from_reader(bytes);
    // Bytes whose first element is not the record's are no CBF record,
    // however little else there is to read (an empty or text file).
    let mut root_seen = false;
    let mut game = RecordGame::new("CBF", 0, 1);
    let mut head: Vec<(String, String)> = Vec::new();
    let mut in_head = false;
    let mut field: Option<String> = None;
    let mut value = String::new();
    // The node a CDATA comment belongs to (the root for the `00-00` move).
    let mut node: Option<usize> = None;
    let mut last = MoveTree::ROOT;
    // Moves after one that cannot be read are not read either.
    let mut bad_moves = 0u32;
    let mut buf = Vec::new();
    loop {
        let event = reader.read_event_into(&mut buf).map_err(|e| {
            let why = format!("CBF XML broken at byte {}: {e}", reader.buffer_position());
            // Broken XML in a CBF record is a damaged record (cut short,
            // most often); before its root, it is no CBF record at all.
            if root_seen {
                RecordError::Broken(why)
            } else {
                RecordError::Unsupported(why)
            }
        })?;
        if let Event::Start(e) | Event::Empty(e) = &event
            && !root_seen
        {
            if e.local_name().as_ref() != ROOT {
                let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                return Err(RecordError::Unsupported(format!(
                    "not a CBF record: its first element is <{name}>, not <ChineseChessRecord>"
                )));
            }
            root_seen = true;
        }
        match event {
            Event::Eof if !root_seen => {
                return Err(RecordError::Unsupported(
                    "not a CBF record: no <ChineseChessRecord> element".into(),
                ));
            }
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"Move" => {
                let v = e
                    .try_get_attribute("value")
                    .ok()
                    .flatten()
                    .and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()))
                    .unwrap_or_default();
                if bad_moves > 0 {
                    node = None;
                } else if v.trim() == "00-00" && last == MoveTree::ROOT {
                    node = Some(MoveTree::ROOT);
                } else if let Some(mv) = parse_move(&v) {
                    last = game.tree.add_child(last, mv, String::new());
                    node = Some(last);
                } else {
                    bad_moves += 1;
                    node = None;
                }
            }
            Event::Start(e) => {
                let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                if name == "Head" {
                    in_head = true;
                } else if in_head {
                    field = Some(name);
                    value.clear();
                }
            }
            Event::End(e) => {
                if e.local_name().as_ref() == b"Head" {
                    in_head = false;
                } else if let Some(name) = field.take() {
                    head.push((name, clean(&value)));
                } else if e.local_name().as_ref() == b"Move" {
                    node = None;
                }
            }
            Event::Text(t) if field.is_some() => {
                value.push_str(&t.decode().unwrap_or_default());
            }
            Event::GeneralRef(r) if field.is_some() => {
                let name = r.decode().unwrap_or_default();
                if let Ok(Some(c)) = r.resolve_char_ref() {
                    value.push(c);
                } else if let Some(s) = quick_xml::escape::resolve_predefined_entity(&name) {
                    value.push_str(s);
                }
            }
            Event::CData(c) => {
                let text = comment(&String::from_utf8_lossy(&c));
                if let Some(n) = node.and_then(|n| game.tree.node_mut(n)) {
                    if !n.comment.is_empty() {
                        n.comment.push('\n');
                    }
                    n.comment.push_str(&text);
                } else if field.is_some() {
                    value.push_str(&text);
                }
            }
            _ => {}
        }
        buf.clear();
    }
    let get = |name: &str| {
        head.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    game.tags = vec![
        ("Event", get("Contest")),
        ("Site", get("Site")),
        ("Date", get("Date")),
        ("Round", get("Round")),
        ("Red", get("Red")),
        ("Black", get("Black")),
        ("Title", get("Name")),
        ("ECCO", get("ECCO")),
    ];
    game.result = match get("RecordResult").trim() {
        "1" => "1-0",
        "2" => "0-1",
        "3" | "4" => "1/2-1/2",
        _ => "*",
    };
    let fen_text = get("FEN");
    let stored = if fen_text.trim().is_empty() {
        crate::xiangqi::types::Color::Red
    } else {
        let setup = fen::parse(&fen_text)
            .map_err(|e| RecordError::Broken(format!("CBF FEN {fen_text:?}: {e}")))?;
        game.board = setup.board;
        game.halfmove_clock = setup.halfmove_clock;
        game.move_number = setup.fullmove_number;
        setup.turn
    };
    game.settle_turn(stored);
    if bad_moves > 0 {
        game.problem = Some(crate::pgn::ReaderNote::Damaged(
            "CBF: a <Move> value is not `xy-xy`; the moves from it on are not read".to_string(),
        ));
    }
    Ok(game)
}
