//! The xiangqi record readers (XQF, CBR, CBL, CBF, DhtmlXQ): arbitrary
//! bytes never panic or hang; every game read is written as PGN both ways
//! (ICCS unchecked, Chinese checked) and the report text replays to at
//! most the main line's length. The first byte picks the format, so one
//! target reaches every reader; seed it with the files of
//! testdata/xiangqi/records/ (prefixed with their format byte).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnmill::records::{Checked, read_records, report_text, write_pgn};
use pgnmill::replay::{ReplayOptions, replay_text};
use pgnmill::source::RecordFormat;
use pgnmill::xiangqi::notation::Notation;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let format = match pick % 5 {
        0 => RecordFormat::Xqf,
        1 => RecordFormat::CcBridgeRecord,
        2 => RecordFormat::CcBridgeLibrary,
        3 => RecordFormat::Cbf,
        _ => RecordFormat::DhtmlXq,
    };
    let Ok(games) = read_records(format, bytes) else {
        return;
    };
    for game in &games {
        let text = report_text(game);
        let record = replay_text(&text, 1, &ReplayOptions::default());
        assert!(record.plies as usize <= game.tree.main_line().len());
        let mut out = String::new();
        let written = write_pgn(game, &Checked(Notation::Chinese), "Chinese", &mut out);
        assert!(written.plies as usize <= game.tree.main_line().len());
    }
});
