//! `--where` conditions and the tag query: any condition text and any game
//! text never panic; a condition that parses is written back as given, and
//! evaluating it on the game's tags gives an answer either way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnmill::pgn::select::{Condition, TagQuery};

fuzz_target!(|data: &[u8]| {
    // The first line is the condition, the rest a game.
    let text = String::from_utf8_lossy(data);
    let (expr, game) = text.split_once('\n').unwrap_or((&text, ""));
    let Ok(cond) = expr.parse::<Condition>() else {
        return;
    };
    assert_eq!(cond.to_string(), expr);
    let query = TagQuery::new(vec!["WhiteElo".into()], vec![cond]);
    let values = query.read(game, 1);
    let _ = query.selects(&values);
});
