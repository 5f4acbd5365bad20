//! FEN, EPD and perft lists (`pgnmill fen`): whatever the text, under every
//! `--variant` rule, each line is either a row or counted as a comment,
//! `id` or `perft` line (nothing lost), no line panics, a row that is not
//! `ok` says why, and the FEN an `ok` row writes reads back, alone and by
//! the rules the row names (a FEN does not say whether it is Chess960), to
//! an `ok` row with the same FEN.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnmill::fenlist::{FenOptions, FileState, VariantRule, audit_line};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let lines = text.lines().count() as u64;
    for variant in [
        VariantRule::Auto,
        VariantRule::Chess,
        VariantRule::Chess960,
        VariantRule::Xiangqi,
    ] {
        let opts = FenOptions { variant };
        let mut state = FileState::default();
        let mut rows = 0u64;
        for (n, line) in (1..).zip(text.lines()) {
            let Some(row) = audit_line("fuzz", n, line, &opts, &mut state) else {
                continue;
            };
            rows += 1;
            if row.status != "ok" {
                assert!(
                    !row.error.is_empty(),
                    "{variant:?} {line:?}: no reason given"
                );
                continue;
            }
            let named = match row.variant {
                "chess960" => VariantRule::Chess960,
                "xiangqi" => VariantRule::Xiangqi,
                _ => VariantRule::Chess,
            };
            let opts = FenOptions { variant: named };
            let again = audit_line("fuzz", 1, &row.fen, &opts, &mut FileState::default())
                .unwrap_or_else(|| panic!("{variant:?}: own FEN {:?} read as no record", row.fen));
            assert_eq!(
                again.status, "ok",
                "{variant:?}: own FEN {:?}: {}",
                row.fen, again.error
            );
            assert_eq!(again.fen, row.fen, "{variant:?}: FEN of {line:?} read back");
        }
        let others = state.comment_lines + state.id_lines + state.perft_lines;
        assert_eq!(
            rows + others,
            lines,
            "{variant:?}: a line neither a row nor counted"
        );
    }
});
