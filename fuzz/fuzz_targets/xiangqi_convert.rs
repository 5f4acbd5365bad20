//! `convert` of one xiangqi game: any text (tags, movetext with nested or
//! unbalanced variations, comments, escapes) must convert without a panic,
//! and so must its converted text; its variations are found with every
//! stretch inside the text, after its `(`, in order.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnmill::convert::{convert_game, find_variations};
use pgnmill::xiangqi::notation::Notation;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for v in find_variations(data, 0) {
        let mut at = v.open;
        for &(s, e) in &v.stretches {
            assert!(at < s && s < e && e <= data.len(), "{v:?}");
            at = e;
        }
    }
    for to in [Notation::Iccs, Notation::Chinese] {
        let once = convert_game(text, 1, to);
        let _ = convert_game(&once.text, 1, to);
    }
});
