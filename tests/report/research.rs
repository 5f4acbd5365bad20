//! The research options of `pgnmill report` (issue 15), through the
//! binary: `--tags`, `--where`, `--format parquet`. Expected selections and
//! tag values come from testdata/gen/research_expected.py (tags read by a
//! regular expression from the file bytes at the python-chess oracle's
//! offsets; conditions evaluated in Python).

use crate::support::{cell, parquet_cells, read_csv, root, run_report};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::collections::HashMap;
use std::path::Path;

fn expected() -> serde_json::Value {
    let path = root().join("testdata/expected/research.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).expect("research.json")
}

fn summary(out: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(out.join("summary.json")).expect("summary.json");
    serde_json::from_str(&text).expect("summary")
}

/// The default columns, copied from docs/reports.md: they never change;
/// new ones are added after them (the curator's columns of issue 32).
const DEFAULT_COLUMNS: &str = "source,game,offset,line,variant,event,site,date,round,white,black,result,plies,start_fen,final_fen,final_fen_ep_legal,rep_max_ep_always,threefold_ply_ep_always,rep_max_ep_legal,threefold_ply_ep_legal,missed_threefold,castling_conflict,status,error,termination,board_result,mating_material,fivefold_ply,fivefold_ply_ep_always,threefold_claim_ply,fifty_move_ply,fifty_move_claim_ply,seventyfive_move_ply,game_over_ply,game_over,result_conflict,perpetual_check,natural_limit_ply,line_key,eco,opening,opening_ply,opening_conflict";

fn header(out: &Path) -> String {
    let text = std::fs::read_to_string(out.join("games.csv")).expect("games.csv");
    text.lines().next().unwrap_or_default().to_string()
}

/// Every `--where` set of the generator selects exactly the games Python
/// selects, in order, with the `--tags` values Python reads; summary.json
/// counts the games read and selected, per input and in total.
#[test]
fn where_selects_the_games_python_selects() {
    let want = expected();
    let selections = want["selections"].as_object().expect("selections");
    assert!(selections.len() >= 4);
    for (name, sel) in selections {
        let mut args = vec![
            "testdata/corpus".to_string(),
            "--tags".into(),
            "WhiteElo,TimeControl,UTCDate".into(),
        ];
        for w in sel["where"].as_array().expect("where") {
            args.push("--where".into());
            args.push(w.as_str().unwrap_or_default().to_string());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (_tmp, out) = run_report(&args);
        let rows = read_csv(&out.join("games.csv"));
        let got: Vec<(String, u64)> = rows
            .iter()
            .map(|r| (r["source"].clone(), r["game"].parse().unwrap_or(0)))
            .collect();
        let games: Vec<(String, u64)> = sel["games"]
            .as_array()
            .expect("games")
            .iter()
            .map(|g| {
                (
                    g[0].as_str().unwrap_or_default().to_string(),
                    g[1].as_u64().unwrap_or(0),
                )
            })
            .collect();
        assert!(!games.is_empty(), "{name}: selects nothing");
        assert_eq!(got, games, "{name}: selected games");
        for tag in ["WhiteElo", "TimeControl", "UTCDate"] {
            let values: Vec<&str> = rows.iter().map(|r| r[tag].as_str()).collect();
            let want: Vec<&str> = sel["tags"][tag]
                .as_array()
                .expect("tag values")
                .iter()
                .map(|v| v.as_str().unwrap_or_default())
                .collect();
            assert_eq!(values, want, "{name}: {tag} column");
        }
        assert_eq!(
            header(&out),
            format!("{DEFAULT_COLUMNS},WhiteElo,TimeControl,UTCDate")
        );
        let s = summary(&out);
        assert_eq!(s["games_read"], want["games"], "{name}");
        assert_eq!(s["games_selected"].as_u64(), Some(games.len() as u64));
        assert_eq!(s["games"].as_u64(), Some(games.len() as u64));
        let inputs = s["inputs"].as_array().expect("inputs");
        let read: u64 = inputs.iter().filter_map(|i| i["games_read"].as_u64()).sum();
        let selected: u64 = inputs
            .iter()
            .filter_map(|i| i["games_selected"].as_u64())
            .sum();
        assert_eq!(read, want["games"].as_u64().unwrap_or(0));
        assert_eq!(selected, games.len() as u64);
        for input in inputs {
            let src = input["path"].as_str().unwrap_or_default();
            let n = games.iter().filter(|(s, _)| s == src).count() as u64;
            assert_eq!(input["games_selected"].as_u64(), Some(n), "{name}: {src}");
        }
    }
}

/// Without the new options the columns are those of docs/reports.md;
/// `--tags lichess` adds lichess's tags that are not columns already.
#[test]
fn default_columns_unchanged_and_lichess_shorthand() {
    let (_tmp, out) = run_report(&["testdata/corpus/lichess-2025-05-blitz-sample.pgn"]);
    assert_eq!(header(&out), DEFAULT_COLUMNS);
    let names: Vec<&str> = std::fs::read_dir(&out)
        .expect("report folder")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".parquet"))
        .map(|_| "parquet")
        .collect();
    assert!(names.is_empty(), "a default report writes no Parquet file");
    let (_tmp, out) = run_report(&[
        "testdata/corpus/lichess-2025-05-blitz-sample.pgn",
        "--tags",
        "lichess",
    ]);
    assert_eq!(
        header(&out),
        format!(
            // lichess's `Termination` tag is `tag_Termination`: `termination`
            // is a computed column (the board's verdict, docs/outcomes.md).
            "{DEFAULT_COLUMNS},UTCDate,UTCTime,WhiteElo,BlackElo,WhiteRatingDiff,BlackRatingDiff,WhiteTitle,BlackTitle,ECO,Opening,TimeControl,tag_Termination"
        )
    );
    let rows = read_csv(&out.join("games.csv"));
    // The first game of the file, as written there.
    assert_eq!(rows[0]["WhiteElo"], "1028");
    assert_eq!(rows[0]["TimeControl"], "300+3");
    assert_eq!(rows[0]["Opening"], "Three Knights Opening");
    // A tag named twice, in any case, is one column named as first given
    // (docs/reports.md): `whiteelo` and lichess's `WhiteElo` are one tag.
    let (_tmp, out) = run_report(&[
        "testdata/corpus/lichess-2025-05-blitz-sample.pgn",
        "--tags",
        "whiteelo,lichess,WHITEELO",
    ]);
    let header = header(&out);
    let added: Vec<&str> = header
        .split(',')
        .skip(DEFAULT_COLUMNS.split(',').count())
        .collect();
    assert_eq!(added[0], "whiteelo");
    assert_eq!(added.len(), 12, "{header}");
    assert!(!added.contains(&"WhiteElo"), "{header}");
    assert_eq!(read_csv(&out.join("games.csv"))[0]["whiteelo"], "1028");
}

/// The tag values of `column` in `games.parquet` of `out`, in row order.
fn parquet_text_column(out: &Path, column: &str) -> Vec<String> {
    let file = std::fs::File::open(out.join("games.parquet")).expect("games.parquet");
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("parquet")
        .build()
        .expect("reader");
    let mut values = Vec::new();
    for batch in reader {
        let batch = batch.expect("batch");
        let array = batch.column_by_name(column).expect(column);
        values.extend((0..batch.num_rows()).map(|i| cell(array.as_ref(), i)));
    }
    values
}

/// lichess's `Termination` tag, whose name is that of the computed
/// `termination` column, is the column `tag_Termination` (docs/reports.md),
/// from `--tags lichess` and from `--tags Termination`, in CSV and Parquet,
/// with the values read from the file by research_expected.py; the
/// `termination` column keeps the board's verdict.
#[test]
fn termination_tag_is_column_tag_termination() {
    let want: Vec<String> = expected()["lichess_termination_tags"]
        .as_array()
        .expect("lichess_termination_tags")
        .iter()
        .map(|v| v.as_str().unwrap_or_default().to_string())
        .collect();
    assert!(want.len() > 400, "{} games", want.len());
    assert!(want.iter().any(|v| v == "Time forfeit"));
    let lichess = "testdata/corpus/lichess-2025-05-blitz-sample.pgn";
    let (_tmp, plain) = run_report(&[lichess]);
    let plain_rows = read_csv(&plain.join("games.csv"));
    let plain_verdicts: Vec<&str> = plain_rows
        .iter()
        .map(|r| r["termination"].as_str())
        .collect();
    assert!(plain_verdicts.contains(&"checkmate"));
    for tags in ["lichess", "termination", "ECO,Termination"] {
        let (_tmp, out) = run_report(&[lichess, "--tags", tags, "--format", "csv,parquet"]);
        let header = header(&out);
        let tag_column = if tags == "termination" {
            // Named as given.
            "tag_termination"
        } else {
            "tag_Termination"
        };
        assert!(
            header.ends_with(&format!(",{tag_column}")),
            "--tags {tags}: {header}"
        );
        let rows = read_csv(&out.join("games.csv"));
        let got: Vec<String> = rows.iter().map(|r| r[tag_column].clone()).collect();
        assert_eq!(got, want, "--tags {tags}: games.csv {tag_column}");
        assert_eq!(
            parquet_text_column(&out, tag_column),
            want,
            "--tags {tags}: games.parquet {tag_column}"
        );
        // `termination` keeps the board's verdict (checked against
        // python-chess in outcomes_vs_python_chess.rs): that of a run
        // without --tags.
        let verdicts: Vec<&str> = rows.iter().map(|r| r["termination"].as_str()).collect();
        assert_eq!(verdicts, plain_verdicts, "--tags {tags}: termination");
    }
}

/// Usage errors exit 2 and say what is wrong, before any file is written.
#[test]
fn bad_tags_and_conditions_are_usage_errors() {
    for (args, says) in [
        (
            vec!["--tags", "White"],
            "already has this tag as the column `white`",
        ),
        (vec!["--tags", "ECO,result"], "column `result`"),
        (
            vec!["--tags", "Termination,tag_termination"],
            "its column `tag_termination` would have the name of tag Termination's",
        ),
        (vec!["--where", "Opening~("], "bad regular expression"),
        (vec!["--where", "WhiteElo>=x"], "is not a number"),
        (vec!["--where", "WhiteElo"], "no operator"),
        (
            vec!["--where", "WhiteElo=>2000"],
            "looks like a mistyped operator",
        ),
        (vec!["--format", "xlsx"], "invalid value"),
    ] {
        let tmp = tempfile::tempdir().expect("temp dir");
        let out = tmp.path().join("r");
        let assert = assert_cmd::Command::cargo_bin("pgnmill")
            .expect("binary")
            .current_dir(root())
            .args(["report", "-q", "-o"])
            .arg(&out)
            .arg("testdata/corpus/lichess-2025-05-blitz-sample.pgn")
            .args(&args)
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!out.join("summary.json").exists(), "{args:?}");
    }
}

/// Every Parquet file of a run, read back with the parquet crate's Arrow
/// reader, holds the rows of the CSV file of the same run, field by field,
/// with the schema of docs/reports.md: integers signed, game/offset/line
/// Int64, plies and repetition columns nullable Int32, booleans, UTF-8.
fn parquet_equals_csv(args: &[&str], min_rows: usize) {
    let mut all = vec!["--format", "csv,parquet"];
    all.extend_from_slice(args);
    let (_tmp, out) = run_report(&all);
    for (csv_name, pq_name) in [
        ("games.csv", "games.parquet"),
        ("castling.csv", "castling.parquet"),
    ] {
        let mut reader = csv::Reader::from_path(out.join(csv_name)).expect(csv_name);
        let headers: Vec<String> = reader
            .headers()
            .expect("header")
            .iter()
            .map(str::to_string)
            .collect();
        let csv_rows: Vec<Vec<String>> = reader
            .records()
            .map(|r| r.expect("record").iter().map(str::to_string).collect())
            .collect();
        let (mut pq_rows, schema) = parquet_cells(&out.join(pq_name));
        let pq_header = pq_rows.remove(0);
        assert_eq!(pq_header, headers, "{pq_name}: columns");
        for f in schema.fields() {
            let want = match f.name().as_str() {
                "game" | "offset" | "line" => (DataType::Int64, false),
                "plies"
                | "rep_max_ep_always"
                | "threefold_ply_ep_always"
                | "rep_max_ep_legal"
                | "threefold_ply_ep_legal"
                | "fivefold_ply"
                | "fivefold_ply_ep_always"
                | "threefold_claim_ply"
                | "fifty_move_ply"
                | "fifty_move_claim_ply"
                | "seventyfive_move_ply"
                | "game_over_ply"
                | "natural_limit_ply"
                | "opening_ply" => (DataType::Int32, true),
                "line_key" => (DataType::FixedSizeBinary(16), true),
                "missed_threefold" => (DataType::Boolean, false),
                _ => (DataType::Utf8, false),
            };
            assert_eq!(
                (f.data_type().clone(), f.is_nullable()),
                want,
                "{pq_name}: {}",
                f.name()
            );
        }
        assert_eq!(pq_rows.len(), csv_rows.len(), "{pq_name}: rows");
        for (i, (p, c)) in pq_rows.iter().zip(&csv_rows).enumerate() {
            assert_eq!(p, c, "{pq_name}: row {}", i + 1);
        }
        if csv_name == "games.csv" {
            assert!(csv_rows.len() >= min_rows, "{} rows", csv_rows.len());
        }
    }
}

#[test]
fn parquet_holds_the_csv_rows_chess_and_xiangqi() {
    // Every game of the chess corpus (broken ones included), with moves and
    // tag columns; then the xiangqi corpus, whose `round` is text.
    let totals: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("testdata/expected/totals.json").expect("totals.json"),
    )
    .expect("totals.json is JSON");
    let corpus_games = totals["games"].as_u64().expect("games") as usize;
    parquet_equals_csv(
        &["testdata/corpus", "--moves", "--tags", "lichess"],
        corpus_games,
    );
    parquet_equals_csv(&["testdata/xiangqi/corpus"], 50);
}

/// `--format parquet` alone writes no CSV file, and its Parquet file has
/// the rows a CSV run has, on one thread and on three.
#[test]
fn parquet_only_writes_no_csv() {
    let (_tmp, csv_out) = run_report(&["testdata/research/lichess-style.pgn"]);
    let csv_rows = read_csv(&csv_out.join("games.csv"));
    for threads in ["1", "3"] {
        let (_tmp, out) = run_report(&[
            "testdata/research/lichess-style.pgn",
            "--format",
            "parquet",
            "-j",
            threads,
        ]);
        assert!(!out.join("games.csv").exists());
        assert!(!out.join("castling.csv").exists());
        let file = std::fs::File::open(out.join("games.parquet")).expect("games.parquet");
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .expect("parquet")
            .build()
            .expect("reader");
        let mut rows: Vec<HashMap<String, String>> = Vec::new();
        for batch in reader {
            let batch = batch.expect("batch");
            let schema = batch.schema();
            for i in 0..batch.num_rows() {
                rows.push(
                    schema
                        .fields()
                        .iter()
                        .zip(batch.columns())
                        .map(|(f, c)| (f.name().clone(), cell(c.as_ref(), i)))
                        .collect(),
                );
            }
        }
        assert_eq!(rows, csv_rows, "-j {threads}");
    }
}

/// A PGN of `games` games whose `Event` tags are long enough that their
/// column fills several Parquet pages in one row group (1 MiB a page):
/// tens of kilobytes each, mixing 1-, 2- and 3-byte UTF-8 characters so
/// that a page cut inside a value would break a character, and every
/// seventh game's empty. Returns the file and each game's `Event`.
pub(crate) fn long_events_pgn(dir: &Path, games: usize) -> (std::path::PathBuf, Vec<String>) {
    let mut pgn = String::new();
    let mut events = Vec::new();
    for i in 0..games {
        let chars = if i % 7 == 3 { 0 } else { 20_000 + i * 997 };
        let event: String = "Réti 漢 ".chars().cycle().take(chars).collect();
        pgn.push_str(&format!(
            "[Event \"{event}\"]\n[Site \"s{i}\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n\n"
        ));
        events.push(event);
    }
    let path = dir.join("long-events.pgn");
    std::fs::write(&path, pgn).expect("write the PGN");
    (path, events)
}

/// The values of a PLAIN `BYTE_ARRAY` page as the Parquet format defines
/// them (a 4-byte little-endian length, then the bytes), or `None` if the
/// page does not end at a value's end or a value is not UTF-8.
fn plain_values(mut page: &[u8]) -> Option<Vec<String>> {
    let mut values = Vec::new();
    while !page.is_empty() {
        let (len, rest) = page.split_first_chunk::<4>()?;
        let len = u32::from_le_bytes(*len) as usize;
        let value = rest.get(..len)?;
        values.push(String::from_utf8(value.to_vec()).ok()?);
        page = &rest[len..];
    }
    Some(values)
}

/// A text column longer than a page (1 MiB) in one row group is cut into
/// several pages, each a whole number of values (read page by page with
/// the crate's low-level reader and decoded here, from the format's
/// definition of PLAIN), each at least 1 MiB but the last; the offset
/// index lists the same pages and the rows each starts at, so that a
/// reader skipping to rows of the last page (through the index) finds the
/// values the generator wrote; and every row equals the CSV's.
#[test]
fn long_text_columns_span_pages_cut_at_values() {
    use parquet::arrow::ProjectionMask;
    use parquet::arrow::arrow_reader::{ArrowReaderOptions, RowSelection, RowSelector};
    use parquet::basic::{Compression, Encoding, PageType};
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::file::serialized_reader::ReadOptionsBuilder;

    let tmp = tempfile::tempdir().expect("temp dir");
    let (pgn, events) = long_events_pgn(tmp.path(), 48);
    let pgn = pgn.to_string_lossy().into_owned();
    parquet_equals_csv(&[&pgn, "-j", "1"], events.len());

    let (_out_tmp, out) = run_report(&[&pgn, "-j", "1", "--format", "parquet"]);
    let path = out.join("games.parquet");
    let options = ReadOptionsBuilder::new().with_page_index().build();
    let file = std::fs::File::open(&path).expect("games.parquet");
    let reader = SerializedFileReader::new_with_options(file, options).expect("parquet");
    let meta = reader.metadata();
    assert_eq!(meta.num_row_groups(), 1, "one row group at -j 1");
    let at = meta
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .position(|c| c.name() == "event")
        .expect("an event column");
    let chunk = meta.row_group(0).column(at);
    assert_eq!(chunk.compression(), Compression::ZSTD(Default::default()));
    let mut pages = Vec::new();
    for page in reader
        .get_row_group(0)
        .expect("row group")
        .get_column_page_reader(at)
        .expect("pages")
    {
        let page = page.expect("page");
        assert_eq!(page.page_type(), PageType::DATA_PAGE);
        assert_eq!(page.encoding(), Encoding::PLAIN);
        let values = plain_values(page.buffer()).expect("whole UTF-8 values");
        assert_eq!(values.len(), page.num_values() as usize);
        pages.push((page.buffer().len(), values));
    }
    assert!(pages.len() >= 2, "{} pages", pages.len());
    for (bytes, _) in &pages[..pages.len() - 1] {
        assert!(*bytes >= 1 << 20, "a page of {bytes} bytes before the last");
    }
    let read: Vec<String> = pages.iter().flat_map(|(_, v)| v.clone()).collect();
    assert_eq!(read, events, "the values, page after page");

    let index = meta
        .page_index()
        .and_then(|p| p.offset_index(0, at))
        .expect("an offset index");
    let locations = index.page_locations();
    assert_eq!(locations.len(), pages.len());
    let mut first = 0;
    for (location, (_, values)) in locations.iter().zip(&pages) {
        assert_eq!(location.first_row_index, first);
        first += values.len() as i64;
    }
    assert_eq!(locations[0].offset, chunk.data_page_offset());

    // Two rows of the last page, read through the offset index.
    let skip = locations[locations.len() - 1].first_row_index as usize + 1;
    let file = std::fs::File::open(&path).expect("games.parquet");
    let options = ArrowReaderOptions::new()
        .with_page_index_policy(parquet::file::metadata::PageIndexPolicy::Required);
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(file, options).expect("parquet");
    let mask = ProjectionMask::leaves(builder.parquet_schema(), [at]);
    let selection = RowSelection::from(vec![RowSelector::skip(skip), RowSelector::select(2)]);
    let mut got = Vec::new();
    for batch in builder
        .with_projection(mask)
        .with_row_selection(selection)
        .build()
        .expect("reader")
    {
        let batch = batch.expect("batch");
        let column = batch.column(0);
        got.extend((0..batch.num_rows()).map(|i| cell(column.as_ref(), i)));
    }
    assert_eq!(got, events[skip..skip + 2]);
}

/// `--where` compares numbers as written, exactly: values a 64-bit float
/// cannot tell apart (2^53 + 1 and 2^53, twenty nines and 10^20, a
/// difference in the twentieth decimal) are told apart, as Python's
/// `decimal.Decimal` (and int) comparisons tell them apart.
#[test]
fn where_compares_long_numbers_exactly() {
    let rounds = [
        "9007199254740993",
        "9007199254740992",
        "99999999999999999999",
        "100000000000000000000",
        "1.00000000000000000001",
        "-0",
    ];
    let pgn: String = rounds
        .iter()
        .map(|r| format!("[Round \"{r}\"]\n\n1. e4 *\n\n"))
        .collect();
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("rounds.pgn");
    std::fs::write(&file, pgn).unwrap();
    let selected = |condition: &str| -> Vec<String> {
        let (_out_tmp, out) = run_report(&["--where", condition, file.to_str().unwrap()]);
        read_csv(&out.join("games.csv"))
            .iter()
            .map(|r| r["round"].clone())
            .collect()
    };
    assert_eq!(
        selected("Round>9007199254740992"),
        rounds[..1]
            .iter()
            .chain(&rounds[2..4])
            .map(|r| r.to_string())
            .collect::<Vec<_>>()
    );
    assert_eq!(
        selected("Round<=9007199254740992"),
        ["9007199254740992", "1.00000000000000000001", "-0"]
    );
    assert_eq!(
        selected("Round>=99999999999999999999.5"),
        ["100000000000000000000"]
    );
    assert_eq!(
        selected("Round>1"),
        [
            "9007199254740993",
            "9007199254740992",
            "99999999999999999999",
            "100000000000000000000",
            "1.00000000000000000001"
        ]
    );
    assert_eq!(selected("Round<0.0"), Vec::<String>::new());
    assert_eq!(selected("Round>=0"), rounds.map(String::from).to_vec());
}
