//! Per-ply rows and clock facts of xiangqi games (issue 33) through the
//! library: WXF in `san`, ICCS in `uci`, pyffish's FEN after each move,
//! repetition counts, and the commands of the comments as python-chess
//! reads them (testdata/gen/xiangqi_plies_expected.py writes the games,
//! testdata/xiangqi/clocks-plies.pgn, and their expected values).

use crate::support::root;

use pgnmill::pgn::Batches;
use pgnmill::replay::ply_data::PlyDataOptions;
use pgnmill::replay::{ReplayOptions, replay_text};
use pgnmill::source::{Input, ReadOptions, decode_game};
use serde_json::{Value, json};

fn number(v: Option<i32>) -> Value {
    v.map_or(Value::Null, Value::from)
}

#[test]
fn xiangqi_rows_match_pyffish_and_python_chess() {
    let expected: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(root().join("testdata/xiangqi/clocks-plies-expected.json"))
            .expect("expected file"),
    )
    .expect("json");
    let options = ReplayOptions {
        ply_data: PlyDataOptions {
            clocks: true,
            plies: true,
        },
        ..ReplayOptions::default()
    };
    let path = root().join("testdata/xiangqi/clocks-plies.pgn");
    let batches = Batches::open(&Input::file(path), &ReadOptions::default()).expect("open");
    let encoding = batches.encoding();
    let mut games = 0;
    for batch in batches {
        let batch = batch.expect("batch");
        for span in &batch.games {
            let text = decode_game(batch.game_bytes(span), encoding);
            let record = replay_text(&text, span.line, &options);
            let want = &expected[games];
            games += 1;
            let id = &want["id"];
            assert_eq!(record.variant, "xiangqi", "{id}: {}", record.error);
            assert_eq!(
                Value::from(record.plies),
                want["plies"],
                "{id}: {}",
                record.error
            );
            let data = record.ply_data.as_deref().expect("ply data");
            let rows = data.plies.as_ref().expect("rows");
            for (got, want) in rows.iter().zip(want["rows"].as_array().expect("rows")) {
                let at = format!("{id} ply {}", got.ply);
                assert_eq!(Value::from(got.ply), want["ply"], "{at}");
                if !want["san"].is_null() {
                    assert_eq!(got.san, want["san"], "{at}");
                }
                assert_eq!(got.uci, want["uci"], "{at}");
                assert_eq!(got.fen, want["fen"], "{at}");
                let commands = [
                    number(got.clock_ms()),
                    number(got.emt_ms()),
                    number(got.eval_cp()),
                    number(got.eval_mate()),
                    number(got.eval_depth()),
                ];
                let names = ["clock_ms", "emt_ms", "eval_cp", "eval_mate", "eval_depth"];
                assert_eq!(
                    commands.to_vec(),
                    names.map(|n| want[n].clone()).to_vec(),
                    "{at}"
                );
                assert_eq!(Value::from(got.repetition), want["repetition"], "{at}");
            }
            let c = data.clocks.as_ref().expect("clocks");
            let side = |s: &pgnmill::replay::ply_data::SideClocks| {
                json!({"first": number(s.first), "last": number(s.last), "min": number(s.min),
                       "time_used": number(s.time_used)})
            };
            let got = json!({
                "white": side(&c.white), "black": side(&c.black),
                "clock_plies": c.clock_plies, "eval_plies": c.eval_plies,
                "eval_last_cp": number(c.eval_last_cp()),
                "eval_last_mate": number(c.eval_last_mate()),
            });
            assert_eq!(got, want["clocks"], "{id}");
            assert_eq!(c.clock_at_threefold_claim, None, "{id}");
            assert_eq!(
                (c.time_base(), c.time_increment()),
                (Some(600_000), Some(5_000))
            );
        }
    }
    assert_eq!(games, expected.len());
}
