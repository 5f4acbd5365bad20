//! Game counts of every PGN file under a directory (ignored: a tool, run by
//! hand on the shared corpora, which are not in the repository):
//! `PGN_DIR=<a folder of PGN collections> cargo test --test pgn -- pgn_shared_corpora --ignored --nocapture`

use std::path::Path;

use pgnmill::pgn::Batches;
use pgnmill::source::{ReadOptions, expand_inputs};

#[test]
#[ignore]
fn count_games_under_pgn_dir() {
    let Ok(dir) = std::env::var("PGN_DIR") else {
        return;
    };
    for input in expand_inputs(&[Path::new(&dir).to_path_buf()]).unwrap() {
        let reader = Batches::open(&input, &ReadOptions::default()).unwrap();
        let enc = reader.encoding();
        let mut games = 0;
        for b in reader {
            games += b.unwrap().games.len();
        }
        println!("{} {} {}", input.path.display(), enc.name(), games);
    }
}
