//! The `moves` column: the main line as played, kept only when asked for.

/// Appends a move to the `--moves` list, if one is kept. The move is
/// written by a closure so that, without `--moves`, no text is formatted:
/// a UCI string per ply was once a third of the replay's time.
pub(crate) fn record_move<D: std::fmt::Display>(list: &mut Option<String>, mv: impl FnOnce() -> D) {
    if let Some(list) = list {
        let mv = mv();
        use std::fmt::Write;
        if !list.is_empty() {
            list.push(' ');
        }
        let _ = write!(list, "{mv}");
    }
}
