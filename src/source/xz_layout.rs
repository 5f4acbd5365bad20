//! Where the compressed bytes an `.xz` decoder has used so far end in the
//! file's layout: inside a block (its header, its LZMA2 chunks, its padding
//! and its check) or outside any (the stream header, the index, the
//! footer, stream padding), and where the block's text starts.
//!
//! liblzma checks a block's text only at the block's end (a CRC-32, CRC-64
//! or SHA-256 of it), and damaged data decodes to garbage for a while
//! before the decoder notices: a one-bit flip in a 4 MB file of lichess
//! games gave up to 21 kB of garbage before the error, which read as PGN
//! made rows of "illegal moves" that were the damage's. So when the
//! decoder fails inside a block, the text it made just before is
//! unreliable; when it fails outside (a damaged index or footer, bytes
//! appended to the file), every block has passed its check and the text is
//! sound. The walk reads only sizes (xz file format 1.1.0, sections 2 and
//! 3): the stream header's check type, each block header's size, each
//! LZMA2 chunk's header (its compressed size, to pass over its data, and
//! the size of its text), the index's fields, the footer.

use super::compression::XZ_MAGIC;

/// Where the walk stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// In a stream header's 12 bytes (magic, flags, CRC-32).
    StreamHeader,
    /// A block header's size byte, or the index's indicator (0).
    BlockOrIndex,
    /// The control byte of an LZMA2 chunk (0: the block's data ends).
    ChunkControl,
    /// The rest of an LZMA2 chunk's header after its control byte.
    ChunkHeader(u8),
    /// The index: its number of records, then two sizes per record (each
    /// a variable-length integer), then padding, its CRC-32 and the
    /// stream footer, passed over.
    IndexCount,
    IndexRecords(u64),
    /// Zero bytes between streams, or the next stream's magic.
    StreamPadding,
    /// Bytes that do not fit the layout: where the decoder fails too.
    Lost,
}

/// A block the walk is inside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct BlockAt {
    /// Its number in the file, from 1.
    pub number: u64,
    /// Its first compressed byte, and the offset in the text where its
    /// text starts.
    pub compressed: u64,
    pub text: u64,
}

/// The walk of an `.xz` input's layout over the bytes its decoder uses.
#[derive(Debug)]
pub(super) struct Layout {
    state: State,
    /// Bytes of the field being read, and how many of them are in.
    field: [u8; 12],
    got: usize,
    /// Bytes to pass over before the state's next byte.
    skip: u64,
    /// The current stream's check size, in bytes.
    check_bytes: u64,
    /// The block being walked (its header, data, padding and check), and
    /// its header and data's bytes so far (for its padding).
    block: Option<BlockAt>,
    block_bytes: u64,
    blocks: u64,
    /// The text of the blocks walked, as their chunks' headers give it.
    text: u64,
    /// The index's bytes so far (for its padding), and the bits of the
    /// variable-length integer being read.
    index_bytes: u64,
    varint: u64,
    shift: u32,
    /// Compressed bytes walked.
    at: u64,
}

const STREAM_HEADER_BYTES: usize = 12;
const STREAM_FOOTER_BYTES: u64 = 12;
const CRC32_BYTES: u64 = 4;

impl Layout {
    pub(super) fn new() -> Layout {
        Layout {
            state: State::StreamHeader,
            field: [0; 12],
            got: 0,
            skip: 0,
            check_bytes: 0,
            block: None,
            block_bytes: 0,
            blocks: 0,
            text: 0,
            index_bytes: 0,
            varint: 0,
            shift: 0,
            at: 0,
        }
    }

    /// The block the bytes walked end inside (its check not passed yet),
    /// if any; bytes that do not fit the layout inside a block leave the
    /// walk there.
    pub(super) fn in_block(&self) -> Option<BlockAt> {
        self.block
    }

    /// Walks the next `bytes` the decoder has used.
    pub(super) fn walk(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        while !rest.is_empty() {
            if self.skip > 0 {
                let n = usize::try_from(self.skip)
                    .unwrap_or(usize::MAX)
                    .min(rest.len());
                rest = rest.get(n..).unwrap_or_default();
                self.skip -= n as u64;
                self.at += n as u64;
                if self.skip == 0 {
                    self.skipped();
                }
                continue;
            }
            let Some((&byte, after)) = rest.split_first() else {
                break;
            };
            rest = after;
            self.at += 1;
            self.byte(byte);
        }
    }

    /// A run of bytes to pass over has been passed: what follows it.
    fn skipped(&mut self) {
        if self.state == State::BlockOrIndex {
            // The block's padding and check: it has passed.
            self.block = None;
        }
    }

    /// Passes over `n` bytes (none: at once), then reads in `state`.
    fn pass(&mut self, n: u64, state: State) {
        self.state = state;
        self.skip = n;
        if n == 0 {
            self.skipped();
        }
    }

    fn byte(&mut self, byte: u8) {
        match self.state {
            State::StreamHeader => {
                self.field_byte(byte);
                if self.got == STREAM_HEADER_BYTES {
                    self.got = 0;
                    // The stream flags' second byte: the check's type.
                    let check = u32::from(self.field[7] & 0x0F);
                    self.check_bytes = match check {
                        0 => 0,
                        id => 4 << ((id - 1) / 3),
                    };
                    self.state = State::BlockOrIndex;
                }
            }
            State::BlockOrIndex if byte == 0 => {
                self.index_bytes = 1;
                self.varint = 0;
                self.shift = 0;
                self.state = State::IndexCount;
            }
            State::BlockOrIndex => {
                self.blocks += 1;
                self.block = Some(BlockAt {
                    number: self.blocks,
                    compressed: self.at - 1,
                    text: self.text,
                });
                let header = (u64::from(byte) + 1) * 4;
                self.block_bytes = header;
                self.pass(header - 1, State::ChunkControl);
            }
            State::ChunkControl => self.chunk_control(byte),
            State::ChunkHeader(control) => {
                self.field_byte(byte);
                self.chunk_header(control);
            }
            State::IndexCount | State::IndexRecords(_) => self.index_byte(byte),
            State::StreamPadding if byte == 0 => {}
            State::StreamPadding if byte == XZ_MAGIC[0] => {
                self.got = 0;
                self.field_byte(byte);
                self.state = State::StreamHeader;
            }
            State::StreamPadding | State::Lost => self.state = State::Lost,
        }
    }

    /// The next byte of the field being read (a stream header, a chunk
    /// header).
    fn field_byte(&mut self, byte: u8) {
        if let Some(slot) = self.field.get_mut(self.got) {
            *slot = byte;
        }
        self.got += 1;
    }

    fn chunk_control(&mut self, control: u8) {
        self.block_bytes += 1;
        match control {
            // The end of the block's data: its padding (to a multiple of
            // four bytes of header and data), then its check.
            0 => {
                let padding = (4 - self.block_bytes % 4) % 4;
                self.pass(padding + self.check_bytes, State::BlockOrIndex);
            }
            0x01 | 0x02 | 0x80..=0xFF => {
                self.got = 0;
                self.state = State::ChunkHeader(control);
            }
            _ => self.state = State::Lost,
        }
    }

    /// A byte of a chunk's header has come in: with the header whole, its
    /// data is passed over and its text counted.
    fn chunk_header(&mut self, control: u8) {
        // An uncompressed chunk: its size; an LZMA one: the low 16 bits of
        // its text's size, its compressed size, and a properties byte
        // when its control byte says so.
        let need = match control {
            0x01 | 0x02 => 2,
            0xC0..=0xFF => 5,
            _ => 4,
        };
        if self.got < need {
            return;
        }
        let field = |i: usize| u64::from(self.field[i]);
        let (text, data) = match control {
            0x01 | 0x02 => {
                let size = (field(0) << 8 | field(1)) + 1;
                (size, size)
            }
            _ => (
                (u64::from(control & 0x1F) << 16 | field(0) << 8 | field(1)) + 1,
                (field(2) << 8 | field(3)) + 1,
            ),
        };
        self.got = 0;
        self.text += text;
        self.block_bytes += need as u64 + data;
        self.pass(data, State::ChunkControl);
    }

    /// A byte of the index's variable-length integers (seven bits a byte,
    /// low bits first, the top bit set on all but the last); once the last
    /// is in, its padding, CRC-32 and the stream footer are passed over.
    fn index_byte(&mut self, byte: u8) {
        self.index_bytes += 1;
        self.varint |= u64::from(byte & 0x7F).checked_shl(self.shift).unwrap_or(0);
        if byte & 0x80 != 0 {
            self.shift += 7;
            if self.shift > 63 {
                self.state = State::Lost;
            }
            return;
        }
        let value = std::mem::take(&mut self.varint);
        self.shift = 0;
        let left = match self.state {
            // Two sizes per record.
            State::IndexCount => value.saturating_mul(2),
            State::IndexRecords(left) => left.saturating_sub(1),
            _ => return,
        };
        self.state = State::IndexRecords(left);
        if left == 0 {
            let padding = (4 - self.index_bytes % 4) % 4;
            self.pass(
                padding + CRC32_BYTES + STREAM_FOOTER_BYTES,
                State::StreamPadding,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::decoding::tests::{fixture, manifest};

    /// The fixtures of testdata/compressed/ and their blocks as `xz
    /// --list` reads them from the file's index (`expected.json`'s
    /// `xz_blocks`: compressed start and end, text start and end).
    fn fixtures() -> Vec<(String, Vec<u8>, Vec<[u64; 4]>)> {
        let manifest = manifest();
        let files = manifest["files"].as_object().expect("files");
        let mut found = Vec::new();
        for (name, expect) in files {
            let Some(blocks) = expect.get("xz_blocks").and_then(|b| b.as_array()) else {
                continue;
            };
            let blocks = blocks
                .iter()
                .map(|b| std::array::from_fn(|i| b[i].as_u64().expect("offset")))
                .collect();
            let data = fixture(name);
            found.push((name.clone(), data, blocks));
        }
        assert!(found.len() >= 4, "{} xz fixtures", found.len());
        found
    }

    /// The block `xz --list` puts the first `k` bytes' end in: one whose
    /// header has begun and whose check has not ended.
    fn expected_at(blocks: &[[u64; 4]], k: u64) -> Option<BlockAt> {
        let (i, b) = blocks
            .iter()
            .enumerate()
            .find(|(_, b)| b[0] < k && k < b[1])?;
        Some(BlockAt {
            number: i as u64 + 1,
            compressed: b[0],
            text: b[2],
        })
    }

    /// Walked a byte at a time, the walk is inside exactly the blocks `xz
    /// --list` gives (one stream of one block or of many, three streams
    /// with padding between them), up to the damage in a damaged file;
    /// and walking in one piece ends where walking by bytes does.
    #[test]
    fn the_walk_finds_the_blocks_xz_lists() {
        for (name, data, blocks) in fixtures() {
            // A damaged file's last listed block holds the damage: its
            // chunk headers may be garbled.
            let sound_to = match name.starts_with("damaged") {
                true => blocks.last().map_or(0, |b| b[0] + 1),
                false => data.len() as u64,
            };
            let mut layout = Layout::new();
            for (k, byte) in data.iter().take(sound_to as usize).enumerate() {
                layout.walk(std::slice::from_ref(byte));
                let k = k as u64 + 1;
                assert_eq!(
                    layout.in_block(),
                    expected_at(&blocks, k),
                    "{name}: after {k} bytes"
                );
            }
            for b in &blocks {
                for k in [b[0], b[0] + 1, b[1] - 1, b[1]] {
                    if k <= sound_to {
                        let mut at_once = Layout::new();
                        at_once.walk(&data[..k as usize]);
                        assert_eq!(
                            at_once.in_block(),
                            expected_at(&blocks, k),
                            "{name}: {k} at once"
                        );
                    }
                }
            }
        }
    }

    /// Bytes that do not fit: inside a block the walk stays in it (the
    /// decoder fails there too); after the last stream, outside.
    #[test]
    fn bytes_that_do_not_fit_leave_the_walk_where_they_are() {
        for (name, data, blocks) in fixtures() {
            if name.starts_with("damaged") {
                continue;
            }
            // Where the first chunk's control byte is due (after the
            // block header, whose first byte gives its size), one that
            // is none, and more bytes after it.
            let first = blocks[0];
            let header = (usize::from(data[first[0] as usize]) + 1) * 4;
            let mut inside = data[..first[0] as usize + header].to_vec();
            inside.extend_from_slice(&[0x40; 64]);
            let mut layout = Layout::new();
            layout.walk(&inside);
            assert_eq!(layout.state, State::Lost, "{name}");
            assert_eq!(
                layout.in_block(),
                expected_at(&blocks, first[0] + 1),
                "{name}"
            );
            let mut after = data.clone();
            after.extend_from_slice(b"not xz data\n");
            let mut layout = Layout::new();
            layout.walk(&after);
            assert_eq!(layout.state, State::Lost, "{name}");
            assert_eq!(layout.in_block(), None, "{name}");
        }
    }
}
