//! Checks of the repository itself, not of what pgnmill computes: the
//! module graph follows the data, and every dependency's licence lets
//! pgnmill be used and shipped under its own.

mod column_docs;
mod layering;
mod licences;
