//! docs/reports.md lists the columns of `games.csv` as the column table
//! declares them (`src/report/columns.rs`, with the columns `--moves`,
//! `--clocks` and `--duplicates` add), and those of `plies.csv` as `src/report/ply_columns.rs`
//! declares them: name, order and doc line. The tables are the one
//! statement of each column; this test fails when the documentation says
//! otherwise. `PGNMILL_BLESS=1 cargo test --test repo` rewrites the lists
//! in docs/reports.md from the tables.

use pgnmill::report::Column;
use pgnmill::report::columns::{CLOCK_COLUMNS, DUPLICATE_COLUMNS, GAME_COLUMNS, MOVES_COLUMN};
use pgnmill::report::ply_columns::PLY_COLUMNS;
use std::path::Path;

/// The markdown table of `columns`, as docs/reports.md must hold it.
fn table<'a>(columns: impl Iterator<Item = &'a Column>) -> String {
    let mut out = String::from("| column | meaning |\n|---|---|\n");
    for column in columns {
        assert!(
            !column.doc.trim().is_empty(),
            "{}: no doc line",
            column.name
        );
        out.push_str(&format!("| `{}` | {} |\n", column.name, column.doc.trim()));
    }
    out
}

/// Checks (or with `PGNMILL_BLESS`, rewrites) the first table after the
/// heading `heading` of docs/reports.md.
fn check(heading: &str, want: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reports.md");
    let docs = std::fs::read_to_string(&path).expect("docs/reports.md");
    let section = docs
        .find(heading)
        .unwrap_or_else(|| panic!("a section {heading}"));
    let start = section + docs[section..].find("| column |").expect("its table");
    let end = start + docs[start..].find("\n\n").expect("a blank line after it") + 1;
    if std::env::var_os("PGNMILL_BLESS").is_some() {
        let blessed = format!("{}{}{}", &docs[..start], want, &docs[end..]);
        std::fs::write(&path, blessed).expect("write docs/reports.md");
        return;
    }
    assert_eq!(
        &docs[start..end],
        want,
        "docs/reports.md and the column table disagree under {heading} (PGNMILL_BLESS=1 rewrites the docs)"
    );
}

/// One test for both tables: blessing rewrites one file, which two tests
/// run at once would race for.
#[test]
fn docs_list_the_columns_of_the_tables() {
    let moves = [MOVES_COLUMN];
    let columns = GAME_COLUMNS
        .iter()
        .chain(&moves)
        .chain(&CLOCK_COLUMNS)
        .chain(&DUPLICATE_COLUMNS);
    check("## games.csv", &table(columns));
    check("## plies.csv", &table(PLY_COLUMNS.iter()));
}
