//! What the measurement programs of `benches/` (the `harness = false`
//! targets with `bench = false`, run by hand with
//! `cargo bench --bench NAME -- ARGS`) share.

/// The command-line arguments, without the `--bench` that `cargo bench`
/// passes to every bench program.
pub fn args() -> Vec<String> {
    std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect()
}
