//! Text whose lines end in `\r\r\n`: a Windows file whose line ends were
//! converted once too often (a Python script on Windows writing `"\r\n"`
//! to a file opened in text mode, an FTP transfer in ASCII mode of a file
//! already in CRLF, the word-wrap bug of Windows XP's Notepad). Read as
//! PGN's lines are elsewhere (`crate::pgn::lines`: `\n`, `\r\n` and a
//! lone `\r` each end a line), every such line end would be two, a blank
//! line after every line, and a blank line between a game's tags and its
//! moves would be three: python-chess then reads each game as a game of
//! tags alone and a game of moves alone. pgn-extract and pgn-reader,
//! which read a `\r` as a space, read the games whole.
//!
//! Such a text is recognised by its first bytes ([`doubled_cr`]) and read
//! through [`CrCrLfReader`], which writes each `\r\r\n` (any run of two or
//! more `\r` before a `\n`) as `\r\n`; every other byte is kept. Offsets
//! then count the text so read, as they count UTF-8 for a UTF-16 input.

use std::io::{BufRead, Read};

use super::read_ahead::read_buffered;

/// Whether `head`, the first bytes of a text, ends its lines in `\r\r\n`:
/// at least two of its line feeds, and more than half of them, follow two
/// carriage returns. A classic Mac file (`\r` alone, a blank line `\r\r`)
/// has no line feed; a CRLF file with a stray `\r\r\n` is left as it is.
pub(super) fn doubled_cr(head: &[u8]) -> bool {
    let mut feeds = 0usize;
    let mut doubled = 0usize;
    for at in memchr::memchr_iter(b'\n', head) {
        feeds += 1;
        if at >= 2 && head.get(at - 2..at) == Some(b"\r\r") {
            doubled += 1;
        }
    }
    doubled >= 2 && doubled * 2 > feeds
}

/// Reads a text with each run of two or more `\r` before a `\n` written
/// as one `\r\n` ([`doubled_cr`]'s texts).
pub(super) struct CrCrLfReader<R> {
    inner: R,
    /// The text so far read and rewritten, handed out from `at`.
    out: Vec<u8>,
    at: usize,
    /// Carriage returns read and not yet written: whether they end in a
    /// `\n` is known only at the next byte, perhaps in the next read.
    pending_cr: usize,
    eof: bool,
}

impl<R: BufRead> CrCrLfReader<R> {
    pub(super) fn new(inner: R) -> Self {
        CrCrLfReader {
            inner,
            out: Vec::new(),
            at: 0,
            pending_cr: 0,
            eof: false,
        }
    }

    /// Rewrites the next bytes of `inner` into `out`; at its end, writes
    /// the carriage returns still held.
    fn refill(&mut self) -> std::io::Result<()> {
        self.out.clear();
        self.at = 0;
        let chunk = self.inner.fill_buf()?;
        if chunk.is_empty() {
            self.eof = true;
            self.out.resize(self.pending_cr, b'\r');
            self.pending_cr = 0;
            return Ok(());
        }
        let mut rest = chunk;
        while !rest.is_empty() {
            if self.pending_cr > 0 {
                // The run of `\r` goes on, ends in a `\n`, or ends.
                match rest.first() {
                    Some(b'\r') => {
                        self.pending_cr += 1;
                        rest = rest.get(1..).unwrap_or_default();
                        continue;
                    }
                    Some(b'\n') => self.out.push(b'\r'),
                    _ => self.out.resize(self.out.len() + self.pending_cr, b'\r'),
                }
                self.pending_cr = 0;
            }
            match memchr::memchr(b'\r', rest) {
                Some(i) => {
                    self.out
                        .extend_from_slice(rest.get(..i).unwrap_or_default());
                    self.pending_cr = 1;
                    rest = rest.get(i + 1..).unwrap_or_default();
                }
                None => {
                    self.out.extend_from_slice(rest);
                    rest = &[];
                }
            }
        }
        let used = chunk.len();
        self.inner.consume(used);
        Ok(())
    }
}

impl<R: BufRead> Read for CrCrLfReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        read_buffered(self, buf)
    }
}

impl<R: BufRead> BufRead for CrCrLfReader<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        // A chunk of carriage returns alone leaves nothing to hand out
        // yet: read on.
        while self.at >= self.out.len() && !self.eof {
            self.refill()?;
        }
        Ok(self.out.get(self.at..).unwrap_or_default())
    }

    fn consume(&mut self, amt: usize) {
        self.at = (self.at + amt).min(self.out.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The rewrite by its definition: every run of two or more `\r`
    /// before a `\n` becomes one `\r`.
    fn rewritten(text: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut run = 0;
        for &b in text {
            if b == b'\r' {
                run += 1;
                continue;
            }
            let keep = if b == b'\n' && run >= 2 { 1 } else { run };
            out.resize(out.len() + keep, b'\r');
            run = 0;
            out.push(b);
        }
        out.resize(out.len() + run, b'\r');
        out
    }

    /// Reads `text` through the rewriter, the inner reader handing out
    /// at most `piece` bytes at a time.
    fn read_through(text: &[u8], piece: usize) -> Vec<u8> {
        let inner = std::io::BufReader::with_capacity(piece, text);
        let mut out = Vec::new();
        CrCrLfReader::new(inner)
            .read_to_end(&mut out)
            .expect("read");
        out
    }

    #[test]
    fn a_doubled_line_end_becomes_one_and_nothing_else_changes() {
        let cases: [(&[u8], &[u8]); 7] = [
            (
                b"[Event \"a\"]\r\r\n\r\r\n1. e4 *\r\r\n",
                b"[Event \"a\"]\r\n\r\n1. e4 *\r\n",
            ),
            (b"a\r\r\r\nb", b"a\r\nb"),
            (b"a\r\nb\nc\rd", b"a\r\nb\nc\rd"),
            (b"a\r\rb", b"a\r\rb"),
            (b"a\r\r", b"a\r\r"),
            (b"\r\r\n", b"\r\n"),
            (b"", b""),
        ];
        for (text, want) in cases {
            assert_eq!(rewritten(text), want, "{text:?}");
            for piece in 1..8 {
                assert_eq!(
                    read_through(text, piece),
                    want,
                    "{text:?} in pieces of {piece}"
                );
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Whatever the text and however it is cut into reads.
        #[test]
        fn reads_in_any_pieces_give_the_rewrite(
            text in proptest::collection::vec(prop_oneof![Just(b'\r'), Just(b'\n'), Just(b'a')], 0..64),
            piece in 1usize..10,
        ) {
            prop_assert_eq!(read_through(&text, piece), rewritten(&text));
        }
    }

    #[test]
    fn only_a_text_of_doubled_line_ends_is_recognised() {
        let doubled = b"[Event \"a\"]\r\r\n[Site \"b\"]\r\r\n\r\r\n1. e4 *\r\r\n".as_slice();
        assert!(doubled_cr(doubled));
        // Windows, Unix and classic Mac line ends, blank lines included.
        assert!(!doubled_cr(b"[Event \"a\"]\r\n\r\n1. e4 *\r\n"));
        assert!(!doubled_cr(b"[Event \"a\"]\n\n1. e4 *\n"));
        assert!(!doubled_cr(b"[Event \"a\"]\r\r1. e4 *\r\r"));
        // One stray doubled line end in a CRLF text, or half of them.
        assert!(!doubled_cr(b"a\r\nb\r\r\nc\r\nd\r\n"));
        assert!(!doubled_cr(b"a\r\r\nb\r\nc\r\r\nd\r\n"));
        assert!(doubled_cr(b"a\r\r\nb\r\nc\r\r\nd\r\r\n"));
    }
}
