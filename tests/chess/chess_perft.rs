//! Perft against published tables (testdata/chess/perft, provenance in its
//! README). The default run checks every position of every suite to the
//! deepest published depths whose counts stay under a node budget (and
//! always the shallowest published depth, up to 30M nodes); the `#[ignore]`d
//! `*_full` tests check every published depth (set PERFT_MAX_NODES to cap).

use flate2::read::GzDecoder;
use pgnmill::chess::{CastlingMode, Position, Setup, perft};
use std::io::Read;

struct Case {
    line: usize,
    fen: String,
    counts: Vec<(u32, u64)>,
    mode: CastlingMode,
}

fn read(name: &str) -> String {
    let path = format!("{}/testdata/chess/perft/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    if name.ends_with(".gz") {
        let mut s = String::new();
        GzDecoder::new(&bytes[..]).read_to_string(&mut s).unwrap();
        s
    } else {
        String::from_utf8(bytes).unwrap()
    }
}

fn mode_for(fen: &str, chess960: bool) -> CastlingMode {
    let shredder = Setup::parse(fen).map(|s| s.is_shredder()).unwrap_or(false);
    if chess960 || shredder {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

/// `FEN ;D1 20 ;D2 400 ...`
fn parse_epd(text: &str, chess960: bool) -> Vec<Case> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim().to_string();
        let counts = parts
            .map(|p| {
                let p = p.trim();
                let (d, n) = p.split_once(' ').unwrap();
                (
                    d.trim_start_matches('D').parse().unwrap(),
                    n.trim().parse().unwrap(),
                )
            })
            .collect();
        let mode = mode_for(&fen, chess960);
        out.push(Case {
            line: i + 1,
            fen,
            counts,
            mode,
        });
    }
    out
}

/// `id x` / `epd FEN` / `perft D N` blocks. The "tricky" files mix standard
/// positions with X-FEN Chess960 ones (`xfen-*`, `asymmetrical-and-king-on-h`
/// whose `q` right has the king on h8); their published counts come from
/// Chess960 rules, which agree with standard rules whenever the king and
/// rooks stand on e1/a1/h1, so these files run in Chess960 mode.
fn parse_perft(text: &str, chess960: bool) -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(fen) = line.strip_prefix("epd ") {
            let mode = mode_for(fen, chess960);
            out.push(Case {
                line: i + 1,
                fen: fen.to_string(),
                counts: Vec::new(),
                mode,
            });
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (d, n) = rest.split_once(' ').unwrap();
            out.last_mut()
                .unwrap()
                .counts
                .push((d.parse().unwrap(), n.trim().parse().unwrap()));
        }
    }
    out
}

/// `FEN,count,count,...` with the first count at depth `first_depth`.
fn parse_csv(text: &str, first_depth: u32, chess960: bool) -> Vec<Case> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let mut parts = line.split(',');
        let fen = parts.next().unwrap().to_string();
        let counts = parts
            .enumerate()
            .map(|(k, n)| (first_depth + k as u32, n.trim().parse().unwrap()))
            .collect();
        let mode = mode_for(&fen, chess960);
        out.push(Case {
            line: i + 1,
            fen,
            counts,
            mode,
        });
    }
    out
}

fn suite(name: &str) -> Vec<Case> {
    let text = read(name);
    match name {
        "pychess-perftsuite.epd" | "pychess-perftsuite2.epd" | "ethereal-standard.epd" => {
            parse_epd(&text, false)
        }
        "ethereal-fischer960.epd" | "pychess-frc_perftsuite.epd" => parse_epd(&text, true),
        "shakmaty-random.perft.gz" => parse_perft(&text, false),
        "python-chess-tricky.perft" | "shakmaty-tricky.perft" | "shakmaty-chess960.perft" => {
            parse_perft(&text, true)
        }
        "minic-perft.csv.txt.gz" => parse_csv(&text, 1, false),
        "minic-fischer960-d6.csv.txt" => parse_csv(&text, 6, true),
        other => panic!("unknown suite {other}"),
    }
}

/// Checks every case at every published depth whose count is at most
/// `max_nodes`, plus the shallowest published depth when it is at most 30M.
/// Returns the number of (position, depth) checks made.
fn check(name: &str, max_nodes: u64) -> usize {
    let cases = suite(name);
    assert!(!cases.is_empty(), "{name}: no cases parsed");
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in &cases {
        let setup = Setup::parse(&case.fen)
            .unwrap_or_else(|e| panic!("{name}:{}: {}: {e}", case.line, case.fen));
        let (pos, _) = Position::from_setup(&setup, case.mode)
            .unwrap_or_else(|e| panic!("{name}:{}: {e}", case.line));
        let min_depth = case.counts.iter().map(|c| c.0).min().unwrap_or(0);
        for &(depth, expected) in &case.counts {
            let shallowest = depth == min_depth && expected <= 30_000_000;
            if expected > max_nodes && !shallowest {
                continue;
            }
            let got = perft(&pos, depth);
            checked += 1;
            if got != expected {
                failures.push(format!(
                    "{name}:{}: {} ({:?}) depth {depth}: expected {expected}, got {got}",
                    case.line, case.fen, case.mode
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{name}: {} positions, {checked} checks", cases.len());
    checked
}

fn budget_from_env(default: u64) -> u64 {
    std::env::var("PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

macro_rules! suite_tests {
    ($($fast:ident, $full:ident, $file:expr, $budget:expr;)*) => {$(
        #[test]
        fn $fast() {
            assert!(check($file, $budget) > 0);
        }
        #[test]
        #[ignore = "full published depths: slow (set PERFT_MAX_NODES to cap)"]
        fn $full() {
            check($file, budget_from_env(u64::MAX));
        }
    )*};
}

suite_tests! {
    pychess_perftsuite, pychess_perftsuite_full, "pychess-perftsuite.epd", 2_000_000;
    pychess_perftsuite2, pychess_perftsuite2_full, "pychess-perftsuite2.epd", 2_000_000;
    python_chess_tricky, python_chess_tricky_full, "python-chess-tricky.perft", 5_000_000;
    shakmaty_tricky, shakmaty_tricky_full, "shakmaty-tricky.perft", 5_000_000;
    ethereal_standard, ethereal_standard_full, "ethereal-standard.epd", 2_000_000;
    shakmaty_random, shakmaty_random_full, "shakmaty-random.perft.gz", 100_000;
    minic_perft, minic_perft_full, "minic-perft.csv.txt.gz", 100_000;
    shakmaty_chess960, shakmaty_chess960_full, "shakmaty-chess960.perft", 200_000;
    ethereal_fischer960, ethereal_fischer960_full, "ethereal-fischer960.epd", 200_000;
    pychess_frc_perftsuite, pychess_frc_perftsuite_full, "pychess-frc_perftsuite.epd", 5_000_000;
    minic_fischer960_d6, minic_fischer960_d6_full, "minic-fischer960-d6.csv.txt", 30_000_000;
}
