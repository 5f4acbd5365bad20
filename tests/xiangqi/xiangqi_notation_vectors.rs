//! Notation against the pyffish-made vectors (testdata/xiangqi/notation,
//! made with pyffish and cchess; see its README for provenance).
//!
//! For every legal move of 104 positions: each notation column parses to the
//! row's ICCS move, the writers produce the default columns, and writing then
//! reading gives the move back. The legal moves of a position are exactly the
//! rows with its FEN, so ambiguity is judged on the true legal move set.

use crate::notation_support::{Row, VectorBoard, full_width_digits, load_vectors};
use pgnmill::xiangqi::notation::{Notation, parse_move, parse_move_as, write_move};
use pgnmill::xiangqi::types::Move;

/// A column name, how to get its text (possibly transformed), and its notation.
type ParseColumn = (&'static str, fn(&Row) -> String, Notation);
/// A column name, its expected text, and the notation that writes it.
type WriteColumn = (&'static str, fn(&Row) -> &str, Notation);

const NOTATIONS: [Notation; 4] = [
    Notation::Iccs,
    Notation::Wxf,
    Notation::Chinese,
    Notation::ChineseTraditional,
];

/// Checks `check` on every row, prints the pass count, and fails listing the
/// first failures.
fn every_row(
    label: &str,
    rows: &[Row],
    boards: &std::collections::HashMap<String, VectorBoard>,
    mut check: impl FnMut(&Row, &VectorBoard) -> Result<(), String>,
) {
    let mut failures = Vec::new();
    for row in rows {
        if let Err(e) = check(row, &boards[&row.fen]) {
            failures.push(format!("{} {} [{}]: {e}", row.fen, row.iccs, row.case));
        }
    }
    eprintln!(
        "{label}: {} / {} rows pass",
        rows.len() - failures.len(),
        rows.len()
    );
    assert!(
        failures.is_empty(),
        "{label}: {} failures, first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(15)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

fn expect_parse(
    board: &VectorBoard,
    text: &str,
    notation: Option<Notation>,
    want: &str,
) -> Result<(), String> {
    let got = match notation {
        Some(n) => parse_move_as(board, text, n),
        None => parse_move(board, text),
    };
    match got {
        Ok(m) if m.to_string() == want => Ok(()),
        Ok(m) => Err(format!("{text} parsed to {m}, expected {want}")),
        Err(e) => Err(format!("{e}")),
    }
}

#[test]
fn every_column_parses_to_the_iccs_move() {
    let (rows, boards) = load_vectors();
    let columns: [ParseColumn; 7] = [
        ("iccs", |r| r.iccs.clone(), Notation::Iccs),
        ("wxf_pyffish", |r| r.wxf_pyffish.clone(), Notation::Wxf),
        ("wxf_official", |r| r.wxf_official.clone(), Notation::Wxf),
        ("chinese", |r| r.chinese.clone(), Notation::Chinese),
        (
            "chinese_trad",
            |r| r.chinese_trad.clone(),
            Notation::ChineseTraditional,
        ),
        ("chinese_alt", |r| r.chinese_alt.clone(), Notation::Chinese),
        (
            "chinese (full-width black digits)",
            |r| full_width_digits(&r.chinese),
            Notation::Chinese,
        ),
    ];
    for (label, column, notation) in columns {
        // Auto-detected, and with the notation given.
        every_row(&format!("parse {label}"), &rows, &boards, |row, board| {
            expect_parse(board, &column(row), None, &row.iccs)
        });
        every_row(
            &format!("parse_as {label}"),
            &rows,
            &boards,
            |row, board| expect_parse(board, &column(row), Some(notation), &row.iccs),
        );
    }
}

#[test]
fn iccs_upper_case_with_hyphen_parses() {
    let (rows, boards) = load_vectors();
    every_row("parse ICCS H2-E2 form", &rows, &boards, |row, board| {
        let b = row.iccs.to_ascii_uppercase();
        let text = format!("{}-{}", &b[..2], &b[2..]);
        expect_parse(board, &text, None, &row.iccs)
    });
}

#[test]
fn wxf_variants_parse() {
    // Lower case (some files write black's moves so), full-width forms as in
    // wukong's xqdb15 file, and a trailing check mark.
    let (rows, boards) = load_vectors();
    every_row("parse WXF lower case", &rows, &boards, |row, board| {
        expect_parse(
            board,
            &row.wxf_official.to_ascii_lowercase(),
            None,
            &row.iccs,
        )
    });
    every_row("parse WXF full-width", &rows, &boards, |row, board| {
        let fw: String = row
            .wxf_pyffish
            .chars()
            .map(|c| char::from_u32(c as u32 + 0xFEE0).unwrap_or(c))
            .collect();
        expect_parse(board, &fw, None, &row.iccs)
    });
    every_row("parse WXF with check mark", &rows, &boards, |row, board| {
        expect_parse(board, &format!("{}+", row.wxf_official), None, &row.iccs)
    });
    every_row(
        "parse Chinese with check mark",
        &rows,
        &boards,
        |row, board| expect_parse(board, &format!("{}+", row.chinese), None, &row.iccs),
    );
}

#[test]
fn writers_give_the_default_columns() {
    let (rows, boards) = load_vectors();
    let columns: [WriteColumn; 4] = [
        ("iccs", |r| &r.iccs, Notation::Iccs),
        ("wxf_official", |r| &r.wxf_official, Notation::Wxf),
        ("chinese", |r| &r.chinese, Notation::Chinese),
        (
            "chinese_trad",
            |r| &r.chinese_trad,
            Notation::ChineseTraditional,
        ),
    ];
    for (label, column, notation) in columns {
        every_row(&format!("write {label}"), &rows, &boards, |row, board| {
            let m = Move::from_iccs(&row.iccs).ok_or("bad iccs")?;
            let got = write_move(board, m, notation);
            if got == column(row) {
                Ok(())
            } else {
                Err(format!("wrote {got}, expected {}", column(row)))
            }
        });
    }
}

#[test]
fn write_then_parse_round_trips() {
    let (rows, boards) = load_vectors();
    for notation in NOTATIONS {
        every_row(
            &format!("round trip {notation}"),
            &rows,
            &boards,
            |row, board| {
                let m = Move::from_iccs(&row.iccs).ok_or("bad iccs")?;
                let text = write_move(board, m, notation);
                expect_parse(board, &text, Some(notation), &row.iccs)?;
                expect_parse(board, &text, None, &row.iccs)
            },
        );
    }
}

#[test]
fn cchess_output_parses_where_it_is_unambiguous() {
    // cchess writes 前兵 for two different pawns when two files are stacked
    // (docs/xiangqi-notation.md §3.3); only strings that are unique in their position are taken
    // to name one move.
    let (rows, boards) = load_vectors();
    let mut seen: std::collections::HashMap<(&str, &str), usize> = Default::default();
    for r in &rows {
        *seen.entry((&r.fen, &r.cchess_chinese)).or_default() += 1;
    }
    let unique: Vec<Row> = rows
        .iter()
        .filter(|r| seen[&(r.fen.as_str(), r.cchess_chinese.as_str())] == 1)
        .cloned()
        .collect();
    eprintln!(
        "cchess_chinese: {} of {} rows unique in their position",
        unique.len(),
        rows.len()
    );
    every_row("parse cchess_chinese", &unique, &boards, |row, board| {
        expect_parse(board, &row.cchess_chinese, None, &row.iccs)
    });
}

#[test]
fn side_hint_matches_the_mover() {
    use pgnmill::xiangqi::notation::chinese_side_hint;
    use pgnmill::xiangqi::types::Color;
    let (rows, boards) = load_vectors();
    every_row("chinese_side_hint", &rows, &boards, |row, _| {
        let want = if row.side == "red" {
            Color::Red
        } else {
            Color::Black
        };
        for text in [&row.chinese, &row.chinese_trad, &row.chinese_alt] {
            if chinese_side_hint(text) != Some(want) {
                return Err(format!("{text}: {:?}", chinese_side_hint(text)));
            }
        }
        Ok(())
    });
}
