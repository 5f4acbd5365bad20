//! Xiangqi record files (XQF of every version, CCBridge CBR/CBL/CBF,
//! DhtmlXQ pages) through `pgnmill report` and `pgnmill convert`, against
//! testdata/xiangqi/records-expected.json: decoded by cchess (DhtmlXQ by
//! the generator's own reading of the format description), every
//! main-line move checked and the final FEN computed by pyffish
//! (testdata/gen/xiangqi_records_expected.py).

use crate::support::{check_invariants, read_csv, root, run_report};
use std::collections::HashMap;

const DIR: &str = "testdata/xiangqi/records";

#[derive(Debug)]
struct Expected {
    file: String,
    game: u64,
    start_fen: String,
    main_line: Vec<String>,
    lines: usize,
    plies: u32,
    final_fen: String,
    status: String,
    red: String,
    black: String,
    result: String,
}

fn expected() -> Vec<Expected> {
    let text = std::fs::read_to_string(root().join("testdata/xiangqi/records-expected.json"))
        .expect("expected values");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let s = |e: &serde_json::Value, k: &str| e[k].as_str().expect(k).to_string();
    v.as_array()
        .expect("array")
        .iter()
        .map(|e| Expected {
            file: s(e, "file"),
            game: e["game"].as_u64().expect("game"),
            start_fen: s(e, "start_fen"),
            main_line: e["main_line"]
                .as_array()
                .expect("main_line")
                .iter()
                .map(|m| m.as_str().expect("move").to_string())
                .collect(),
            lines: e["lines"].as_u64().expect("lines") as usize,
            plies: e["plies"].as_u64().expect("plies") as u32,
            final_fen: s(e, "final_fen"),
            status: s(e, "status"),
            red: s(e, "red"),
            black: s(e, "black"),
            result: s(e, "result"),
        })
        .collect()
}

/// The oracle's main line of the first game of `file`.
fn main_line(expected: &[Expected], file: &str) -> Vec<String> {
    expected
        .iter()
        .find(|e| e.file == file)
        .unwrap_or_else(|| panic!("{file}: no expected game"))
        .main_line
        .clone()
}

fn file_name(source: &str) -> String {
    source.rsplit('/').next().unwrap_or(source).to_string()
}

/// The rows of a report over `args`, by (file name, game).
fn rows(args: &[&str]) -> Vec<HashMap<String, String>> {
    let (_tmp, out) = run_report(args);
    let rows = read_csv(&out.join("games.csv"));
    check_invariants(&rows);
    rows
}

/// Files whose record holds a move cchess drops silently (so its expected
/// status says `ok`): docs/xiangqi-formats.md §6 names the move, and the
/// report must stop at it.
const DROPPED_BY_CCHESS: &[(&str, &str)] = &[(
    "BadMoveTest3.xqf",
    "record 1, move 5... e1f0, ply 10: no piece on e1",
)];

#[test]
fn every_record_is_one_row_with_the_oracles_start_main_line_and_final_fen() {
    let expected = expected();
    assert!(expected.len() >= 340, "{} expected games", expected.len());
    let rows = rows(&["--moves", DIR]);
    let by_key: HashMap<(String, u64), &HashMap<String, String>> = rows
        .iter()
        .map(|r| ((file_name(&r["source"]), r["game"].parse().unwrap()), r))
        .collect();
    assert_eq!(rows.len(), expected.len(), "one row per game, no more");
    let mut formats = std::collections::BTreeSet::new();
    for e in &expected {
        let at = format!("{}#{}", e.file, e.game);
        let row = by_key
            .get(&(e.file.clone(), e.game))
            .unwrap_or_else(|| panic!("{at}: no row"));
        formats.insert(e.file.rsplit('.').next().unwrap().to_ascii_lowercase());
        assert_eq!(row["variant"], "xiangqi", "{at}");
        assert_eq!(row["start_fen"], e.start_fen, "{at}: start");
        assert_eq!(row["plies"], e.plies.to_string(), "{at}: plies");
        let moves: Vec<&str> = row["moves"].split_whitespace().collect();
        assert_eq!(moves, e.main_line[..e.plies as usize], "{at}: main line");
        assert_eq!(row["final_fen"], e.final_fen, "{at}: final FEN");
        assert_eq!(row["white"], e.red.trim(), "{at}: red");
        assert_eq!(row["black"], e.black.trim(), "{at}: black");
        assert_eq!(row["result"], e.result, "{at}: result");
        match DROPPED_BY_CCHESS.iter().find(|(f, _)| *f == e.file) {
            Some((_, error)) => {
                assert_eq!(row["status"], "illegal_move", "{at}");
                assert_eq!(row["error"], *error, "{at}");
                assert_eq!(e.main_line.len(), e.plies as usize, "{at}: cchess drops it");
            }
            None => assert_eq!(row["status"], e.status, "{at}: {}", row["error"]),
        }
    }
    for f in ["xqf", "cbr", "cbl", "cbf", "ubb", "txt", "html"] {
        assert!(formats.contains(f), "no {f} file checked");
    }
}

#[test]
fn a_library_row_names_the_records_index_and_byte_offset() {
    let rows =
        rows(&["testdata/xiangqi/records/walker8088-cbl-1981-chengde-188-records-256-slots.CBL"]);
    assert_eq!(rows.len(), 188);
    // 256 slots of 276 bytes after the 66,624-byte header; 4 KiB blocks.
    assert_eq!(rows[0]["offset"], "137280");
    assert_eq!(rows[1]["offset"], (137280 + 4096).to_string());
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r["game"], (i + 1).to_string());
        let offset: u64 = r["offset"].parse().unwrap();
        assert_eq!((offset - 137280) % 4096, 0, "game {}", i + 1);
    }
}

#[test]
fn the_packed_library_is_unsupported_with_its_reason_and_the_rest_is_read() {
    let (_tmp, out) = run_report(&[DIR]);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let inputs = summary["inputs"].as_array().unwrap();
    let unsupported: Vec<(&str, &str)> = inputs
        .iter()
        .filter_map(|i| Some((i["path"].as_str()?, i["unsupported"].as_str()?)))
        .collect();
    assert_eq!(unsupported.len(), 1, "{unsupported:?}");
    assert!(unsupported[0].0.ends_with("packed-zlib-v3-unsupported.CBL"));
    assert!(
        unsupported[0].1.contains("packed library")
            && unsupported[0].1.contains("not publicly documented"),
        "{}",
        unsupported[0].1
    );
    let rows = read_csv(&out.join("games.csv"));
    assert!(rows.len() >= 340);
}

/// `pgnmill convert --to TO INPUT` (relative to the repository), its stdout.
pub fn convert(to: &str, input: &str) -> String {
    let out = assert_cmd::Command::cargo_bin("pgnmill")
        .unwrap()
        .current_dir(root())
        .args(["convert", "--quiet", "--to", to, input])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `(` in the movetext outside comments: one per variation.
fn variations(game: &str) -> usize {
    let mut depth_comment = false;
    let mut n = 0;
    let movetext: String = game
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join("\n");
    for c in movetext.chars() {
        match c {
            '{' => depth_comment = true,
            '}' => depth_comment = false,
            '(' if !depth_comment => n += 1,
            _ => {}
        }
    }
    n
}

#[test]
fn convert_writes_every_variation_and_reads_back_to_the_same_moves() {
    let expected = expected();
    let report = rows(&["--moves", DIR]);
    // WXF too: pawn_move.xqf's middle pawn of two stacked files is written
    // `27=6`, not `77.6` (a move number to PGN).
    for to in ["iccs", "wxf", "chinese", "chinese-traditional"] {
        let pgn = convert(to, DIR);
        let games: Vec<&str> = pgn
            .split("[Game \"Chinese Chess\"]")
            .filter(|g| !g.trim().is_empty())
            .collect();
        assert_eq!(games.len(), report.len(), "{to}: one game per record");
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("converted.pgn");
        std::fs::write(&path, &pgn).unwrap();
        let again = rows(&["--moves", path.to_str().unwrap()]);
        assert_eq!(again.len(), report.len(), "{to}");
        for ((first, second), game) in report.iter().zip(&again).zip(&games) {
            let at = format!("{to}: {}#{}", first["source"], first["game"]);
            for col in [
                "moves",
                "plies",
                "final_fen",
                "start_fen",
                "white",
                "black",
                "result",
            ] {
                assert_eq!(first[col], second[col], "{at}: {col}");
            }
            let e = expected
                .iter()
                .find(|e| {
                    e.file == file_name(&first["source"]) && e.game.to_string() == first["game"]
                })
                .unwrap();
            // A stopped line keeps its rest in a comment, not as a variation.
            assert_eq!(variations(game), e.lines - 1, "{at}: variations\n{game}");
        }
    }
}

/// Runs a report over files written into a fresh folder.
fn report_files(files: &[(&str, Vec<u8>)]) -> (Vec<HashMap<String, String>>, serde_json::Value) {
    let tmp = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        std::fs::write(tmp.path().join(name), bytes).unwrap();
    }
    let (_out_tmp, out) = run_report(&["--moves", tmp.path().to_str().unwrap()]);
    let rows = read_csv(&out.join("games.csv"));
    check_invariants(&rows);
    let summary =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    (rows, summary)
}

pub fn record(name: &str) -> Vec<u8> {
    std::fs::read(root().join(DIR).join(name)).unwrap()
}

/// A library's chapter heading as a CBR record: an empty board, "no move
/// follows", a comment (made from test2.cbr).
pub fn chapter_heading() -> Vec<u8> {
    let mut heading = record("test2.cbr");
    heading.truncate(2214);
    heading[2120..2210].fill(0);
    let text: Vec<u8> = "第一章".encode_utf16().flat_map(u16::to_le_bytes).collect();
    heading.extend(5u32.to_le_bytes());
    heading.extend((text.len() as u32).to_le_bytes());
    heading.extend(&text);
    heading
}

#[test]
fn damaged_records_keep_their_moves_and_say_why_and_lose_nothing_else() {
    let expected = expected();
    let main = |file: &str| main_line(&expected, file);
    // An XQF cut inside its move records (110 plies; version 18, encrypted).
    let mut xqf = record("test.xqf");
    let cut = xqf.len() - 400;
    xqf.truncate(cut);
    // A CBR cut in the middle of its moves.
    let mut cbr = record("test.cbr");
    cbr.truncate(2300);
    // A header that cannot be used: no row, an unsupported entry.
    let mut header = record("test2.xqf");
    header.truncate(500);
    let heading = chapter_heading();
    let (rows, summary) = report_files(&[
        ("a-cut.xqf", xqf),
        ("b-cut.cbr", cbr),
        ("c-header.xqf", header),
        ("d-heading.cbr", heading),
        ("e-good.xqf", record("UnitTest.xqf")),
    ]);
    let names: Vec<String> = rows.iter().map(|r| file_name(&r["source"])).collect();
    assert_eq!(
        names,
        ["a-cut.xqf", "b-cut.cbr", "d-heading.cbr", "e-good.xqf"]
    );
    for (row, file) in rows[..2].iter().zip(["test.xqf", "test.cbr"]) {
        assert_eq!(row["status"], "parse_error", "{row:?}");
        assert!(row["error"].contains("cut short"), "{}", row["error"]);
        let plies: usize = row["plies"].parse().unwrap();
        let main = main(file);
        assert!(plies > 0 && plies < main.len(), "{file}: {plies}");
        let moves: Vec<&str> = row["moves"].split_whitespace().collect();
        assert_eq!(moves, main[..plies], "{file}");
    }
    assert_eq!(rows[2]["status"], "unsupported");
    assert!(
        rows[2]["error"].contains("chapter-heading"),
        "{}",
        rows[2]["error"]
    );
    assert_eq!(rows[3]["status"], "ok");
    assert_eq!(rows[3]["plies"], "5");
    let inputs = summary["inputs"].as_array().unwrap();
    let header = inputs
        .iter()
        .find(|i| i["path"].as_str().unwrap().ends_with("c-header.xqf"))
        .unwrap();
    // A record file cut inside its header is a damaged input, not one of
    // a format pgnmill does not read: no row, a warning, not complete.
    assert_eq!(header["unsupported"], serde_json::Value::Null);
    assert_eq!(header["complete"], false);
    assert_eq!(header["warnings"][0]["kind"], "damaged");
    assert!(
        header["warnings"][0]["message"]
            .as_str()
            .unwrap()
            .ends_with("c-header.xqf: XQF header cut short: 500 bytes, 1024 needed: no game of it could be read"),
        "{header}"
    );
}

#[test]
fn an_illegal_move_in_a_library_is_located_by_its_record_not_a_line() {
    // Record 3 of the library (4 KiB blocks from byte 101,952) starts with
    // h2e2 (炮二平五); its origin byte is set to 45, a4, an empty point.
    let mut library = record("walker8088-cbl-lin-xingrong-14-records.CBL");
    let first_move = 101_952 + 2 * 4096 + 2218;
    assert_eq!(library[first_move..first_move + 4], [0, 0, 0x46, 0x43]);
    library[first_move + 2] = 45;
    let (rows, _) = report_files(&[("lib.cbl", library)]);
    assert_eq!(rows.len(), 14);
    let row = &rows[2];
    assert_eq!(
        (row["game"].as_str(), row["status"].as_str()),
        ("3", "illegal_move")
    );
    assert_eq!(
        row["error"],
        "record 3, move 1. a4e2, ply 1: no piece on a4"
    );
    assert_eq!(row["plies"], "0");
    assert!(
        rows.iter()
            .filter(|r| r["game"] != "3")
            .all(|r| r["status"] == "ok")
    );
}

#[test]
fn a_page_with_two_blocks_gives_two_games_with_their_lines() {
    let one = record("wukong-dhtmlxq-xqdb-130-html-page-draw.html");
    let two = record("chasoft-dhtmlxq-endgame-binit-comments.txt");
    let mut page = b"<html><body>\n<p>first</p>\n".to_vec();
    page.extend(&one);
    page.extend(b"\n<p>second</p>\n");
    let second_line = 1 + page.iter().filter(|&&b| b == b'\n').count();
    page.extend(&two);
    let (rows, _) = report_files(&[("page.htm", page), ("notes.txt", b"no block here".to_vec())]);
    assert_eq!(rows.len(), 2, "the .txt without a block is not read");
    assert_eq!(rows[0]["plies"], "124");
    assert_eq!(rows[1]["plies"], "33");
    assert_eq!(rows[1]["line"], second_line.to_string());
    assert_eq!(rows[1]["game"], "2");
}

#[test]
fn dhtmlxq_on_standard_input_is_read_like_the_file() {
    let expected = expected();
    let mut checked = 0;
    for file in [
        "ccbridge-arena-dhtmlxq-utf8-multiline-event.ubb",
        "chasoft-dhtmlxq-endgame-binit-black-moves-first.txt",
        "wukong-dhtmlxq-xqdb-130-html-page-draw.html",
    ] {
        let tmp = tempfile::tempdir().expect("tmp");
        let out = tmp.path().join("report");
        assert_cmd::Command::cargo_bin("pgnmill")
            .expect("binary")
            .args(["report", "--quiet", "--moves", "-o"])
            .arg(&out)
            .arg("-")
            .pipe_stdin(root().join(DIR).join(file))
            .expect("stdin")
            .assert()
            .success();
        let rows = read_csv(&out.join("games.csv"));
        check_invariants(&rows);
        let want: Vec<&Expected> = expected.iter().filter(|e| e.file == file).collect();
        assert!(!want.is_empty(), "{file}: no expected games");
        assert_eq!(rows.len(), want.len(), "{file}: one row per block");
        for (row, e) in rows.iter().zip(want) {
            assert_eq!(row["source"], "-", "{file}");
            assert_eq!(row["variant"], "xiangqi", "{file}");
            assert_eq!(row["start_fen"], e.start_fen, "{file}: start");
            assert_eq!(row["plies"], e.plies.to_string(), "{file}: plies");
            assert_eq!(row["final_fen"], e.final_fen, "{file}: final FEN");
            checked += 1;
        }
    }
    assert!(checked >= 3);
}

/// An XQF record whose piece table places no piece (docs/xiangqi-formats.md
/// §1.4: a square byte above 89 is off the board): no game, said with the
/// record's number, in `report` and in `fen`; a board that only lacks a
/// king is a bad start position named by its record, never by a line of
/// the text pgnmill wrote for it.
#[test]
fn an_xqf_record_with_an_empty_board_says_so() {
    // Version 10 (not encrypted): the header, an empty piece table, and a
    // root record without moves.
    let mut bare = vec![0u8; 1024];
    bare[..3].copy_from_slice(b"XQ\x0a");
    bare[0x10..0x30].fill(0xFF);
    bare.extend([0u8; 8]);
    // A real version-10 record (with moves) whose piece table is emptied.
    let mut moves = record("BadMoveTest1.xqf");
    assert_eq!(moves[2], 10);
    moves[0x10..0x30].fill(0xFF);
    // Only the red king left (table entry 4, on a4 = XQF square 04).
    let mut one_king = bare.clone();
    one_king[0x10 + 4] = 4;
    let (rows, _) = report_files(&[
        ("a-bare.xqf", bare.clone()),
        ("b-moves.xqf", moves.clone()),
        ("c-one-king.xqf", one_king.clone()),
    ]);
    for row in &rows[..2] {
        assert_eq!(row["status"], "unsupported", "{row:?}");
        assert_eq!(
            row["error"],
            "record 1: empty board (the XQF piece table places no piece): no game"
        );
    }
    assert_eq!(rows[2]["status"], "bad_fen");
    assert_eq!(
        rows[2]["error"],
        "record 1: its start position \"9/9/9/9/9/K8/9/9/9/9 w - - 0 1\" cannot be played: \
         no black king on the board"
    );
    // `fen` over the same files: one row each, the same words.
    let tmp = tempfile::tempdir().unwrap();
    for (name, bytes) in [("a.xqf", &bare), ("b.xqf", &moves), ("c.xqf", &one_king)] {
        std::fs::write(tmp.path().join(name), bytes).unwrap();
    }
    let out = assert_cmd::Command::cargo_bin("pgnmill")
        .unwrap()
        .args(["fen", "-q"])
        .arg(tmp.path())
        .assert()
        .success();
    let mut csv = csv::Reader::from_reader(&out.get_output().stdout[..]);
    let fen: Vec<HashMap<String, String>> = csv.deserialize().map(|r| r.unwrap()).collect();
    assert_eq!(fen.len(), 3);
    for row in &fen[..2] {
        assert_eq!(row["status"], "unsupported");
        assert!(
            row["error"].contains("record 1: empty board"),
            "{}",
            row["error"]
        );
    }
    assert_eq!(fen[2]["status"], "bad_fen");
    assert_eq!(fen[2]["problems"], "king_off_palace");
}

/// A DhtmlXQ page cut short (a download that broke off) is no whole game:
/// cut inside its move list, the game keeps its whole moves (the oracle's
/// main line up to there) and says it ends inside a move and that the
/// block has no closing tag; cut after the move list, it keeps every move
/// and says the page is cut short. Converting it stops its main line there.
#[test]
fn a_dhtmlxq_page_cut_short_says_so_and_keeps_its_whole_moves() {
    let name = "ccbridge-arena-dhtmlxq-utf8-multiline-event.ubb";
    let main = main_line(&expected(), name);
    let page = record(name);
    let list = memchr::memmem::find(&page, b"[DhtmlXQ_movelist]").unwrap() + 18;
    let after_list = memchr::memmem::find(&page, b"[/DhtmlXQ_movelist]").unwrap() + 19;
    // Ten whole moves and two digits of the eleventh.
    let (rows, _) = report_files(&[
        ("a-in-a-move.ubb", page[..list + 42].to_vec()),
        ("b-after-the-moves.ubb", page[..after_list].to_vec()),
    ]);
    for (row, plies, why) in [
        (
            &rows[0],
            10,
            "the move list ends inside a move (2 digit(s) after its last whole move)",
        ),
        (&rows[1], main.len(), "the page is cut short"),
    ] {
        assert_eq!(row["status"], "parse_error", "{row:?}");
        assert!(row["error"].contains(why), "{}", row["error"]);
        assert!(
            row["error"].contains("before its closing tag"),
            "{}",
            row["error"]
        );
        let moves: Vec<&str> = row["moves"].split_whitespace().collect();
        assert_eq!(moves, main[..plies]);
    }
    let tmp = tempfile::tempdir().unwrap();
    let cut = tmp.path().join("cut.ubb");
    std::fs::write(&cut, &page[..list + 42]).unwrap();
    let (text, stderr) = crate::xiangqi_convert_lines::convert_told("iccs", &cut);
    assert!(text.contains("[PgnmillError \"ply 11: DhtmlXQ: "), "{text}");
    assert!(
        stderr.contains("0 games converted to ICCS, 1 stopped early"),
        "{stderr}"
    );
    // Cut after the move list, the main line is whole: no line stops.
    std::fs::write(&cut, &page[..after_list]).unwrap();
    assert_whole_main_line_converted(&cut, &main, "the page is cut short");
}

/// Converting the one record in `file`, damaged off its main line, writes
/// the main line whole (`main`, read back by `report`), says why before
/// the moves, stops no line and counts the game converted.
fn assert_whole_main_line_converted(file: &std::path::Path, main: &[String], why: &str) {
    let (text, stderr) = crate::xiangqi_convert_lines::convert_told("iccs", file);
    assert!(!text.contains("[PgnmillError"), "{text}");
    let said = text
        .find("{ pgnmill: the record is damaged: ")
        .expect("the damage said");
    assert!(text[said..].contains(why), "{text}");
    assert!(
        said < text.find("1. ").expect("a first move"),
        "said before the moves: {text}"
    );
    assert!(
        stderr.contains("1 game converted to ICCS, 0 stopped early"),
        "{stderr}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let converted = tmp.path().join("converted.pgn");
    std::fs::write(&converted, &text).unwrap();
    let (_out_tmp, out) = run_report(&["--moves", converted.to_str().unwrap()]);
    let rows = read_csv(&out.join("games.csv"));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["status"], "ok", "{:?}", rows[0]);
    let moves: Vec<&str> = rows[0]["moves"].split_whitespace().collect();
    assert_eq!(moves, main);
}

/// XQF and CBR store the main line's records first, so a file cut after
/// them loses variations only. Cut every few bytes, each record gives a
/// row whose moves are the oracle's main line up to the cut; the row says
/// the cut is after the main line exactly when that line is whole. One cut
/// after the main line converts with no line stopped.
#[test]
fn a_record_cut_after_its_main_line_loses_variations_only() {
    let expected = expected();
    let main = |file: &str| main_line(&expected, file);
    // 65 plies and 139 lines; 28 plies and 12 lines.
    let cases = [("WildHouse.xqf", 1024, 13), ("test.cbr", 2218, 3)];
    let mut files = Vec::new();
    for (name, records_from, step) in cases {
        let bytes = record(name);
        for len in (records_from..bytes.len()).step_by(step) {
            files.push((format!("{len:05}-{name}"), bytes[..len].to_vec()));
        }
    }
    let named: Vec<(&str, Vec<u8>)> = files.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    let (rows, _) = report_files(&named);
    assert_eq!(rows.len(), files.len());
    let mut after_the_main_line = HashMap::new();
    for row in &rows {
        let source = file_name(&row["source"]);
        let (len, name) = source.split_once('-').unwrap();
        let main = main(name);
        let plies: usize = row["plies"].parse().unwrap();
        let moves: Vec<&str> = row["moves"].split_whitespace().collect();
        assert_eq!(moves, main[..plies], "{source}");
        assert_eq!(row["status"], "parse_error", "{row:?}");
        assert_eq!(
            row["error"].contains(", after the main line: the variations after it are missing"),
            plies == main.len(),
            "{source}: {}",
            row["error"]
        );
        if plies == main.len() {
            after_the_main_line.insert(name.to_string(), len.parse::<usize>().unwrap());
        }
    }
    // Both files have cuts after their main line (the last one checked).
    assert_eq!(after_the_main_line.len(), 2, "{after_the_main_line:?}");
    let tmp = tempfile::tempdir().unwrap();
    for (name, len) in after_the_main_line {
        let ext = name.rsplit('.').next().unwrap();
        let cut = tmp.path().join(format!("cut.{ext}"));
        std::fs::write(&cut, &record(&name)[..len]).unwrap();
        assert_whole_main_line_converted(&cut, &main(&name), "after the main line");
    }
}

/// A DhtmlXQ branch whose move list ends inside a move damages that
/// branch only: the main line is whole, and converting stops no line.
#[test]
fn a_dhtmlxq_branch_cut_inside_a_move_leaves_the_main_line_whole() {
    let name = "chasoft-dhtmlxq-iframe-branches-english-comments.html";
    let main = main_line(&expected(), name);
    let page = record(name);
    let branch = memchr::memmem::find(&page, b"[/DhtmlXQ_move_0_94_1]").unwrap();
    // The branch's last digit dropped.
    let damaged = [&page[..branch - 1], &page[branch..]].concat();
    let (rows, _) = report_files(&[("branch.html", damaged.clone())]);
    assert_eq!(rows[0]["status"], "parse_error", "{:?}", rows[0]);
    assert!(
        rows[0]["error"].contains("branch 1's move list ends inside a move"),
        "{}",
        rows[0]["error"]
    );
    let moves: Vec<&str> = rows[0]["moves"].split_whitespace().collect();
    assert_eq!(moves, main);
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("branch.html");
    std::fs::write(&file, damaged).unwrap();
    assert_whole_main_line_converted(&file, &main, "branch 1's move list");
}

/// A CBF record's `<FEN>` carries the half-move clock and the move number,
/// and they count as a `[FEN]` tag's do (docs/xiangqi-rules.md section 7:
/// the start clock counts toward the 120-ply natural limit): 119 plies
/// without a capture before one more quiet move reach the limit at ply 1,
/// the move is numbered 60, and `fen` and `convert` give the clock back as
/// the record holds it.
#[test]
fn a_cbf_fen_keeps_its_clock_and_move_number() {
    let fen = "3k5/9/9/9/9/9/9/9/R8/5K3 w - - 119 60";
    let cbf = format!(
        "\u{feff}<ChineseChessRecord Version=\"1.0\"><Head><Name>clk</Name>\
         <RecordResult>0</RecordResult>\n<FEN>{fen}</FEN></Head>\n<MoveList>\
         <Move value=\"00-00\"/><Move value=\"08-07\" end=\"1\"/></MoveList></ChineseChessRecord>\n"
    );
    let (rows, _) = report_files(&[("clk.cbf", cbf.clone().into_bytes())]);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["start_fen"], fen);
    assert_eq!(rows[0]["plies"], "1");
    assert_eq!(rows[0]["natural_limit_ply"], "1");
    assert_eq!(
        rows[0]["final_fen"],
        "3k5/9/9/9/9/9/9/R8/9/5K3 b - - 120 60"
    );
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("clk.cbf");
    std::fs::write(&file, &cbf).unwrap();
    let converted = convert("iccs", file.to_str().unwrap());
    assert!(
        converted.contains(&format!("[FEN \"{fen}\"]")),
        "{converted}"
    );
    assert!(converted.contains("60. a1a2 *"), "{converted}");
    let audit = assert_cmd::Command::cargo_bin("pgnmill")
        .unwrap()
        .args(["fen", "-q", "-o", "-"])
        .arg(&file)
        .output()
        .unwrap();
    let audit = String::from_utf8(audit.stdout).unwrap();
    assert!(
        audit.contains(&format!("clk.cbf,1,{fen},ok,,{fen}")),
        "{audit}"
    );
}

/// Bytes that are no CBF record are an error of `read_records`, as they
/// are for the other formats (XQF, CCBridge): empty, plain text, and XML
/// of another kind. A CBF file of the corpus is still one game.
#[test]
fn read_records_refuses_bytes_that_are_no_cbf_record() {
    use pgnmill::read_records;
    use pgnmill::records::RecordError;
    use pgnmill::source::RecordFormat;
    for bytes in [
        &b""[..],
        b"hello world",
        b"<?xml version=\"1.0\"?><html><body/></html>",
    ] {
        match read_records(RecordFormat::Cbf, bytes) {
            Err(RecordError::Unsupported(why)) => {
                assert!(why.starts_with("not a CBF record"), "{why}")
            }
            other => panic!("{other:?}"),
        }
    }
    let games = read_records(RecordFormat::Cbf, &record("test2.cbf")).unwrap();
    assert_eq!(games.len(), 1);
}

/// A CBL library cut short (the first 300,000 bytes of the 1966 national
/// individual championship, 106 records): the records before the cut are
/// rows, the one the cut falls in is a damaged row, and the input is not
/// complete, with a warning that says records after it are missing, so
/// that `--strict` fails. `convert` counts that record as stopped, not
/// converted, and warns the same.
#[test]
fn a_library_cut_short_says_that_records_are_missing() {
    let mut library = record("walker8088-cbl-1966-national-individual-106-records.CBL");
    library.truncate(300_000);
    let (rows, summary) = report_files(&[("cut.cbl", library.clone())]);
    assert!(rows.len() > 1 && rows.len() < 106, "{}", rows.len());
    let last = rows.last().unwrap();
    assert_eq!(last["status"], "parse_error", "{last:?}");
    let input = &summary["inputs"][0];
    assert_eq!(input["complete"], false, "{input}");
    let warning = input["warnings"][0]["message"].as_str().unwrap();
    assert!(
        warning.contains(&format!(
            "cut.cbl: the library breaks off in its record {} (byte {})",
            rows.len(),
            last["offset"]
        )) && warning.ends_with("any records after it are missing"),
        "{warning}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let cut = tmp.path().join("cut.cbl");
    std::fs::write(&cut, &library).unwrap();
    let (_, stderr) = crate::xiangqi_convert_lines::convert_told("iccs", &cut);
    let converted = format!(
        "{} games converted to ICCS, 1 stopped early",
        rows.len() - 1
    );
    assert!(stderr.contains(&converted), "{stderr}");
    assert!(
        stderr.contains("the library breaks off in its record"),
        "{stderr}"
    );
    let strict = std::process::Command::new(assert_cmd::cargo::cargo_bin("pgnmill"))
        .args(["report", "-q", "--strict", "-o"])
        .arg(tmp.path().join("r"))
        .arg(&cut)
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(1));
}
