//! Comments, their commands and the per-ply data of a game: any bytes,
//! read as a game with clocks and per-ply rows asked for, never panic; the
//! rows are as many as the plies replayed; any cut of the bytes read as a
//! move's comments, and any text read as commands or as a `[TimeControl]`
//! value, gives an answer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnmill::pgn::commands::MoveCommands;
use pgnmill::pgn::comments::move_comments;
use pgnmill::pgn::time_control::TimeControl;
use pgnmill::replay::ply_data::PlyDataOptions;
use pgnmill::replay::{ReplayOptions, replay_game};

fuzz_target!(|data: &[u8]| {
    let options = ReplayOptions {
        ply_data: PlyDataOptions {
            clocks: true,
            plies: true,
        },
        ..ReplayOptions::default()
    };
    let record = replay_game(data, 1, &options);
    let plies = record.ply_data.as_ref().and_then(|d| d.plies.as_ref());
    assert_eq!(plies.map_or(0, |p| p.len()), record.plies as usize);
    let mut scratch = Vec::new();
    let half = data.len() / 2;
    let _ = MoveCommands::read_comments(move_comments(data, half / 2, half), &mut scratch);
    let _ = MoveCommands::read(data);
    let _ = TimeControl::parse(&String::from_utf8_lossy(data));
});
