//! The vector line reader: reads runs of the two kinds of line most of a
//! PGN file is made of, one-tag lines and movetext lines, with the byte
//! classifier of `scan.rs`, each run in one pass. Every line it reads is
//! still decided by the rules (`rules.rs`): it asks them about the line's
//! start before reading it, and gives back (returns `false` or `None`,
//! nothing changed) every line it cannot read as they say, which the
//! byte-exact reader then reads.

use super::cuts::{self, CommentCut};
use super::rules::Verdict;
use super::scan::{self, SegmentEnd};
use super::{GameSpan, Line, Scan, Splitter};

impl<'a> Splitter<'a> {
    /// A run of lines that are each one tag (`scan::one_tag_line`), the
    /// run's lines classified in one vector pass, each taken as the rules
    /// say (the first may end the game before it and start one), and an
    /// empty line after them. False when the line at `pos` is not such a
    /// tag line, or the rules want it read otherwise.
    #[inline(always)]
    pub(super) fn one_tag_lines(&mut self, out: &mut Vec<GameSpan>) -> bool {
        let buf = self.buf;
        if buf.get(self.pos) != Some(&b'[') {
            return false;
        }
        let mut ev = scan::Events::new(self.simd, buf, self.pos);
        let Some((le, mut next)) = scan::one_tag_line(buf, &mut ev, self.pos, self.is_final) else {
            return false;
        };
        let line = Line::new(buf, self.pos, Some(le), self.line, false);
        let mut verdict = self.game.line(&line);
        if verdict == Verdict::EndGame {
            self.end_game(out);
            verdict = self.game.line(&line);
        }
        if verdict != Verdict::Tags {
            return false;
        }
        loop {
            self.game.tags_read(next);
            self.advance(next);
            if buf.get(self.pos) != Some(&b'[') {
                break;
            }
            match scan::one_tag_line(buf, &mut ev, self.pos, self.is_final) {
                Some((_, n)) => next = n,
                None => break,
            }
            if !self.game.tag_line_goes_on() {
                break;
            }
        }
        self.empty_line(out);
        true
    }

    /// When the line at `pos` is empty and known to be complete: takes it
    /// as the rules say (a blank line in a tag section or in movetext).
    #[inline(always)]
    fn empty_line(&mut self, out: &mut Vec<GameSpan>) {
        if !matches!(self.buf.get(self.pos), Some(b'\n' | b'\r')) {
            return;
        }
        let Some(next) = scan::next_line(self.buf, self.pos, self.is_final) else {
            return;
        };
        let line = Line::empty(self.buf, self.pos, self.line);
        loop {
            match self.game.line(&line) {
                Verdict::EndGame => self.end_game(out),
                // A blank line is stepped over (no other verdict is given).
                _ => return self.advance(next),
            }
        }
    }

    /// A line that starts with text which the rules say is movetext
    /// (starting a game, following its tags, going on, or after a blank
    /// line in it), read
    /// with the vector scan, with the lines after it that go on with the
    /// movetext. A game the line ends (rule 7: movetext after a result) is
    /// ended first; a lone result the rules keep is stepped over. `None`
    /// for every other line, which the byte-exact reader then reads.
    ///
    /// The state may change before the line is known to be complete; when
    /// it is not, the caller resumes at the game's start, as the byte-exact
    /// reader does.
    #[inline(always)]
    pub(super) fn fast_movetext_line(&mut self, out: &mut Vec<GameSpan>) -> Option<Scan> {
        let line = self.text_line()?;
        let mut verdict = self.game.line(&line);
        if verdict == Verdict::EndGame {
            // As the byte-exact reader does, a game is ended only at a
            // line known to be complete, so that both readers stop a
            // window at the same place.
            scan::line_end(self.simd, self.buf, self.pos, self.is_final)?;
            self.end_game(out);
            verdict = self.game.line(&line);
        }
        // A line that starts with text is movetext, ends the game, is kept
        // whole (a lone result after a blank line), or needs its end (which
        // changes nothing); no other verdict is given.
        match verdict {
            Verdict::Movetext => Some(self.movetext_fast(line.text(), out)),
            Verdict::MoreMovetext => Some(self.movetext_fast(line.start(), out)),
            Verdict::Keep => {
                let Some((_, next)) = scan::line_end(self.simd, self.buf, self.pos, self.is_final)
                else {
                    return Some(Scan::Incomplete);
                };
                self.game.content_end = next;
                self.advance(next);
                Some(Scan::Done)
            }
            _ => None,
        }
    }

    /// The line at `pos`, when it starts with text that is neither a tag
    /// nor an escape: the lines this reader may read as movetext.
    #[inline(always)]
    fn text_line(&self) -> Option<Line<'a>> {
        let line = Line::new(self.buf, self.pos, None, self.line, false);
        line.starts_with_text().then_some(line)
    }

    /// In movetext, where the line at `pos` goes on with the game's
    /// movetext, when the rules say it does.
    #[inline(always)]
    fn movetext_goes_on(&mut self) -> Option<usize> {
        let line = self.text_line()?;
        self.game.text_goes_on(&line).then(|| line.start())
    }

    /// [`Self::movetext_line`] from `p`, with the line end not yet known,
    /// and on over the following lines while they go on with the movetext
    /// (and an empty line after them): each stretch of a line (up to a
    /// comment open at its end, then from that comment's end) is scanned by
    /// `scan::scan_segment`; an irregular stretch is read by
    /// `movetext_line` from its start, so the two readers agree byte for
    /// byte.
    #[inline(always)]
    fn movetext_fast(&mut self, mut p: usize, out: &mut Vec<GameSpan>) -> Scan {
        let buf = self.buf;
        let mut ev = scan::Events::new(self.simd, buf, p);
        loop {
            let seg = scan::scan_segment(buf, &mut ev, p, self.game.depth);
            if seg.end == SegmentEnd::Irregular {
                return match scan::line_end(self.simd, buf, p, self.is_final) {
                    Some((le, next)) => self.movetext_line(p, le, next),
                    None => Scan::Incomplete,
                };
            }
            // What `note_text` records for the text before the comment or
            // line end.
            let last_token = seg
                .token_end
                .map(|e| seg.depth == 0 && scan::ends_in_result(buf, p, e));
            self.game.note_tokens(seg.depth, last_token);
            match seg.end {
                SegmentEnd::Line(le) => {
                    let Some(next) = scan::next_line(buf, le, self.is_final) else {
                        return Scan::Incomplete;
                    };
                    self.game.content_end = next;
                    self.advance(next);
                    if next == le + 2 {
                        // The `\n` of a `\r\n`.
                        ev.next();
                    }
                    if let Some(start) = self.movetext_goes_on() {
                        p = start;
                        continue;
                    }
                    self.empty_line(out);
                    return Scan::Done;
                }
                SegmentEnd::Eof | SegmentEnd::Irregular => {
                    if !self.is_final {
                        return Scan::Incomplete;
                    }
                    self.game.content_end = buf.len();
                    self.advance(buf.len());
                    return Scan::Done;
                }
                SegmentEnd::Comment {
                    open,
                    close,
                    lines,
                    blank_line,
                } => {
                    // A comment with no blank line inside never cuts.
                    if blank_line {
                        match cuts::comment_cut(buf, open, close, self.is_final) {
                            CommentCut::None => {}
                            CommentCut::Cut(cut) => return self.cut(cut),
                            CommentCut::Incomplete => return Scan::Incomplete,
                        }
                    }
                    self.line += lines;
                    match close {
                        Some(c) => p = c + 1,
                        None if self.is_final => {
                            self.game.content_end = buf.len();
                            self.pos = buf.len();
                            return Scan::Done;
                        }
                        None => return Scan::Incomplete,
                    }
                }
            }
        }
    }
}
