//! Sixty-four bytes classified into a bitmask of the few bytes the PGN
//! splitter acts on (line ends; braces, parentheses and `;`; a tag's quotes
//! and bracket), so that it visits only those.
//!
//! On x86_64 the classification uses AVX2 when the processor has it
//! (checked once per window with `is_x86_feature_detected!`) and SSE2,
//! which every x86_64 processor has, otherwise; other targets use the
//! plain loop, [`classify_bytes`], which is also the definition the tests
//! hold both vector paths to.

/// `\n` and `\r`.
pub(crate) const LINE_END: u8 = 0;
/// The movetext bytes that change the splitter's state: line ends, `{`,
/// `}`, `(`, `)`, `;`, `"` (a tag pair after a result on the same line
/// has one; `[` does not tell, since every lichess clock comment has one),
/// and `*` and `-` (a result token has one: another game may follow it on
/// its line).
/// The class also holds a few bytes that take fewer vector instructions to
/// leave in than to leave out (the other control bytes up to `\r`, `y`
/// and DEL); whoever reads the class skips them.
pub(crate) const MOVETEXT: u8 = 1;
/// The bytes that shape a tag: line ends, `"`, `]`, `\`; and, as in
/// [`MOVETEXT`], the other control bytes up to `\r`.
pub(crate) const TAG: u8 = 2;

/// Whether `b` is of byte class `C` (the reference for [`classify`]).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
pub(crate) fn in_class<const C: u8>(b: u8) -> bool {
    match C {
        LINE_END => matches!(b, b'\n' | b'\r'),
        MOVETEXT => {
            b <= b'\r'
                || b & 0xfe == b'('
                || b & 0xf9 == b'y'
                || b == b';'
                || b & 0xf7 == b'"'
                || b == b'-'
        }
        _ => b <= b'\r' || b == b'"' || b & 0xfe == b'\\',
    }
}

/// Bit `i` set when `block[i]` is of class `C`, one byte at a time.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn classify_bytes<const C: u8>(block: &[u8; 64]) -> u64 {
    block
        .iter()
        .enumerate()
        .filter(|&(_, &b)| in_class::<C>(b))
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// Which vector instructions classify: on x86_64, AVX2 (32 bytes per
/// instruction) when the processor has it, else SSE2 (16 bytes), which
/// every x86_64 processor has; elsewhere a plain loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Simd {
    avx2: bool,
}

impl Simd {
    /// The best the running processor has.
    #[inline]
    pub(crate) fn detect() -> Simd {
        #[cfg(target_arch = "x86_64")]
        let avx2 = std::is_x86_feature_detected!("avx2");
        #[cfg(not(target_arch = "x86_64"))]
        let avx2 = false;
        Simd { avx2 }
    }

    /// Whether AVX2 was found.
    #[inline]
    pub(crate) fn has_avx2(self) -> bool {
        self.avx2
    }

    /// SSE2 only (or the plain loop): for tests of that path.
    #[cfg(test)]
    pub(crate) fn baseline() -> Simd {
        Simd { avx2: false }
    }

    /// Bit `i` set when `block[i]` is of class `C`.
    #[inline(always)]
    pub(crate) fn classify<const C: u8>(self, block: &[u8; 64]) -> u64 {
        #[cfg(target_arch = "x86_64")]
        {
            if self.avx2 {
                // SAFETY: `avx2` is only true when the processor was found
                // to have AVX2 (`detect`), which is all `classify_avx2`
                // needs to run.
                return unsafe { classify_avx2::<C>(block) };
            }
            classify_sse2::<C>(block)
        }
        #[cfg(not(target_arch = "x86_64"))]
        classify_bytes::<C>(block)
    }
}

/// [`Simd::classify`] with AVX2: two 32-byte loads, each classified by
/// compares or, for [`MOVETEXT`], by two table lookups.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn classify_avx2<const C: u8>(block: &[u8; 64]) -> u64 {
    use core::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_min_epu8,
        _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8, _mm256_setzero_si256,
        _mm256_shuffle_epi8, _mm256_srli_epi16,
    };
    let mut mask = 0u64;
    for (k, half) in block.chunks_exact(32).enumerate() {
        // SAFETY: the load reads the 32 bytes of `half`, a slice of exactly
        // 32 initialised bytes (`chunks_exact(32)`); `_mm256_loadu_si256`
        // has no alignment requirement.
        let v = unsafe { _mm256_loadu_si256(half.as_ptr().cast::<__m256i>()) };
        let bits = match C {
            LINE_END => _mm256_movemask_epi8(_mm256_or_si256(
                _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\n' as i8)),
                _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\r' as i8)),
            )),
            MOVETEXT => {
                // Two table lookups of 16 entries (`vpshufb`), by the low
                // and by the high four bits of each byte: a byte is in the
                // class when the two entries share a bit. Seven vector
                // operations, where a compare per kind of byte took fifteen;
                // the splitter classifies every byte of the movetext.
                let nibble = _mm256_set1_epi8(0x0f);
                let by_low = _mm256_shuffle_epi8(MOVETEXT_BY_LOW, _mm256_and_si256(v, nibble));
                let high = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble);
                let by_high = _mm256_shuffle_epi8(MOVETEXT_BY_HIGH, high);
                let outside =
                    _mm256_cmpeq_epi8(_mm256_and_si256(by_low, by_high), _mm256_setzero_si256());
                !_mm256_movemask_epi8(outside)
            }
            _ => {
                // Bytes up to `\r`: one unsigned minimum and a compare.
                let low = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(b'\r' as i8)), v);
                let quote = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'"' as i8));
                let close = _mm256_cmpeq_epi8(
                    _mm256_and_si256(v, _mm256_set1_epi8(!0x01u8 as i8)),
                    _mm256_set1_epi8(b'\\' as i8),
                );
                _mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(low, quote), close))
            }
        };
        // The mask's 32 bits, one per byte.
        mask |= u64::from(bits as u32) << (32 * k);
    }
    mask
}

/// A table of 16 bytes for `vpshufb`, `entries` repeated in both 128-bit
/// lanes (the instruction looks up within each lane).
#[cfg(target_arch = "x86_64")]
const fn nibble_table(entries: [u8; 16]) -> core::arch::x86_64::__m256i {
    let mut both = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        both[i] = entries[i % 16];
        i += 1;
    }
    // SAFETY: `__m256i` is 32 bytes with no invalid bit pattern, the size
    // of `both`.
    unsafe { core::mem::transmute::<[u8; 32], core::arch::x86_64::__m256i>(both) }
}

/// [`MOVETEXT`] by a byte's high four bits: a bit for each of the four
/// rows of the ASCII table the class has bytes in (control bytes, `"` to
/// `-`, `;`, `y` to DEL); none for bytes of 0x80 and above.
#[cfg(target_arch = "x86_64")]
static MOVETEXT_BY_HIGH: core::arch::x86_64::__m256i = {
    let mut t = [0u8; 16];
    t[0x0] = 1;
    t[0x2] = 2;
    t[0x3] = 4;
    t[0x7] = 8;
    nibble_table(t)
};

/// [`MOVETEXT`] by a byte's low four bits: the rows of
/// [`MOVETEXT_BY_HIGH`] in which the byte with those low bits is in the
/// class.
#[cfg(target_arch = "x86_64")]
static MOVETEXT_BY_LOW: core::arch::x86_64::__m256i = {
    let mut t = [0u8; 16];
    let mut low = 0;
    while low < 16 {
        // Control bytes up to `\r`.
        if low <= 0x0d {
            t[low] |= 1;
        }
        // `"` `(` `)` `*` `-`; `;`; `y` `{` `}` DEL.
        if matches!(low, 0x2 | 0x8 | 0x9 | 0xa | 0xd) {
            t[low] |= 2;
        }
        if low == 0xb {
            t[low] |= 4;
        }
        if matches!(low, 0x9 | 0xb | 0xd | 0xf) {
            t[low] |= 8;
        }
        low += 1;
    }
    nibble_table(t)
};

/// [`Simd::classify`] with SSE2 compares: four 16-byte loads.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classify_sse2<const C: u8>(block: &[u8; 64]) -> u64 {
    use core::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8,
    };
    let mut mask = 0u64;
    for (k, quarter) in block.chunks_exact(16).enumerate() {
        // SAFETY: the intrinsics need SSE2, which is part of the x86_64
        // baseline (enabled for every x86_64 target), so the instructions
        // exist on every processor this code runs on. The one memory access
        // is the load, which reads the 16 bytes of `quarter`, a slice of
        // exactly 16 initialised bytes (`chunks_exact(16)`);
        // `_mm_loadu_si128` has no alignment requirement.
        let bits = unsafe {
            let v = _mm_loadu_si128(quarter.as_ptr().cast::<__m128i>());
            let splat = |b: u8| _mm_set1_epi8(b as i8);
            let eq = |b: u8| _mm_cmpeq_epi8(v, splat(b));
            // Bytes whose bits outside `free` are those of `b`.
            let like = |free: u8, b: u8| _mm_cmpeq_epi8(_mm_and_si128(v, splat(!free)), splat(b));
            // Bytes up to `\r`: one unsigned minimum and a compare.
            let low = _mm_cmpeq_epi8(_mm_min_epu8(v, splat(b'\r')), v);
            let m = match C {
                LINE_END => _mm_or_si128(eq(b'\n'), eq(b'\r')),
                // `(` `)`; `y` `{` `}` DEL; `;` `-`; `"` `*`.
                MOVETEXT => _mm_or_si128(
                    _mm_or_si128(_mm_or_si128(low, like(0x01, b'(')), like(0x08, b'"')),
                    _mm_or_si128(like(0x06, b'y'), _mm_or_si128(eq(b';'), eq(b'-'))),
                ),
                // `"`; `\` `]`.
                _ => _mm_or_si128(_mm_or_si128(low, eq(b'"')), like(0x01, b'\\')),
            };
            _mm_movemask_epi8(m)
        };
        // `_mm_movemask_epi8` sets only the low 16 bits.
        mask |= u64::from(bits as u16) << (16 * k);
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    /// Every class of `block`, by the baseline and by the detected vector
    /// classification, equals the byte-by-byte one; `context` names the
    /// block when one does not (made only then).
    fn assert_every_class_matches(block: &[u8; 64], context: impl Fn() -> String) {
        for simd in [Simd::baseline(), Simd::detect()] {
            let line_end = simd.classify::<LINE_END>(block);
            assert_eq!(line_end, classify_bytes::<LINE_END>(block), "{}", context());
            let movetext = simd.classify::<MOVETEXT>(block);
            assert_eq!(movetext, classify_bytes::<MOVETEXT>(block), "{}", context());
            let tag = simd.classify::<TAG>(block);
            assert_eq!(tag, classify_bytes::<TAG>(block), "{}", context());
        }
    }

    /// The vector classification equals the byte-by-byte one for every
    /// byte value, in each of the 64 positions (the AVX2 path looks bytes
    /// up by their high and low four bits: each value has its own pair).
    #[test]
    fn classify_matches_bytes_for_every_value() {
        for b in 0..=255u8 {
            for at in 0..64 {
                let mut block = [b'a'; 64];
                block[at] = b;
                assert_every_class_matches(&block, || format!("{b:#x} at {at}"));
            }
        }
    }

    /// The vector classification equals the byte-by-byte one on blocks of
    /// random bytes drawn mostly from the bytes the classes hold.
    #[test]
    fn classify_matches_bytes() {
        let alphabet = b"\n\r{}();\"]\\[ a0\t\x00\xff\x80\x7b\x7d*-\xa2\xaa";
        let mut seed = 7;
        for _ in 0..20_000 {
            let mut block = [0u8; 64];
            for b in &mut block {
                let r = lcg(&mut seed) as usize;
                *b = if r.is_multiple_of(4) {
                    r as u8
                } else {
                    alphabet[r % alphabet.len()]
                };
            }
            assert_every_class_matches(&block, || format!("{block:?}"));
        }
    }
}
