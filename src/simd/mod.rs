//! Every vector primitive of the crate, each beside its portable twin (the
//! plain loop that defines it and that the tests hold it to). The unsafe
//! code of the crate's fast paths is here: intrinsics and the unaligned
//! loads they need. The one other `unsafe` block calls the splitter's loop
//! compiled for AVX2 (`pgn::split`), once the processor was found to have
//! it, so that these intrinsics inline into it.
//!
//! - [`bytes16`]: sixteen bytes asked one question at a time (the PGN
//!   tokenizer's and tag reader's fast paths).
//! - [`classify`]: sixty-four bytes classified into a bitmask (the PGN
//!   splitter).
//! - [`quote`]: whether a CSV field needs quotes (the report's rows).
//! - [`prefetch`]: loading the input ahead of the splitter.

#[cfg(target_arch = "x86_64")]
pub(crate) mod bytes16;
pub(crate) mod classify;
pub(crate) mod prefetch;
pub(crate) mod quote;
