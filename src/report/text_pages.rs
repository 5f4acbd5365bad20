//! The column chunk of one text column of a Parquet row group, written by
//! us rather than by the parquet crate's column writer ([`text_chunk`]).
//!
//! Text is most of a report's bytes, and the crate's writer copies every
//! value again (with its length) into a page buffer of its own, and makes
//! a new zstd context for every column chunk. Our column buffer
//! ([`super::arrow_rows`]) is already a PLAIN `BYTE_ARRAY` page body (a
//! 4-byte little-endian length, then the bytes, per value), and a text
//! column is required (never null, at definition level 0), so a version 1
//! data page holds no level bytes: the buffer, cut at value boundaries, is
//! the uncompressed page. We compress it with the worker's zstd context,
//! kept from one chunk to the next ([`ZSTD_LEVEL`], the level the crate
//! uses for the other columns), and leave the page header, the chunk's
//! metadata and its offset index to the crate's own types, so the file has
//! the shape the crate gives it: the same encodings, page statistics (none)
//! and page limits ([`PAGE_BYTES`], [`PAGE_ROWS`]).

use bytes::Bytes;
use parquet::basic::{Compression, Encoding, EncodingMask, PageType, ZstdLevel};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::file::metadata::{ColumnChunkMetaData, OffsetIndexBuilder, PageEncodingStats};
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;
use std::cell::RefCell;

/// zstd's level for every compressed column: 1, the crate's default, the
/// fastest of the levels that still look for repeats properly.
pub const ZSTD_LEVEL: i32 = 1;

/// A page ends once it holds this many bytes: the crate's default data
/// page size limit (`DEFAULT_PAGE_SIZE`), which readers are used to.
const PAGE_BYTES: usize = 1024 * 1024;

/// ... or this many values: the crate's `DEFAULT_DATA_PAGE_ROW_COUNT_LIMIT`.
const PAGE_ROWS: usize = 20_000;

/// The most bytes a text column may hold in one row group: readers load a
/// column chunk into one Arrow `Utf8` array, whose offsets are 32-bit.
const CHUNK_BYTES: usize = i32::MAX as usize;

thread_local! {
    /// The worker's zstd context: made once per thread, so its tables are
    /// allocated once rather than for every column of every row group.
    static ZSTD: RefCell<Option<zstd::bulk::Compressor<'static>>> = const { RefCell::new(None) };
}

/// A text column's chunk: its bytes (pages with their headers, starting
/// at offset 0) and what the row group writer needs to splice it in.
pub struct TextChunk {
    pub bytes: Bytes,
    pub close: ColumnCloseResult,
}

/// The column chunk of `descr` whose PLAIN body of `values` values is
/// `body`. Fails on more than 2 GiB of text, or a body that is not whole
/// values (a bug upstream), never a panic.
pub fn text_chunk(descr: ColumnDescPtr, body: &[u8], values: usize) -> Result<TextChunk, String> {
    if body.len() > CHUNK_BYTES {
        return Err(format!(
            "a text column holds {} bytes in one row group, more than 2 GiB",
            body.len()
        ));
    }
    ZSTD.with(|zstd| {
        let mut zstd = zstd.borrow_mut();
        let zstd = match &mut *zstd {
            Some(z) => z,
            none => {
                none.insert(zstd::bulk::Compressor::new(ZSTD_LEVEL).map_err(|e| e.to_string())?)
            }
        };
        write_chunk(descr, body, values, zstd).map_err(|e| e.to_string())
    })
}

fn write_chunk(
    descr: ColumnDescPtr,
    body: &[u8],
    values: usize,
    zstd: &mut zstd::bulk::Compressor<'static>,
) -> Result<TextChunk, Box<dyn std::error::Error>> {
    let mut sink = TrackedWrite::new(Vec::new());
    let mut pages = Tally::default();
    let mut writer = SerializedPageWriter::new(&mut sink);
    for (page, rows) in Pages::new(body, values) {
        pages.write(&mut writer, zstd, page?, rows)?;
    }
    writer.close()?;
    let metadata = ColumnChunkMetaData::builder(descr)
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(ZSTD_LEVEL)?))
        .set_encodings_mask(EncodingMask::new_from_encodings(
            [Encoding::PLAIN, Encoding::RLE].iter(),
        ))
        .set_page_encoding_stats(vec![PageEncodingStats {
            page_type: PageType::DATA_PAGE,
            encoding: Encoding::PLAIN,
            count: i32::try_from(pages.count)?,
        }])
        .set_total_compressed_size(i64::try_from(pages.compressed)?)
        .set_total_uncompressed_size(i64::try_from(pages.uncompressed)?)
        .set_num_values(i64::try_from(pages.values)?)
        .set_data_page_offset(0)
        .build()?;
    if pages.values != values {
        return Err(format!("{} values in pages, not {values}", pages.values).into());
    }
    let close = ColumnCloseResult {
        bytes_written: pages.written,
        rows_written: pages.values as u64,
        metadata,
        bloom_filter: None,
        column_index: None,
        offset_index: Some(pages.index.build()),
    };
    Ok(TextChunk {
        bytes: Bytes::from(sink.into_inner()?),
        close,
    })
}

/// The pages written so far and their sizes, as the crate's column writer
/// counts them (a page's sizes include its header).
#[derive(Default)]
struct Tally {
    count: usize,
    values: usize,
    compressed: u64,
    uncompressed: u64,
    written: u64,
    index: OffsetIndexBuilder,
}

impl Tally {
    /// Compresses `page`, `rows` values, and writes it with its header.
    fn write(
        &mut self,
        writer: &mut SerializedPageWriter<'_, Vec<u8>>,
        zstd: &mut zstd::bulk::Compressor<'static>,
        page: &[u8],
        rows: usize,
    ) -> Result<(), Box<dyn std::error::Error>> {
        let mut packed = Vec::with_capacity(zstd::zstd_safe::compress_bound(page.len()));
        zstd.compress_to_buffer(page, &mut packed)?;
        let page_data = Page::DataPage {
            buf: Bytes::from(packed),
            num_values: u32::try_from(rows)?,
            encoding: Encoding::PLAIN,
            def_level_encoding: Encoding::RLE,
            rep_level_encoding: Encoding::RLE,
            statistics: None,
        };
        let spec = writer.write_page(CompressedPage::new(page_data, page.len()))?;
        self.index.append_offset_and_size(
            i64::try_from(spec.offset)?,
            i32::try_from(spec.compressed_size)?,
        );
        self.index.append_row_count(i64::try_from(rows)?);
        // The text bytes without their 4-byte lengths.
        self.index
            .append_unencoded_byte_array_data_bytes(Some(i64::try_from(page.len() - 4 * rows)?));
        self.count += 1;
        self.values += rows;
        self.compressed += spec.compressed_size as u64;
        self.uncompressed += spec.uncompressed_size as u64;
        self.written += spec.bytes_written;
        Ok(())
    }
}

/// A PLAIN body cut into pages at value boundaries: each page, and how
/// many values it holds. A page ends at the value that takes it to
/// [`PAGE_BYTES`] or [`PAGE_ROWS`]; a body within both limits is one page,
/// found without looking at its values.
struct Pages<'a> {
    body: &'a [u8],
    values: usize,
}

impl<'a> Pages<'a> {
    fn new(body: &'a [u8], values: usize) -> Self {
        Pages { body, values }
    }
}

impl<'a> Iterator for Pages<'a> {
    type Item = (Result<&'a [u8], String>, usize);

    fn next(&mut self) -> Option<Self::Item> {
        if self.body.is_empty() {
            return None;
        }
        if self.body.len() <= PAGE_BYTES && self.values <= PAGE_ROWS {
            let page = std::mem::take(&mut self.body);
            return Some((Ok(page), std::mem::take(&mut self.values)));
        }
        let (mut end, mut rows) = (0, 0);
        while end < PAGE_BYTES && rows < PAGE_ROWS && end < self.body.len() {
            let Some(len) = self
                .body
                .get(end..end + 4)
                .and_then(|b| b.try_into().ok())
                .map(|b| u32::from_le_bytes(b) as usize)
                .filter(|len| end + 4 + len <= self.body.len())
            else {
                self.body = &[];
                return Some((Err("a text column's values are cut short".into()), 0));
            };
            end += 4 + len;
            rows += 1;
        }
        let (page, rest) = self.body.split_at(end);
        self.body = rest;
        self.values = self.values.saturating_sub(rows);
        Some((Ok(page), rows))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(values: &[&[u8]]) -> Vec<u8> {
        let mut body = Vec::new();
        for v in values {
            body.extend_from_slice(&(v.len() as u32).to_le_bytes());
            body.extend_from_slice(v);
        }
        body
    }

    /// A body within the limits is one page; a longer one is cut after the
    /// value that reaches a limit, never inside a value.
    #[test]
    fn pages_end_at_value_boundaries() {
        let small = body(&[b"a", b"", b"bc"]);
        let pages: Vec<_> = Pages::new(&small, 3).collect();
        assert_eq!(pages.len(), 1);
        assert_eq!(pages[0], (Ok(&small[..]), 3));

        let big = vec![7u8; PAGE_BYTES / 2 + 1];
        let values: Vec<&[u8]> = vec![&big, &big, &big, b"x"];
        let large = body(&values);
        let pages: Vec<_> = Pages::new(&large, 4).collect();
        let each = 4 + big.len();
        // Two halves and a bit reach the limit; the rest is the last page.
        assert_eq!(pages.len(), 2);
        assert_eq!(pages[0], (Ok(&large[..2 * each]), 2));
        assert_eq!(pages[1], (Ok(&large[2 * each..]), 2));

        let many: Vec<&[u8]> = vec![b"ab"; PAGE_ROWS + 5];
        let rows = body(&many);
        let counts: Vec<usize> = Pages::new(&rows, many.len()).map(|(_, n)| n).collect();
        assert_eq!(counts, [PAGE_ROWS, 5]);
    }

    /// A body whose value runs past its end is an error, not a panic.
    #[test]
    fn a_cut_value_is_an_error() {
        let mut large = body(&[&vec![0u8; PAGE_BYTES / 2]]);
        large.extend_from_slice(&(PAGE_BYTES as u32).to_le_bytes());
        large.extend_from_slice(&vec![1u8; PAGE_BYTES / 2 + 10]);
        let pages: Vec<_> = Pages::new(&large, 2).collect();
        assert_eq!(pages.len(), 1);
        assert!(pages[0].0.is_err());
    }
}
