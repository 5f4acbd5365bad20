//! The PGN splitter and tokenizer over arbitrary bytes. The first byte sets
//! a window size; the rest is the input. Every span is inside the input,
//! spans are in order and do not overlap, splitting in windows (as the
//! reader does, doubling a window that holds no finished game) gives the
//! same spans as splitting the whole, every game's tags and tokens can
//! be walked without a panic, and (for UTF-8 and single-byte text) the
//! spans are those the plain reference splitter of
//! `tests/pgn/split_reference.rs` finds: a game swallowed by a rule the
//! splitter's two paths share wrongly shows as a difference.
#![no_main]

#[path = "../../tests/pgn/split_reference.rs"]
mod split_reference;

use libfuzzer_sys::fuzz_target;
use pgnmill::pgn::{GameSpan, GameText, Position, split_all, split_window};

fn windowed(data: &[u8], first: usize, dbcs: bool) -> Vec<GameSpan> {
    let mut out = Vec::new();
    let mut pos = Position::START;
    let mut size = first;
    loop {
        let start = pos.offset as usize;
        let end = start.saturating_add(size).min(data.len());
        let is_final = end == data.len();
        let before = out.len();
        let next = split_window(&data[start..end], pos, is_final, dbcs, &mut out);
        assert!(next.offset >= pos.offset, "split_window went backwards");
        assert!(
            next.offset as usize <= end,
            "split_window returned past its window"
        );
        if is_final {
            assert_eq!(
                next.offset as usize,
                data.len(),
                "final window not finished"
            );
            return out;
        }
        if out.len() > before || next.offset > pos.offset {
            pos = next;
            size = first;
        } else {
            size = size.saturating_mul(2);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&w, input)) = data.split_first() else {
        return;
    };
    let reference = split_reference::split(input);
    let found: Vec<split_reference::Span> = split_all(input, false)
        .iter()
        .map(|s| (s.offset, s.line, s.len))
        .collect();
    assert_eq!(
        found, reference,
        "the spans differ from the reference splitter's"
    );
    for dbcs in [false, true] {
        let spans = split_all(input, dbcs);
        let mut prev_end = 0u64;
        for s in &spans {
            assert!(s.len > 0, "empty span {s:?}");
            assert!(
                s.offset >= prev_end,
                "span {s:?} overlaps or is out of order"
            );
            assert!(s.end() <= input.len() as u64, "span {s:?} past the input");
            assert!(s.line >= 1);
            prev_end = s.end();
            let bytes = s.slice(input, 0).expect("span inside input");
            let game = GameText::new(bytes, s.line);
            for tag in game.tags() {
                let _ = tag.value();
            }
            let mut line = s.line;
            let tokens = game.movetext();
            for token in tokens.clone() {
                let start = token.text.as_ptr() as usize;
                let base = bytes.as_ptr() as usize;
                assert!(start >= base && start + token.text.len() <= base + bytes.len());
                let token_line = tokens.line_at(token.offset);
                assert!(token_line >= line, "token lines go backwards");
                line = token_line;
            }
        }
        let window = 1 + (w as usize % 64);
        assert_eq!(
            windowed(input, window, dbcs),
            spans,
            "windowed split (window {window}) differs"
        );
    }
});
