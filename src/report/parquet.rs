//! `games.parquet` and `castling.parquet` (`--format parquet`): the same
//! columns and rows as the CSV files, with the types of the column table
//! ([`super::columns`]), zstd-compressed.
//!
//! Encoding is the costly part of Parquet, so it runs where the CSV rows
//! are formatted, on the worker threads: each chunk of games becomes one
//! row group, encoded and compressed by its worker ([`ParquetTable::encode`]),
//! and the ordered writer only appends the finished column chunks to the
//! file ([`ParquetFile::append`]). Text columns, most of the bytes, are
//! paged and compressed by us (`text_pages`); the parquet crate
//! encodes the others and writes the file. Row groups are written as they come, so
//! memory stays that of the chunks in flight; the file is written under a
//! temporary name and renamed into place like the CSV files.

pub use super::arrow_rows::ArrowRows;
use super::arrow_rows::{Finished, TextRoom};
use super::columns::{Column, ColumnType};
use super::folder::ReportFolder;
use super::text_pages::{TextChunk, ZSTD_LEVEL, text_chunk};
use crate::output::{AtomicFile, FinishedFile, OutputError, Spill};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowSchemaConverter;
use parquet::arrow::arrow_writer::{ArrowColumnChunk, ArrowRowGroupWriterFactory, compute_leaves};
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesPtr};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnDescPtr;
use std::io::Write;
use std::sync::Arc;

/// The Arrow schema of `columns`: text UTF-8, `Int64` and booleans never
/// null, `Int32` nullable; integers signed (Spark's `mapInArrow` refuses
/// unsigned columns).
pub fn schema(columns: &[Column]) -> SchemaRef {
    let fields: Vec<Field> = columns
        .iter()
        .map(|c| {
            let (t, nullable) = match c.kind {
                ColumnType::Text => (DataType::Utf8, false),
                ColumnType::Int64 => (DataType::Int64, false),
                ColumnType::Int32 => (DataType::Int32, true),
                ColumnType::Bool => (DataType::Boolean, false),
                ColumnType::Key128 => (DataType::FixedSizeBinary(16), true),
            };
            Field::new(c.name.as_ref(), t, nullable)
        })
        .collect();
    Arc::new(Schema::new(fields))
}

/// What every worker needs to encode row groups of one file: its columns,
/// schema and the writer's settings, and the room its text columns took.
pub struct ParquetTable {
    name: &'static str,
    columns: Vec<Column>,
    schema: SchemaRef,
    /// The crate's column writers, for the columns that are not text.
    factory: ArrowRowGroupWriterFactory,
    /// The Parquet column of each column, for the text chunks we write.
    descrs: Vec<ColumnDescPtr>,
    room: TextRoom,
}

/// One chunk's rows, encoded and compressed: a row group ready to append.
pub struct RowGroup {
    columns: Vec<Chunk>,
}

/// A column chunk, encoded by the parquet crate or, text, by us.
enum Chunk {
    Crate(ArrowColumnChunk),
    Text(TextChunk),
}

/// A Parquet file being written under its temporary name (or into a
/// scratch file, to be copied with more columns at the end).
pub struct ParquetFile<W: Write + Send = AtomicFile> {
    table: Arc<ParquetTable>,
    writer: SerializedFileWriter<W>,
}

fn error(file: &str, e: impl std::fmt::Display) -> OutputError {
    OutputError::Format {
        file: file.into(),
        message: e.to_string(),
    }
}

/// How column `c` is encoded, where that differs from zstd over plain
/// values. Measured on 10 MB of real games (callgrind, row groups of a
/// whole batch, see `pipeline::sizing`): counters are cheaper and smaller
/// as deltas, and the ply columns that are nearly always null (their pages
/// are the definition levels, a few bytes of RLE) are left as they are,
/// since a zstd call has a fixed cost (its tables are cleared for every
/// page). Columns of a handful of values (`variant`, `status`, `result`)
/// and those empty for most games (`error`) are plain and zstd too: on
/// row groups of thousands of rows zstd takes their long repeats for less
/// than a dictionary's hash of every value (7.7 M fewer instructions of
/// 470 M, and a 6% smaller file). Text
/// columns have no min/max statistics: comparing every string cost 3% of
/// the run, and no reader's question needs the least FEN of a row group.
fn encoding(
    props: parquet::file::properties::WriterPropertiesBuilder,
    c: &Column,
) -> parquet::file::properties::WriterPropertiesBuilder {
    let path = parquet::schema::types::ColumnPath::new(vec![c.name.to_string()]);
    let mut props = props;
    if c.kind == ColumnType::Text {
        props = props.set_column_statistics_enabled(path.clone(), EnabledStatistics::None);
    }
    match c.name.as_ref() {
        // Rising counters: deltas of a few bits (`ply`: plies.parquet's).
        "game" | "offset" | "line" | "ply" => props
            .set_column_encoding(path.clone(), Encoding::DELTA_BINARY_PACKED)
            .set_column_compression(path, Compression::UNCOMPRESSED),
        // Null for nearly every game.
        "threefold_ply_ep_always"
        | "threefold_ply_ep_legal"
        | "missed_threefold"
        | "fivefold_ply"
        | "fivefold_ply_ep_always"
        | "threefold_claim_ply"
        | "fifty_move_ply"
        | "fifty_move_claim_ply"
        | "seventyfive_move_ply"
        | "game_over_ply"
        | "natural_limit_ply" => props.set_column_compression(path, Compression::UNCOMPRESSED),
        _ => props,
    }
}

/// The crate's column writers for the columns of `schema` that are not
/// text, so that a row group makes no writer (and no zstd context) for a
/// column it will not use. They come from a file writer of those columns
/// alone, writing to nothing: a column's Parquet descriptor depends only
/// on its field (name, type, nullability), so theirs equal the real
/// file's, which is what `append_column` checks, and the settings are the
/// file's.
fn crate_factory(
    schema: &Schema,
    columns: &[Column],
    props: &WriterPropertiesPtr,
) -> parquet::errors::Result<ArrowRowGroupWriterFactory> {
    let fields: Vec<_> = schema
        .fields()
        .iter()
        .zip(columns)
        .filter(|(_, c)| c.kind != ColumnType::Text)
        .map(|(f, _)| Arc::clone(f))
        .collect();
    let schema = Arc::new(Schema::new(fields));
    let parquet_schema = ArrowSchemaConverter::new().convert(&schema)?;
    let nothing = SerializedFileWriter::new(
        std::io::sink(),
        parquet_schema.root_schema_ptr(),
        Arc::clone(props),
    )?;
    ArrowRowGroupWriterFactory::try_new(&nothing, schema)
}

/// The writer settings of a file with `columns`.
fn properties(name: &str, columns: &[Column]) -> Result<WriterPropertiesPtr, OutputError> {
    let mut props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(
            ZstdLevel::try_new(ZSTD_LEVEL).map_err(|e| error(name, e))?,
        ))
        // Dictionaries cost a hash per value and a second page, and
        // most text columns (FENs, sites, names) repeat little within
        // a row group: zstd finds what repeats (`encoding` below).
        .set_dictionary_enabled(false)
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_created_by(format!("pgnmill {}", env!("CARGO_PKG_VERSION")));
    for c in columns {
        props = encoding(props, c);
    }
    Ok(Arc::new(props.build()))
}

impl ParquetFile {
    /// Starts `name` in `out` with `columns`.
    pub fn create(
        out: &ReportFolder,
        name: &'static str,
        columns: &[Column],
    ) -> Result<Self, OutputError> {
        ParquetFile::create_on(out.create(name)?, name, columns)
    }

    /// Writes the footer: the file is complete, for the writer to rename
    /// into place.
    pub fn finish(self) -> Result<FinishedFile, OutputError> {
        let name = self.table.name;
        let file = self.writer.into_inner().map_err(|e| error(name, e))?;
        file.finish()
    }
}

impl ParquetFile<Spill> {
    /// Writes the footer: the whole file is in the scratch file.
    pub fn close(self) -> Result<Spill, OutputError> {
        let name = self.table.name;
        self.writer.into_inner().map_err(|e| error(name, e))
    }
}

impl<W: Write + Send> ParquetFile<W> {
    /// Starts a file `name` with `columns` on `out`.
    pub fn create_on(out: W, name: &'static str, columns: &[Column]) -> Result<Self, OutputError> {
        let schema = schema(columns);
        let props = properties(name, columns)?;
        let parquet_schema = ArrowSchemaConverter::new()
            .convert(&schema)
            .map_err(|e| error(name, e))?;
        let factory = crate_factory(&schema, columns, &props).map_err(|e| error(name, e))?;
        let writer = SerializedFileWriter::new(out, parquet_schema.root_schema_ptr(), props)
            .map_err(|e| error(name, e))?;
        let descrs = writer.schema_descr().columns().to_vec();
        Ok(ParquetFile {
            table: Arc::new(ParquetTable {
                name,
                columns: columns.to_vec(),
                schema,
                factory,
                descrs,
                room: TextRoom::new(columns),
            }),
            writer,
        })
    }

    /// The table the workers encode row groups with.
    pub fn table(&self) -> Arc<ParquetTable> {
        Arc::clone(&self.table)
    }

    /// Appends an encoded row group.
    pub fn append(&mut self, group: RowGroup) -> Result<(), OutputError> {
        let name = self.table.name;
        let mut rg = self.writer.next_row_group().map_err(|e| error(name, e))?;
        for column in group.columns {
            match column {
                Chunk::Crate(c) => c.append_to_row_group(&mut rg),
                Chunk::Text(t) => rg.append_column(&t.bytes, t.close),
            }
            .map_err(|e| error(name, e))?;
        }
        rg.close().map_err(|e| error(name, e))?;
        Ok(())
    }
}

/// Hands each batch of the Parquet file `path` (written with the columns
/// whose schema is `schema`) to `each`, in order, as batches of `schema`
/// itself, until `each` returns `false`.
pub fn read_batches(
    path: &std::path::Path,
    schema: &SchemaRef,
    each: &mut dyn FnMut(arrow_array::RecordBatch) -> bool,
) -> Result<(), OutputError> {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| OutputError::io(path, e))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .and_then(|b| b.with_batch_size(1 << 16).build())
        .map_err(|e| error(&name, e))?;
    for batch in reader {
        let batch = batch.map_err(|e| error(&name, e))?;
        let batch = arrow_array::RecordBatch::try_new(Arc::clone(schema), batch.columns().to_vec())
            .map_err(|e| error(&name, e))?;
        if !each(batch) {
            break;
        }
    }
    Ok(())
}

/// Copies the Parquet file `from` (its row groups in order) to `to` as
/// `name`, with `columns`: those of `from` and after them the columns
/// `more` gives for each row (from 0), as UTF-8 text. How `--duplicates`
/// adds its columns once the run is over.
pub fn copy_adding_text_columns(
    from: std::fs::File,
    to: AtomicFile,
    name: &str,
    columns: &[Column],
    more: &dyn Fn(usize) -> Vec<String>,
) -> Result<FinishedFile, OutputError> {
    use arrow_array::{ArrayRef, RecordBatch, StringArray};
    use parquet::arrow::ArrowWriter;
    use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ParquetRecordBatchReaderBuilder};
    let schema = schema(columns);
    let metadata =
        ArrowReaderMetadata::load(&from, Default::default()).map_err(|e| error(name, e))?;
    let groups = metadata.metadata().num_row_groups();
    let kept = metadata.schema().fields().len();
    let added = columns.len().saturating_sub(kept);
    let props = (*properties(name, columns)?).clone();
    let mut writer =
        ArrowWriter::try_new(to, Arc::clone(&schema), Some(props)).map_err(|e| error(name, e))?;
    let mut row = 0;
    for group in 0..groups {
        let rows = metadata.metadata().row_group(group).num_rows() as usize;
        let reader = ParquetRecordBatchReaderBuilder::new_with_metadata(
            from.try_clone().map_err(|e| OutputError::io(name, e))?,
            metadata.clone(),
        )
        .with_row_groups(vec![group])
        .with_batch_size(rows.max(1))
        .build()
        .map_err(|e| error(name, e))?;
        for batch in reader {
            let batch = batch.map_err(|e| error(name, e))?;
            let mut texts: Vec<Vec<String>> = vec![Vec::with_capacity(batch.num_rows()); added];
            for _ in 0..batch.num_rows() {
                for (column, value) in texts.iter_mut().zip(more(row)) {
                    column.push(value);
                }
                row += 1;
            }
            let mut arrays: Vec<ArrayRef> = batch.columns().to_vec();
            arrays.extend(
                texts
                    .into_iter()
                    .map(|t| Arc::new(StringArray::from(t)) as ArrayRef),
            );
            let batch =
                RecordBatch::try_new(Arc::clone(&schema), arrays).map_err(|e| error(name, e))?;
            writer.write(&batch).map_err(|e| error(name, e))?;
        }
        writer.flush().map_err(|e| error(name, e))?;
    }
    writer.into_inner().map_err(|e| error(name, e))?.finish()
}

impl ParquetTable {
    /// A fresh row builder for this table.
    pub fn rows(&self, games: usize) -> ArrowRows {
        ArrowRows::new(&self.columns, games, &self.room)
    }

    /// Encodes the rows of `rows` into a row group; `None` when there are
    /// none (a chunk whose games were all filtered out).
    pub fn encode(&self, rows: ArrowRows) -> Result<Option<RowGroup>, String> {
        if rows.is_empty() {
            return Ok(None);
        }
        let name = self.name;
        let (finished, rows) = rows
            .finish(&self.room)
            .map_err(|why| format!("{name}: {why}"))?;
        // One writer for each column that is not text, in order (the
        // schema is flat: a column is one leaf).
        let mut writers = self
            .factory
            .create_column_writers(0)
            .map_err(|e| e.to_string())?
            .into_iter();
        if self.descrs.len() != finished.len() {
            return Err(format!(
                "{name}: {} columns, {} in the schema",
                finished.len(),
                self.descrs.len()
            ));
        }
        let mut columns = Vec::with_capacity(finished.len());
        for ((column, field), descr) in finished
            .into_iter()
            .zip(self.schema.fields())
            .zip(&self.descrs)
        {
            columns.push(match column {
                Finished::Text(body) => Chunk::Text(
                    text_chunk(Arc::clone(descr), &body, rows)
                        .map_err(|why| format!("{name}: {}: {why}", field.name()))?,
                ),
                Finished::Array(array) => {
                    let Some(mut writer) = writers.next() else {
                        return Err(format!("{name}: no column writer for {}", field.name()));
                    };
                    for leaf in compute_leaves(field, &array).map_err(|e| e.to_string())? {
                        writer.write(&leaf).map_err(|e| e.to_string())?;
                    }
                    Chunk::Crate(writer.close().map_err(|e| e.to_string())?)
                }
            });
        }
        Ok(Some(RowGroup { columns }))
    }
}
