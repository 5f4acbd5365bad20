//! One column of a report file: its name, its type and what it holds.
//! The columns themselves are declared in `columns.rs`.

use std::borrow::Cow;

/// What a column holds, which fixes its Parquet type: the schema follows
/// from the options, never from the data (a reader that infers types from
/// the first rows gets `round` wrong on a xiangqi report).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ColumnType {
    /// UTF-8 text, never null (empty when there is nothing to say).
    Text,
    /// A signed 64-bit count or position, always present.
    Int64,
    /// A signed 32-bit ply or count, null when the CSV field is empty.
    Int32,
    /// `true` or `false`, always present.
    Bool,
}

impl ColumnType {
    /// How the README and the HTML report name the type.
    pub fn name(self) -> &'static str {
        match self {
            ColumnType::Text => "text",
            ColumnType::Int64 => "int64",
            ColumnType::Int32 => "int32 (nullable)",
            ColumnType::Bool => "boolean",
        }
    }
}

/// One column: its name in the CSV header and the Parquet schema, its
/// type, and what it holds (its line in docs/reports.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: Cow<'static, str>,
    pub kind: ColumnType,
    pub doc: &'static str,
}

impl Column {
    pub(super) const fn new(name: &'static str, kind: ColumnType) -> Self {
        Column::described(name, kind, "")
    }

    pub(super) const fn described(name: &'static str, kind: ColumnType, doc: &'static str) -> Self {
        Column {
            name: Cow::Borrowed(name),
            kind,
            doc,
        }
    }
}
