//! What watches a report run as it goes (the command line's progress bar).

/// What a report run is told to watch: progress, as the rows are written.
pub trait Observer {
    /// `games` more games are written; `input_bytes` more of the current
    /// input itself (compressed bytes, for a compressed input: the unit of
    /// its size on disk) and `text_bytes` more of its text (decompressed,
    /// the unit of `summary.json` `bytes`) are behind them.
    fn advance(&mut self, input_bytes: u64, text_bytes: u64, games: u64);
}

/// Watches nothing.
impl Observer for () {
    fn advance(&mut self, _input_bytes: u64, _text_bytes: u64, _games: u64) {}
}
