//! The machinery of the column table (`columns.rs`): one macro that turns
//! a list of columns, each declared once with its name, type, doc line and
//! how its value is read from a game, into everything that must agree
//! with that list: the column descriptions (CSV header, Parquet schema,
//! the column list of docs/reports.md) and the one function that writes a
//! game's fields in column order, to CSV bytes or Parquet columns alike.
//!
//! Most games share the values of a run of columns (an open final
//! position: `termination` `none`, both sides with mating material, no
//! draw rule met); the table marks that run and each column's usual value,
//! and the writer then tests the run once and writes its fields at once,
//! from values the macro joins at compile time.

/// A column's value compared with its usual value, written as its CSV
/// field: text is itself, an absent number the empty field.
pub(crate) trait Usual {
    fn is_usual(&self, field: &str) -> bool;
}

impl Usual for &str {
    #[inline(always)]
    fn is_usual(&self, field: &str) -> bool {
        *self == field
    }
}

impl Usual for &String {
    #[inline(always)]
    fn is_usual(&self, field: &str) -> bool {
        *self == field
    }
}

impl Usual for Option<u32> {
    #[inline(always)]
    fn is_usual(&self, field: &str) -> bool {
        self.is_none() && field.is_empty()
    }
}

/// Declares the columns of `games.csv`, in order: a run of columns, then
/// the run whose usual values are written at once (`usual { ... }`), then
/// more columns. Each column is
///
/// ```text
/// /// Its doc line (docs/reports.md).
/// name: Type = method(value),          // method: a `FieldSink` method
/// name: Type = method(value) usual "", // in the usual run: the usual field
/// ```
///
/// where `value` may use the binding named before the list (`|g| ...`: a
/// `super::columns::GameView`). It defines `GAME_COLUMNS` and
/// `write_game_fields`.
macro_rules! game_columns {
    (
        |$g:ident| {
            $( $(#[doc = $d1:literal])+ $n1:ident : $k1:ident = $w1:ident ( $v1:expr ), )*
            usual {
                $( $(#[doc = $d2:literal])+ $n2:ident : $k2:ident = $w2:ident ( $v2:expr ) usual $u2:literal, )*
            }
            $( $(#[doc = $d3:literal])+ $n3:ident : $k3:ident = $w3:ident ( $v3:expr ), )*
        }
    ) => {
        /// The default columns of `games.csv`, in order.
        pub static GAME_COLUMNS: [Column; 0 $(+ game_columns!(@one $n1))* $(+ game_columns!(@one $n2))* $(+ game_columns!(@one $n3))*] = [
            $( Column::described(stringify!($n1), ColumnType::$k1, concat!($($d1),+)), )*
            $( Column::described(stringify!($n2), ColumnType::$k2, concat!($($d2),+)), )*
            $( Column::described(stringify!($n3), ColumnType::$k3, concat!($($d3),+)), )*
        ];

        /// The usual values of the `usual` run of columns.
        pub(crate) static USUAL_FIELDS: UsualFields = UsualFields {
            fields: &[ $( (ColumnType::$k2, $u2), )* ],
            csv: game_columns!(@joined $($u2),*),
        };

        /// The FieldSink method each column is written with, in order
        /// (a test holds them to the columns' types).
        #[cfg(test)]
        pub(crate) static GAME_COLUMN_WRITERS: &[&str] = &[
            $( stringify!($w1), )* $( stringify!($w2), )* $( stringify!($w3), )*
        ];

        /// Writes a game's default fields in column order, without ending
        /// the record (`moves` and the `--tags` columns may follow). Runs
        /// once a game, on the worker threads.
        #[inline]
        pub fn write_game_fields<S: FieldSink>($g: &GameView<'_, '_>, w: &mut S) {
            $( w.$w1($v1); )*
            if true $( && Usual::is_usual(&$v2, $u2) )* {
                w.usual(&USUAL_FIELDS);
            } else {
                $( w.$w2($v2); )*
            }
            $( w.$w3($v3); )*
        }
    };
    (@one $n:ident) => { 1 };
    (@joined $first:literal $(, $rest:literal)*) => { concat!($first $(, ",", $rest)*) };
}

pub(crate) use game_columns;

/// Declares a group of columns written together from one value: the
/// columns an option adds to `games.csv` (`--clocks`), or the columns of
/// another file (`plies.csv`). Each column is declared as in
/// [`game_columns!`], without the usual run:
///
/// ```text
/// NAMES, WRITERS, write_fn, |value: &Type| {
///     /// Its doc line (docs/reports.md).
///     name: Type = method(expression of value),
/// }
/// ```
///
/// It defines the static `NAMES` (the columns, in order), `WRITERS` (the
/// FieldSink method of each, for the test that holds them to the types)
/// and `write_fn(value, sink)`, which writes the fields in order without
/// ending the record.
macro_rules! column_group {
    (
        $(#[doc = $doc:literal])*
        $columns:ident, $writers:ident, $write:ident,
        |$v:ident : $t:ty| {
            $( $(#[doc = $d:literal])+ $n:ident : $k:ident = $w:ident ( $e:expr ), )*
        }
    ) => {
        $(#[doc = $doc])*
        pub static $columns: [Column; 0 $(+ column_group!(@one $n))*] = [
            $( Column::described(stringify!($n), ColumnType::$k, concat!($($d),+)), )*
        ];

        /// The FieldSink method each column is written with, in order.
        #[cfg(test)]
        pub(crate) static $writers: &[&str] = &[ $( stringify!($w), )* ];

        /// Writes the group's fields in column order, without ending the
        /// record.
        #[inline]
        pub fn $write<S: FieldSink>($v: $t, w: &mut S) {
            $( w.$w($e); )*
        }
    };
    (@one $n:ident) => { 1 };
}

pub(crate) use column_group;
