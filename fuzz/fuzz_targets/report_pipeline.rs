//! The whole report pipeline over arbitrary bytes, through the library as
//! the `report` command runs it: sniff the encoding, split, decode, replay
//! and format each game. Every span becomes exactly one CSV row, and the
//! repetition counts obey the invariants of docs/reports.md (ep-always distinguishes
//! more positions than ep-if-legal, so it never counts more).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnmill::pgn::split_all;
use pgnmill::replay::{ReplayOptions, replay_game};
use pgnmill::report::columns::OptionalColumns;
use pgnmill::report::{ChunkBuilder, ChunkPlan, CsvChunk, CsvFormat, FormattedChunk, GameLocation};
use pgnmill::source::{SNIFF_BYTES, decode_game, sniff};
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let encoding = sniff(&data[..data.len().min(SNIFF_BYTES)]);
    let spans = split_all(data, encoding.is_dbcs());
    for moves in [false, true] {
        let options = ReplayOptions {
            moves,
            variant: None,
            ..ReplayOptions::default()
        };
        let plan = ChunkPlan {
            rows: vec![Arc::new(CsvFormat::new(OptionalColumns {
                moves,
                ..OptionalColumns::default()
            }))],
            ..ChunkPlan::default()
        };
        let mut rows = ChunkBuilder::new(FormattedChunk::default(), &plan, spans.len());
        for (i, span) in spans.iter().enumerate() {
            let raw = span.slice(data, 0).expect("span inside input");
            let text = decode_game(raw, encoding);
            let r = replay_game(text.as_bytes(), span.line, &options);
            assert!(
                r.rep_ep_always.max <= r.rep_ep_legal.max,
                "rep_max_ep_always {} > rep_max_ep_legal {}",
                r.rep_ep_always.max,
                r.rep_ep_legal.max
            );
            if let Some(a) = r.rep_ep_always.threefold_ply {
                let l = r.rep_ep_legal.threefold_ply;
                assert!(
                    l.is_some_and(|l| l <= a),
                    "threefold ep-always at {a}, ep-legal at {l:?}"
                );
            }
            if !moves {
                assert!(r.moves.is_none(), "moves column filled without --moves");
            }
            let at = GameLocation {
                source: "fuzz",
                game: 1 + i as u64,
                offset: span.offset,
                line: span.line,
            };
            rows.push(at, &r, *span, &[], &text)
                .expect("formatting rows into memory cannot fail");
        }
        let chunk = rows
            .finish()
            .expect("formatting rows into memory cannot fail");
        assert_eq!(chunk.games.len(), spans.len());
        let csv_rows = chunk
            .encoded
            .first()
            .and_then(|e| e.as_ref())
            .and_then(|e| e.downcast_ref::<CsvChunk>())
            .expect("the chunk's CSV rows");
        let mut rows = 0;
        for row in csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(&csv_rows.games[..])
            .records()
        {
            row.expect("games.csv rows parse");
            rows += 1;
        }
        assert_eq!(rows, spans.len(), "one games.csv row per span");
    }
});
