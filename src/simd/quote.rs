//! Whether a CSV field needs quoting in the csv crate's default dialect
//! (it holds `,`, `"`, `\r` or `\n`) or holds a control byte that never
//! reaches a CSV field (below 0x20, or 0x7f: see `docs/reports.md`), asked
//! of every text field of every row: sixteen bytes at a time with SSE2 on x86_64, words of eight or
//! four bytes elsewhere, and [`needs_quotes_bytewise`], the definition.
//! The same scan without `,` and `"` ([`has_control`]) tells whether a
//! text needs its control bytes replaced, which is all the Parquet columns
//! ask: names such as `Carlsen, Magnus` need no second look there.

/// The bytes that make the csv crate quote a field (its default dialect),
/// and the control bytes (`\r` and `\n` among them; tab too, which the
/// slow path then keeps) that are replaced before a field is written.
static QUOTE_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    t[b',' as usize] = true;
    t[b'"' as usize] = true;
    let mut c = 0;
    while c < 0x20 {
        t[c] = true;
        c += 1;
    }
    t[0x7f] = true;
    t
};

/// Whether the csv crate would quote `field`. With SSE2 (the x86_64
/// baseline), sixteen bytes per step, the last step overlapping the one
/// before, and a field of 8 to 15 bytes as its first eight and last eight
/// in one vector: most fields are tag values of that length. Shorter
/// fields, and other targets, take words of eight or four bytes (see
/// [`has_quote_byte`]). [`needs_quotes_bytewise`] is the definition the
/// tests hold it to.
#[inline]
pub(crate) fn needs_quotes(field: &[u8]) -> bool {
    scan::<true>(field)
}

/// Whether `field` holds a byte below 0x20 (tab included) or 0x7f: the
/// test of [`needs_quotes`] without `,` and `"`.
/// [`has_control_bytewise`] is its definition.
#[inline]
pub(crate) fn has_control(field: &[u8]) -> bool {
    scan::<false>(field)
}

/// [`needs_quotes`] (`QUOTING`: `,` and `"` count) or [`has_control`].
#[inline]
fn scan<const QUOTING: bool>(field: &[u8]) -> bool {
    let n = field.len();
    #[cfg(target_arch = "x86_64")]
    if n >= 8 {
        return scan_sse2::<QUOTING>(field);
    }
    if n >= 8 {
        let words = field.chunks_exact(8);
        let last = field.get(n - 8..).map_or(0, word_at);
        return words.map(word_at).any(has_quote_byte::<QUOTING>)
            || has_quote_byte::<QUOTING>(last);
    }
    if n >= 4 {
        // The first four bytes and the last four (overlapping when `n < 8`).
        let half = |part: Option<&[u8]>| {
            part.and_then(|p| <[u8; 4]>::try_from(p).ok())
                .map_or(0, u32::from_le_bytes)
        };
        let w = u64::from(half(field.get(..4))) | u64::from(half(field.get(n - 4..))) << 32;
        return has_quote_byte::<QUOTING>(w);
    }
    bytewise::<QUOTING>(field)
}

/// [`scan`] of a field of eight bytes or more, with SSE2.
#[cfg(target_arch = "x86_64")]
#[inline]
fn scan_sse2<const QUOTING: bool>(field: &[u8]) -> bool {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadl_epi64, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8, _mm_unpacklo_epi64,
    };
    // SAFETY (every block below): the intrinsics need SSE2, part of the
    // x86_64 baseline (enabled for every x86_64 target); the loads are
    // the only memory accesses, each named with what it reads.
    let hit = |v: __m128i| unsafe {
        let eq = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
        // A byte at most 0x1f is its own minimum with 0x1f.
        let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
        let mut m = _mm_or_si128(control, eq(0x7f));
        if QUOTING {
            m = _mm_or_si128(m, _mm_or_si128(eq(b','), eq(b'"')));
        }
        _mm_movemask_epi8(m) != 0
    };
    // SAFETY: reads the 16 bytes `chunk` refers to (unaligned load).
    let load16 = |chunk: &[u8; 16]| unsafe { _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>()) };
    // SAFETY: `_mm_loadl_epi64` reads 8 bytes (its low half), the 8 bytes
    // `word` refers to, with no alignment requirement.
    let load8 = |word: &[u8; 8]| unsafe { _mm_loadl_epi64(word.as_ptr().cast::<__m128i>()) };
    let n = field.len();
    if n >= 16 {
        let last = field.get(n - 16..).and_then(<[u8]>::first_chunk::<16>);
        return field
            .chunks_exact(16)
            .filter_map(<[u8]>::first_chunk::<16>)
            .any(|c| hit(load16(c)))
            || last.is_some_and(|c| hit(load16(c)));
    }
    match (
        field.first_chunk::<8>(),
        field
            .get(n.saturating_sub(8)..)
            .and_then(<[u8]>::first_chunk::<8>),
    ) {
        // SAFETY: SSE2 baseline; no memory access.
        (Some(a), Some(b)) => hit(unsafe { _mm_unpacklo_epi64(load8(a), load8(b)) }),
        _ => bytewise::<QUOTING>(field),
    }
}

/// [`needs_quotes`] one table load per byte: the definition.
#[inline]
pub(crate) fn needs_quotes_bytewise(field: &[u8]) -> bool {
    field.iter().any(|&b| QUOTE_BYTE[usize::from(b)])
}

/// [`has_control`] a byte at a time: the definition.
#[inline]
pub(crate) fn has_control_bytewise(field: &[u8]) -> bool {
    field.iter().any(|&b| b < 0x20 || b == 0x7f)
}

/// [`needs_quotes_bytewise`] or [`has_control_bytewise`].
#[inline]
fn bytewise<const QUOTING: bool>(field: &[u8]) -> bool {
    if QUOTING {
        needs_quotes_bytewise(field)
    } else {
        has_control_bytewise(field)
    }
}

/// The first eight bytes of `bytes` as a little-endian word (0 if it is
/// shorter: never, as called).
#[inline(always)]
fn word_at(bytes: &[u8]) -> u64 {
    bytes
        .first_chunk::<8>()
        .map_or(0, |w| u64::from_le_bytes(*w))
}

/// Whether a byte of `w` is `,`, `"`, 0x7f or below 0x20. For each of the
/// first three, the bytes of `w ^ splat(c)` that are zero are those equal
/// to `c`, and `(x - 0x01..) & !x & 0x80..` is nonzero exactly when `x` has
/// a zero byte; `(w - 0x20..) & !w & 0x80..` is nonzero exactly when `w`
/// has a byte below 0x20.
/// Without `QUOTING`, only the last two.
#[inline(always)]
fn has_quote_byte<const QUOTING: bool>(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |c: u8| {
        let x = w ^ (ONES * u64::from(c));
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGHS;
    let control = zero_byte(0x7f) | below_space;
    if QUOTING {
        (zero_byte(b',') | zero_byte(b'"') | control) != 0
    } else {
        control != 0
    }
}
