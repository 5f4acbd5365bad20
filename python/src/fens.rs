//! `read_fens`'s rows: the audit of `pgnmill fen` (docs/reports.md,
//! section `pgnmill fen`) as Arrow record batches, the CSV's columns in its
//! order, typed as games.parquet types its own: text is UTF-8 and never
//! null (an empty field is the empty string), `line` Int64, `legal_moves`
//! Int32, `check` Boolean and `game` Int64 null where the CSV field is
//! empty.

use std::sync::Arc;
use std::sync::mpsc::SyncSender;

use arrow_array::builder::{BooleanBuilder, Int32Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use pgnmill::fenlist::{COLUMNS, FenOptions, FenRow};
use pgnmill::job::Job;
use pgnmill::pipeline::{Cancel, ReportError};
use pyo3::prelude::*;

use crate::stream::{Item, RowStream};

/// The columns that are not text, with their types; every one of them may
/// be null but `line`.
const TYPED: [(&str, DataType); 4] = [
    ("line", DataType::Int64),
    ("legal_moves", DataType::Int32),
    ("check", DataType::Boolean),
    ("game", DataType::Int64),
];

/// The schema of the rows: [`COLUMNS`], typed.
fn schema() -> SchemaRef {
    let fields: Vec<Field> = COLUMNS
        .iter()
        .map(|&name| match TYPED.iter().find(|(n, _)| *n == name) {
            Some((_, kind)) => Field::new(name, kind.clone(), name != "line"),
            None => Field::new(name, DataType::Utf8, false),
        })
        .collect();
    Arc::new(Schema::new(fields))
}

/// One column of `rows`, by name; `None` for a name this module does not
/// know (a column added to [`COLUMNS`] and not here).
fn column(name: &str, rows: &[FenRow]) -> Option<ArrayRef> {
    let text = |value: fn(&FenRow) -> &str| -> ArrayRef {
        let mut b = StringBuilder::new();
        rows.iter().for_each(|r| b.append_value(value(r)));
        Arc::new(b.finish())
    };
    let number = |value: fn(&FenRow) -> Option<u64>| -> ArrayRef {
        let mut b = Int64Builder::new();
        let as_i64 = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        rows.iter()
            .for_each(|r| b.append_option(value(r).map(as_i64)));
        Arc::new(b.finish())
    };
    Some(match name {
        "line" => number(|r| Some(r.line)),
        "game" => number(|r| r.game),
        "legal_moves" => {
            let mut b = Int32Builder::new();
            let as_i32 = |v: usize| i32::try_from(v).unwrap_or(i32::MAX);
            rows.iter()
                .for_each(|r| b.append_option(r.legal_moves.map(as_i32)));
            Arc::new(b.finish())
        }
        "check" => {
            let mut b = BooleanBuilder::new();
            rows.iter().for_each(|r| b.append_option(r.check));
            Arc::new(b.finish())
        }
        "source" => text(|r| &r.source),
        "input" => text(|r| &r.input),
        "status" => text(|r| r.status),
        "error" => text(|r| &r.error),
        "fen" => text(|r| &r.fen),
        "fen_ep_legal" => text(|r| &r.fen_ep_legal),
        "castling_invalid" => text(|r| &r.castling_invalid),
        "castling_effective" => text(|r| &r.castling_effective),
        "reason" => text(|r| &r.reason),
        "variant" => text(|r| r.variant),
        "id" => text(|r| &r.id),
        "problems" => text(|r| &r.problems),
        _ => return None,
    })
}

/// `rows` as a batch of [`schema`].
fn batch(schema: &SchemaRef, rows: &[FenRow]) -> Result<RecordBatch, ArrowError> {
    let columns = COLUMNS
        .iter()
        .map(|name| {
            column(name, rows).ok_or_else(|| {
                ArrowError::SchemaError(format!("fen column {name}: no Arrow type for it"))
            })
        })
        .collect::<Result<_, _>>()?;
    RecordBatch::try_new(schema.clone(), columns)
}

/// The audit rows of `job` with `options`, as they are made.
pub fn stream(job: Job, options: FenOptions, cancel: Cancel) -> PyResult<RowStream> {
    let schema = schema();
    let rows_schema = schema.clone();
    RowStream::start(schema, "read_fens", cancel, move |tx| {
        run(&job, &options, &rows_schema, tx)
    })
}

/// Audits the inputs of `job`, sending each batch of rows, then the end
/// with the run's warnings.
fn run(job: &Job, options: &FenOptions, schema: &SchemaRef, tx: &SyncSender<Item>) {
    let mut warnings = Vec::new();
    let audited = job.audit_fens::<ReportError>(
        options,
        &mut |rows| {
            if rows.is_empty() {
                return Ok(());
            }
            let batch = batch(schema, rows).map_err(|e| ReportError::Thread(e.to_string()))?;
            tx.send(Item::Batch(batch))
                .map_err(|_| ReportError::Thread("the stream was given up".into()))
        },
        &mut |note| warnings.push(note.text),
    );
    let _ = tx.send(match audited {
        Ok(_) => Item::End(warnings),
        Err(e) => Item::Failed(e),
    });
}
