//! The string scanner's 64-byte windows with AVX2, chosen at run time where the processor
//! lacks AVX-512 BW (`scan_avx512.rs`): two 32-byte blocks a window, each byte classed at once
//! (quote or control, backslash, escape letter, non-ASCII), where [`crate::scan`]'s portable
//! path (through `wide`, compiled for the x86-64 baseline, SSE2, which has no byte shuffle)
//! finds stops in four 16-byte blocks and takes each escape as a stop. Long strings are most
//! of a large frame's bytes, so this loop is most of a large-corpus parse
//! (docs/performance.md, "2. Strings by SIMD blocks and windows").
//!
//! The scanner's `unsafe` lives here and in `scan_avx512.rs`, for what the compiler cannot
//! check: code compiled with AVX2 enabled may run only where the processor has it. That is
//! found once by `is_x86_feature_detected!` (std caches the answer), which is the only way to
//! get an [`Avx2`] token; the loop is entered, and the classes are made, only with one in
//! hand. The loads read through a pointer, each one 32 bytes inside a `&[u8; 64]` (the
//! window) or a 64-byte table. What the loop does with the classes is
//! [`crate::scan_window::resolved_loop`], portable code; tests hold the classes equal to the
//! classification on every byte value in every lane, and the loop equal to the byte-by-byte
//! scan on random strings and on every escape at a window's end (`scan.rs`,
//! `every_window_loop_agrees_with_the_byte_by_byte_scan`,
//! `every_window_loop_agrees_on_escapes_at_window_ends`).
#![allow(unsafe_code)]
// `inline(always)` as in `scan.rs`: the classes must land inside the AVX2-compiled loop.
#![allow(clippy::inline_always)]

use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_set1_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8,
    _mm256_srli_epi16, _mm256_subs_epu8, _mm256_xor_si256,
};

use crate::scan_window::{resolved_loop, Classes, StringError, Taken, WindowClasses, ESCAPE_HIGH, ESCAPE_LOW, WINDOW};

/// [`crate::scan_window::resolved_loop`] with AVX2 classes, or `None` when the processor lacks AVX2
/// (the caller then runs the portable loop).
///
/// # Errors
/// As the loop: the first error in the string.
#[inline]
pub(crate) fn windows<const HIGH: bool>(src: &[u8], pos: usize, escaped: &mut bool, high: &mut usize) -> Option<Result<Taken, StringError>> {
    let avx2 = Avx2::detect()?;
    // SAFETY: `avx2` exists, so the processor has AVX2.
    Some(unsafe { windows_avx2::<HIGH>(avx2, src, pos, escaped, high) })
}

/// The window loop compiled with AVX2 enabled, so that [`Avx2::classes`] (inlined into it)
/// may use AVX2.
///
/// # Safety
/// The processor must have AVX2 (as holding `avx2` proves).
#[target_feature(enable = "avx2")]
unsafe fn windows_avx2<const HIGH: bool>(avx2: Avx2, src: &[u8], pos: usize, escaped: &mut bool, high: &mut usize) -> Result<Taken, StringError> {
    resolved_loop::<HIGH, _>(avx2, src, pos, escaped, high)
}

/// Proof that the processor has AVX2: made only by [`Avx2::detect`] (its field is private), and
/// the class maker of the AVX2 loop.
#[derive(Clone, Copy)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// `Some` when the processor (and the OS) support AVX2.
    #[inline]
    pub(crate) fn detect() -> Option<Self> {
        std::is_x86_feature_detected!("avx2").then_some(Avx2(()))
    }
}

impl WindowClasses for Avx2 {
    #[inline(always)]
    fn classes(&self, window: &[u8; WINDOW], want_high: bool) -> Classes {
        // SAFETY: an `Avx2` exists only where the processor has AVX2 (`Avx2::detect`).
        unsafe { classes(window, want_high) }
    }
}

/// The window's [`Classes`]: per 32-byte block, quotes and control characters by one
/// saturating subtract (`v ^ 0x02` maps the control characters onto 0x00..=0x1f and `"` onto
/// 0x20, nothing else at or below 0x20: `-sat 0x20` zeroes exactly those lanes), backslashes
/// by one compare, the escape letters by two table lookups ([`not_short_escape`]), the
/// non-ASCII bytes as the lanes' high bits.
///
/// # Safety
/// The processor must have AVX2.
#[target_feature(enable = "avx2")]
#[inline]
#[allow(clippy::cast_ptr_alignment)] // `_mm256_loadu_si256` reads unaligned
unsafe fn classes(window: &[u8; WINDOW], want_high: bool) -> Classes {
    let at = window.as_ptr().cast::<__m256i>();
    // SAFETY: both loads read 32 bytes inside the 64-byte window.
    let (lo, hi) = unsafe { (_mm256_loadu_si256(at), _mm256_loadu_si256(at.add(1))) };
    let quote_or_control = |v| {
        let zeros = _mm256_subs_epu8(_mm256_xor_si256(v, _mm256_set1_epi8(0x02)), _mm256_set1_epi8(0x20));
        _mm256_movemask_epi8(_mm256_cmpeq_epi8(zeros, _mm256_setzero_si256()))
    };
    let backslash = |v| _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\\' as i8)));
    Classes {
        quote_or_control: mask64(quote_or_control(lo), quote_or_control(hi)),
        backslash: mask64(backslash(lo), backslash(hi)),
        not_short_escape: mask64(not_short_escape(lo), not_short_escape(hi)),
        high: if want_high { mask64(_mm256_movemask_epi8(lo), _mm256_movemask_epi8(hi)) } else { 0 },
    }
}

/// The move-mask of a block's lanes that are none of `"\/bfnrt`: the lanes where the entries
/// their high and low nibbles pick from [`ESCAPE_HIGH`] and [`ESCAPE_LOW`] share no bit.
///
/// # Safety
/// The processor must have AVX2.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn not_short_escape(v: __m256i) -> i32 {
    let nibble = _mm256_set1_epi8(0x0f);
    // SAFETY: each load reads the first 32 of a table's 64 bytes.
    let (high_table, low_table) = unsafe { (_mm256_loadu_si256(ESCAPE_HIGH.as_ptr().cast()), _mm256_loadu_si256(ESCAPE_LOW.as_ptr().cast())) };
    // The 16-bit shift brings each byte's high nibble down; the mask drops what came from the
    // byte above it. Both indices are below 16, so no lane's index has its high bit set.
    let high_bits = _mm256_shuffle_epi8(high_table, _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble));
    let low_bits = _mm256_shuffle_epi8(low_table, _mm256_and_si256(v, nibble));
    _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(high_bits, low_bits), _mm256_setzero_si256()))
}

/// One 64-bit mask from the 32-bit move-masks of a window's two blocks.
#[inline(always)]
fn mask64(lo: i32, hi: i32) -> u64 {
    u64::from(lo as u32) | u64::from(hi as u32) << 32
}

#[cfg(test)]
mod tests {
    use super::{Avx2, WindowClasses, WINDOW};
    use crate::scan::tests::classes_by_byte;

    /// Every byte value in every lane of a window, on backgrounds of plain ASCII, non-ASCII,
    /// quote, backslash, escape-letter and control bytes, with and without `want_high`: the
    /// AVX2 classes equal the classification byte by byte. Every operation is per lane (the
    /// nibble shift's spill from the byte above is masked off), so this covers every window.
    #[test]
    fn avx2_classes_equal_the_classification_on_every_byte_in_every_lane() {
        let Some(avx2) = Avx2::detect() else { return };
        for background in [b'a', 0xc3, b'"', b'\\', b'n', b'u', 0x7f, 0x1f, 0xff] {
            for lane in 0..WINDOW {
                for b in 0..=255u8 {
                    let mut window = [background; WINDOW];
                    window[lane] = b;
                    for want_high in [false, true] {
                        assert_eq!(
                            avx2.classes(&window, want_high),
                            classes_by_byte(&window, want_high),
                            "byte {b:#04x} at {lane} on {background:#04x}, want_high {want_high}"
                        );
                    }
                }
            }
        }
    }
}
