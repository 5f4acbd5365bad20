//! DhtmlXQ (东萍 UBB) blocks of web pages and `.ubb` files
//! (docs/xiangqi-formats.md §3): `[DhtmlXQ_name]value[/DhtmlXQ_…]` tags,
//! a `binit` of 32 squares, a `movelist` of 4 digits a ply, branches
//! `move_P_S_B` that replace branch P's line from ply S, and comments per
//! (branch, ply). A page gives one game per block.

use super::error::RecordError;
use super::game::{RecordGame, place};
use super::text::{clean, comment};
use super::tree::{MoveTree, Point, RawMove};
use crate::pgn::ReaderNote;
use crate::source::{SNIFF_BYTES, decode_game, sniff};
use crate::xiangqi::board::Board;
use crate::xiangqi::fen;
use crate::xiangqi::types::Color;
use std::collections::HashMap;

const OPENERS: [&str; 3] = ["[DhtmlXQ]", "[DhtmlXQiFrame]", "[DhtmlXQHTML]"];
const CLOSERS: [&str; 3] = ["[/DhtmlXQ]", "[/DhtmlXQiFrame]", "[/DhtmlXQHTML]"];

/// Reads every DhtmlXQ block of a page, in the page's own encoding.
pub fn read_page(bytes: &[u8]) -> Result<Vec<RecordGame>, RecordError> {
    let bom = if bytes.starts_with(b"\xef\xbb\xbf") {
        3
    } else {
        0
    };
    let bytes = bytes.get(bom as usize..).unwrap_or_default();
    let encoding = sniff(
        bytes
            .get(..bytes.len().min(SNIFF_BYTES))
            .unwrap_or_default(),
    );
    let text = decode_game(bytes, encoding);
    let mut games = Vec::new();
    for (start, end, closed) in blocks(&text) {
        let block = text.get(start..end).unwrap_or_default();
        let (tags, unterminated) = tags(block);
        if tags.is_empty() {
            continue;
        }
        // The offset counts bytes of the page as UTF-8 (a GBK or Big5
        // page is decoded first), as for a UTF-16 PGN file.
        let offset = start as u64 + bom;
        let line = 1 + text.as_bytes()[..start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count() as u64;
        let cut = (!closed).then_some(unterminated.as_deref());
        games.push(read_block(&tags, offset, line, cut));
    }
    if games.is_empty() {
        return Err(RecordError::Unsupported(
            "no DhtmlXQ block with tags in the page".into(),
        ));
    }
    Ok(games)
}

/// (start, end, closed) of each block: from an opening tag to its closing
/// tag (or the next opening tag, or the end of the text; `closed` says
/// whether the closing tag was found). A page with tags but no opening tag
/// (a script string) is one block, which has no closing tag to miss.
fn blocks(text: &str) -> Vec<(usize, usize, bool)> {
    let mut starts: Vec<usize> = Vec::new();
    for o in OPENERS {
        starts.extend(text.match_indices(o).map(|(i, _)| i));
    }
    starts.sort_unstable();
    if starts.is_empty() {
        return match text.find("[DhtmlXQ_") {
            Some(i) => vec![(i, text.len(), true)],
            None => Vec::new(),
        };
    }
    let mut out = Vec::new();
    for (k, &s) in starts.iter().enumerate() {
        let limit = starts.get(k + 1).copied().unwrap_or(text.len());
        let seg = text.get(s..limit).unwrap_or_default();
        let end = CLOSERS.iter().filter_map(|c| seg.find(c)).min();
        // A block followed by another without its own closing tag is
        // sloppy, not cut: only the last can be cut short.
        let closed = end.is_some() || limit < text.len();
        out.push((s, end.map_or(limit, |e| s + e), closed));
    }
    out
}

/// The block's tags, name (lower case) → value; the first of a name wins.
/// A value runs to the next `[/DhtmlXQ_` whatever name that closes (real
/// files close `[DhtmlXQ_blacktime]` with `[/DhtmlXQ_time]`). Also the
/// name of the value that runs to the end of the block without a closing
/// tag, if one does: on a page cut short, the value that is cut.
fn tags(block: &str) -> (HashMap<String, String>, Option<String>) {
    let mut out = HashMap::new();
    let mut rest = block;
    while let Some(i) = rest.find("[DhtmlXQ_") {
        rest = &rest[i + "[DhtmlXQ_".len()..];
        let Some(close) = rest.find(']') else { break };
        let name = rest[..close].to_ascii_lowercase();
        rest = &rest[close + 1..];
        // No closing tag left: this value runs to the end, and no tag after
        // it could close either (stopping here keeps the scan linear).
        let closed = rest.find("[/DhtmlXQ_");
        let end = closed.unwrap_or(rest.len());
        let value = &rest[..end];
        rest = &rest[end..];
        if !name.starts_with('/') && name.len() <= 40 {
            out.entry(name.clone()).or_insert_with(|| unescape(value));
        }
        if closed.is_none() {
            return (out, Some(name));
        }
    }
    (out, None)
}

/// vschess's `\uXXXX` escapes.
fn unescape(v: &str) -> String {
    if !v.contains("\\u") {
        return v.to_string();
    }
    let mut out = String::with_capacity(v.len());
    let mut chars = v.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\\'
            && v[i..].starts_with("\\u")
            && let Some(hex) = v.get(i + 2..i + 6)
            && let Ok(n) = u32::from_str_radix(hex, 16)
            && let Some(ch) = char::from_u32(n)
        {
            out.push(ch);
            for _ in 0..5 {
                chars.next();
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// `xy` digits (y from black's side) as a point; `99` is off the board.
fn point(x: u8, y: u8) -> Point {
    Point {
        file: x,
        rank: if y <= 9 { 9 - y } else { 99 },
    }
}

/// A move list as read: its whole moves, and how many digits are left
/// over after the last of them (a list cut inside a move).
#[derive(Default)]
struct MoveList {
    moves: Vec<RawMove>,
    left_over: usize,
}

/// Four digits a ply, non-digits dropped first.
fn moves(v: &str) -> MoveList {
    let d: Vec<u8> = v
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    let chunks = d.chunks_exact(4);
    let left_over = chunks.remainder().len();
    let moves = chunks
        .map(|c| RawMove {
            from: point(c[0], c[1]),
            to: point(c[2], c[3]),
        })
        .collect();
    MoveList { moves, left_over }
}

/// The problem of a move list with `left_over` digits after its last
/// whole move, `what` naming the list.
fn cut_move(what: &str, left_over: usize) -> Option<String> {
    (left_over > 0).then(|| {
        format!("{what} ends inside a move ({left_over} digit(s) after its last whole move)")
    })
}

fn result(v: &str) -> &'static str {
    match v.trim() {
        "红胜" | "紅勝" => "1-0",
        "黑胜" | "黑勝" => "0-1",
        "和棋" => "1/2-1/2",
        _ => "*",
    }
}

struct Branch {
    parent: usize,
    /// 1-based ply its first move replaces.
    start: usize,
    /// Its nodes, for plies start, start + 1, …
    nodes: Vec<usize>,
}

/// The node reached after `plies` plies of branch `b` (the root for 0).
fn node_at(branches: &HashMap<usize, Branch>, mut b: usize, plies: usize) -> Option<usize> {
    if plies == 0 {
        return Some(MoveTree::ROOT);
    }
    // Each step goes to an ancestor whose start is earlier, so this ends.
    for _ in 0..=branches.len() {
        let br = branches.get(&b)?;
        if plies >= br.start {
            return br.nodes.get(plies - br.start).copied();
        }
        b = br.parent;
    }
    None
}

/// The game of one block, whose tags are `tags`; `cut` is `Some` for a
/// block that runs to the end of the page without its closing tag, with
/// the name of the value cut there if one is.
fn read_block(
    tags: &HashMap<String, String>,
    offset: u64,
    line: u64,
    cut: Option<Option<&str>>,
) -> RecordGame {
    let get = |n: &str| tags.get(n).map(|v| clean(v)).unwrap_or_default();
    let mut game = RecordGame::new("DhtmlXQ", offset, line);
    game.tags = vec![
        ("Event", get("event")),
        ("Site", get("place")),
        ("Date", get("date")),
        ("Round", get("round")),
        ("Red", get("red")),
        ("Black", get("black")),
        ("Title", get("title")),
        ("Opening", get("open")),
    ];
    game.result = result(&get("result"));
    let mut problems: Vec<String> = Vec::new();
    // Branch 0 is the main line, under either name.
    let main_name = if tags.contains_key("movelist") {
        "movelist"
    } else {
        "move_0_1_0"
    };
    // Whether the main line may have lost moves: a page cut before or
    // inside its move list (one cut after it loses what follows only).
    let mut main_line_cut = false;
    if let Some(value) = cut {
        // A page cut short (a download that broke off): its last value
        // may be cut too.
        problems.push(
            "the block ends with the page, before its closing tag: the page is cut short".into(),
        );
        main_line_cut = !tags.contains_key(main_name) || value == Some(main_name);
    }
    let fen_tag = get("fen");
    let binit = get("binit");
    let mut stored = Color::Red;
    if !fen_tag.is_empty() {
        match fen::parse(&fen_tag) {
            Ok(s) => {
                game.board = s.board;
                stored = s.turn;
            }
            Err(e) => problems.push(format!("[DhtmlXQ_fen] {fen_tag:?}: {e}")),
        }
    } else if !binit.is_empty() {
        let d: Vec<u8> = binit
            .bytes()
            .map(|b| if b.is_ascii_digit() { b - b'0' } else { 9 })
            .collect();
        let mut board = Board::empty();
        let mut overlaps = 0;
        for (i, c) in d.chunks_exact(2).take(32).enumerate() {
            if c[0] <= 8 && c[1] <= 9 && !place(&mut board, i, point(c[0], c[1])) {
                overlaps += 1;
            }
        }
        game.board = board;
        if overlaps > 0 {
            problems.push(format!(
                "binit puts {overlaps} piece(s) on an occupied point"
            ));
        }
    }
    // Branch 0 is the main line; the others in id order (a branch names
    // its parent, which a well-formed block defines first).
    let mut branches: HashMap<usize, Branch> = HashMap::new();
    let main = tags.get(main_name).map(|v| moves(v)).unwrap_or_default();
    main_line_cut |= main.left_over > 0;
    problems.extend(cut_move("the move list", main.left_over));
    let main = main.moves;
    let mut defs: Vec<(usize, usize, usize, MoveList)> = Vec::new();
    for (name, value) in tags {
        let Some(rest) = name.strip_prefix("move_") else {
            continue;
        };
        let n: Vec<usize> = rest.split('_').filter_map(|p| p.parse().ok()).collect();
        if let [p, s, b] = n[..]
            && b > 0
        {
            defs.push((b, p, s, moves(value)));
        }
    }
    defs.sort_by_key(|d| d.0);
    for (b, _, _, list) in &defs {
        problems.extend(cut_move(&format!("branch {b}'s move list"), list.left_over));
    }
    let mut at = MoveTree::ROOT;
    let mut nodes = Vec::with_capacity(main.len());
    for mv in main {
        at = game.tree.add_child(at, mv, String::new());
        nodes.push(at);
    }
    branches.insert(
        0,
        Branch {
            parent: 0,
            start: 1,
            nodes,
        },
    );
    let mut lost = 0;
    for (b, p, s, list) in defs {
        let mvs = list.moves;
        let fork = if s >= 1 && branches.contains_key(&p) && !branches.contains_key(&b) {
            node_at(&branches, p, s - 1)
        } else {
            None
        };
        let Some(mut at) = fork else {
            lost += 1;
            continue;
        };
        let mut nodes = Vec::with_capacity(mvs.len());
        for mv in mvs {
            at = game.tree.add_child(at, mv, String::new());
            nodes.push(at);
        }
        branches.insert(
            b,
            Branch {
                parent: p,
                start: s,
                nodes,
            },
        );
    }
    if lost > 0 {
        problems.push(format!(
            "{lost} branch(es) fork from a ply their parent line does not reach"
        ));
    }
    for (name, value) in tags {
        let Some(rest) = name.strip_prefix("comment") else {
            continue;
        };
        let n: Vec<usize> = rest.split('_').filter_map(|p| p.parse().ok()).collect();
        let (b, ply) = match n[..] {
            [ply] => (0, ply),
            [b, ply] => (b, ply),
            _ => continue,
        };
        let text = comment(&value.replace("||", "\n"));
        if text.is_empty() {
            continue;
        }
        if let Some(node) = node_at(&branches, b, ply).and_then(|id| game.tree.node_mut(id))
            && node.comment.is_empty()
        {
            node.comment = text;
        }
    }
    game.settle_turn(stored);
    if !problems.is_empty() {
        let why = format!("DhtmlXQ: {}", problems.join("; "));
        game.problem = Some(if main_line_cut {
            ReaderNote::Damaged(why)
        } else {
            ReaderNote::DamagedOffMainLine(why)
        });
    }
    game
}
