//! docs/reports.md lists the columns of `games.csv` as the column table
//! declares them (`src/report/columns.rs`): name, order and doc line. The
//! table is the one statement of each column; this test fails when the
//! documentation says otherwise. `PGNMILL_BLESS=1 cargo test --test repo`
//! rewrites the list in docs/reports.md from the table.

use pgnmill::report::columns::{GAME_COLUMNS, MOVES_COLUMN};
use std::path::Path;

/// The markdown table of the columns, as docs/reports.md must hold it.
fn table() -> String {
    let mut out = String::from("| column | meaning |\n|---|---|\n");
    for column in GAME_COLUMNS.iter().chain([&MOVES_COLUMN]) {
        out.push_str(&format!("| `{}` | {} |\n", column.name, column.doc.trim()));
    }
    out
}

#[test]
fn docs_list_the_game_columns_of_the_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reports.md");
    let docs = std::fs::read_to_string(&path).expect("docs/reports.md");
    let section = docs.find("## games.csv").expect("a games.csv section");
    let start = section + docs[section..].find("| column |").expect("its table");
    let end = start + docs[start..].find("\n\n").expect("a blank line after it") + 1;
    let want = table();
    if std::env::var_os("PGNMILL_BLESS").is_some() {
        let blessed = format!("{}{}{}", &docs[..start], want, &docs[end..]);
        std::fs::write(&path, blessed).expect("write docs/reports.md");
        return;
    }
    assert_eq!(
        &docs[start..end],
        want,
        "docs/reports.md and src/report/columns.rs disagree (PGNMILL_BLESS=1 rewrites the docs)"
    );
    assert!(GAME_COLUMNS.iter().all(|c| !c.doc.trim().is_empty()));
}
