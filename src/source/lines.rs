//! A text read as lines, for the inputs that are lists of
//! records (FEN, EPD and perft files): every line in order, decoded to
//! UTF-8 from the encoding the source found, with its 1-based number.
//!
//! The window is handed on a run of whole lines at a time (up to the last
//! line end in it), so reading costs one pass whatever the line lengths; a
//! line longer than the window makes the window grow until it fits.

use super::SourceError;
use super::encoding::decode_game;
use super::window::{Block, TextWindow, WindowEnd};

/// Bytes asked of the source at a time.
const WINDOW: usize = 1 << 16;

/// The lines of one text; see the module docs.
pub struct TextLines {
    source: TextWindow,
    /// Whole lines taken from the source and not yet returned.
    chunk: Option<Block>,
    at: usize,
    /// Number of the next line.
    line: u64,
    done: bool,
}

impl TextLines {
    pub fn new(source: TextWindow) -> Self {
        TextLines {
            source,
            chunk: None,
            at: 0,
            line: 1,
            done: false,
        }
    }

    /// The text being read.
    pub fn source(&self) -> &TextWindow {
        &self.source
    }

    /// The next run of whole lines from the source; `Ok(false)` at its end.
    fn refill(&mut self) -> Result<bool, SourceError> {
        let mut want = WINDOW;
        loop {
            let (window, reach) = self.source.window(want);
            let len = window.len();
            let cut = memchr::memrchr(b'\n', window).map(|i| i + 1);
            let take = match (reach, cut) {
                (WindowEnd::More | WindowEnd::Broken, Some(n)) => n,
                (WindowEnd::More, None) => {
                    want = want.max(len).saturating_mul(2);
                    continue;
                }
                (WindowEnd::Final, _) if len > 0 => len,
                (WindowEnd::Final, _) => return Ok(false),
                (WindowEnd::Broken, None) => {
                    let offset = self.source.offset() + len as u64;
                    return Err(SourceError::Truncated {
                        path: self.source.path().to_path_buf(),
                        what: self.source.text_word(),
                        offset,
                        line: self.line,
                        source: self.source.take_error(),
                    });
                }
            };
            self.chunk = Some(self.source.take(take));
            self.at = 0;
            return Ok(true);
        }
    }
}

impl Iterator for TextLines {
    type Item = Result<(u64, String), SourceError>;

    /// The next line without its line end (`\n` or `\r\n`), and its number.
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.done {
                return None;
            }
            if let Some(chunk) = &self.chunk
                && let Some(rest) = chunk.bytes().get(self.at..)
                && !rest.is_empty()
            {
                let end = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
                let line = rest.get(..end).unwrap_or_default();
                self.at += end;
                let text = line.strip_suffix(b"\n").unwrap_or(line);
                let text = text.strip_suffix(b"\r").unwrap_or(text);
                let number = self.line;
                self.line += 1;
                let encoding = self.source.encoding();
                return Some(Ok((number, decode_game(text, encoding).into_owned())));
            }
            match self.refill() {
                Ok(true) => {}
                Ok(false) => self.done = true,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Opened;
    use crate::source::ReadOptions;
    use std::path::Path;
    use std::sync::Arc;

    fn lines_of(bytes: &[u8], streamed: bool) -> Vec<(u64, String)> {
        let opts = ReadOptions::default();
        let source = if streamed {
            Opened::from_read(
                Path::new("-"),
                Box::new(std::io::Cursor::new(bytes.to_vec())),
                &opts,
            )
            .and_then(|o| o.into_text())
            .expect("in-memory stream of text")
        } else {
            TextWindow::from_shared(Path::new("x"), Arc::new(bytes.to_vec()), &opts)
        };
        TextLines::new(source)
            .map(|l| l.expect("no read error"))
            .collect()
    }

    /// Every line, numbered, whatever its line end and length: a line
    /// longer than the window, a last line without a line end, blank lines.
    #[test]
    fn every_line_comes_back_in_order() {
        let long = "x".repeat(3 * WINDOW + 5);
        let text = format!("a\r\nb\n\n{long}\nlast");
        let want: Vec<(u64, String)> = ["a", "b", "", long.as_str(), "last"]
            .iter()
            .enumerate()
            .map(|(i, l)| (i as u64 + 1, l.to_string()))
            .collect();
        for streamed in [false, true] {
            assert_eq!(lines_of(text.as_bytes(), streamed), want);
            assert_eq!(lines_of(b"", streamed), []);
            assert_eq!(lines_of(b"\n", streamed), [(1, String::new())]);
        }
    }

    /// Many short lines spanning many windows: none lost at a window's end.
    #[test]
    fn lines_across_windows() {
        let text: String = (0..20_000).map(|i| format!("line {i}\n")).collect();
        for streamed in [false, true] {
            let got = lines_of(text.as_bytes(), streamed);
            assert_eq!(got.len(), 20_000);
            assert!(
                got.iter()
                    .enumerate()
                    .all(|(i, (n, l))| *n == i as u64 + 1 && *l == format!("line {i}"))
            );
        }
    }
}
