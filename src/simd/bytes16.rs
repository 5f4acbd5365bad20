//! Sixteen bytes asked one question at a time with SSE2, for the fast paths
//! of the tokenizer and the tag reader: which bytes equal a value, fall in
//! an ASCII range, are letters. The only unsafe operation, the load, is
//! here.
//!
//! SSE2 is part of the x86_64 baseline, so there is no run-time detection;
//! other targets use their callers' byte loops, which are also what the
//! callers' tests compare these answers with. The intrinsics are declared
//! with `#[target_feature(enable = "sse2")]`, which makes each call an
//! `unsafe` block even where, as on every x86_64 CPU, the feature is
//! present: those blocks (marked "SSE2 baseline") are sound for that reason
//! alone.

use core::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8, _mm_loadu_si128,
    _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
};

/// Sixteen bytes in a vector register.
#[derive(Clone, Copy)]
pub(crate) struct Bytes16(__m128i);

/// An answer per byte of a [`Bytes16`]: all ones where it holds.
#[derive(Clone, Copy)]
pub(crate) struct Lanes(__m128i);

impl Bytes16 {
    #[inline(always)]
    pub(crate) fn load(chunk: &[u8; 16]) -> Self {
        // SAFETY: `chunk` is a reference to 16 initialised bytes (its type
        // says so), exactly the bytes `_mm_loadu_si128` reads, and that load
        // has no alignment requirement.
        Bytes16(unsafe { _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>()) })
    }

    /// The bytes equal to `c`.
    #[inline(always)]
    pub(crate) fn eq(self, c: u8) -> Lanes {
        // SAFETY: SSE2 baseline (module docs).
        Lanes(unsafe { _mm_cmpeq_epi8(self.0, _mm_set1_epi8(c as i8)) })
    }

    /// The bytes in `lo..=hi`, an ASCII range (`hi < 0x80`). The compares
    /// are signed: bytes of 0x80 and above are negative, so outside.
    #[inline(always)]
    pub(crate) fn in_ascii_range(self, lo: u8, hi: u8) -> Lanes {
        // SAFETY: SSE2 baseline (module docs).
        Lanes(unsafe {
            _mm_and_si128(
                _mm_cmpgt_epi8(self.0, _mm_set1_epi8((lo - 1) as i8)),
                _mm_cmplt_epi8(self.0, _mm_set1_epi8((hi + 1) as i8)),
            )
        })
    }

    /// ASCII letters of either case. Setting bit 5 folds `A..=Z` onto
    /// `a..=z` and moves no other byte into that range (`@` becomes a
    /// backquote, `[` to `_` become `{` to DEL).
    #[inline(always)]
    pub(crate) fn ascii_letter(self) -> Lanes {
        // SAFETY: SSE2 baseline (module docs).
        let folded = unsafe { _mm_or_si128(self.0, _mm_set1_epi8(0x20)) };
        Bytes16(folded).in_ascii_range(b'a', b'z')
    }
}

impl Lanes {
    /// Bit `i` set when the answer holds for byte `i`.
    #[inline(always)]
    pub(crate) fn bits(self) -> u32 {
        // SAFETY: SSE2 baseline (module docs).
        unsafe { _mm_movemask_epi8(self.0) as u32 }
    }
}

impl core::ops::BitOr for Lanes {
    type Output = Lanes;

    #[inline(always)]
    fn bitor(self, other: Lanes) -> Lanes {
        // SAFETY: SSE2 baseline (module docs).
        Lanes(unsafe { _mm_or_si128(self.0, other.0) })
    }
}
