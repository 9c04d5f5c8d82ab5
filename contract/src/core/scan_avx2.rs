//! The string scanner's 64-byte windows with AVX2, chosen at run time: two 32-byte blocks a
//! window where [`super::scan`]'s portable path (through `wide`, compiled for the x86-64
//! baseline, SSE2) takes four 16-byte ones. Long strings are most of a large frame's bytes,
//! so this loop is most of a large-corpus parse (docs/performance.md, "Issue 18, lever 6").
//!
//! The only `unsafe` of the scanner lives here, for what the compiler cannot check: code
//! compiled with AVX2 enabled may run only where the processor has it. That is found once by
//! `is_x86_feature_detected!` (std caches the answer), which is the only way to get an
//! [`Avx2`] token; the loop is entered, and the masks are made, only with one in hand. The
//! loads read through a pointer, each one 32 bytes inside a `&[u8; 64]`. What the loop does
//! with the masks is [`super::scan::window_loop`], shared with the portable path; tests hold
//! the two mask makers equal on every byte value in every lane, and the two loops equal on
//! random strings (`scan.rs`, `both_window_loops_agree_with_the_byte_by_byte_scan`).
#![allow(unsafe_code)]
// `inline(always)` as in `scan.rs`: the masks must land inside the AVX2-compiled loop.
#![allow(clippy::inline_always)]

use std::arch::x86_64::{
    __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8, _mm256_set1_epi8, _mm256_setzero_si256, _mm256_subs_epu8,
    _mm256_xor_si256,
};

use super::scan::{window_loop, StringError, Taken, WindowMasks, WINDOW};

/// [`super::scan::window_loop`] with AVX2 masks, or `None` when the processor lacks AVX2
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

/// The window loop compiled with AVX2 enabled, so that [`Avx2::masks`] (inlined into it)
/// may use AVX2.
///
/// # Safety
/// The processor must have AVX2 (as holding `avx2` proves).
#[target_feature(enable = "avx2")]
unsafe fn windows_avx2<const HIGH: bool>(avx2: Avx2, src: &[u8], pos: usize, escaped: &mut bool, high: &mut usize) -> Result<Taken, StringError> {
    window_loop::<HIGH, _>(avx2, src, pos, escaped, high)
}

/// Proof that the processor has AVX2: made only by [`Avx2::detect`] (its field is private), and
/// the mask maker of the AVX2 loop.
#[derive(Clone, Copy)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// `Some` when the processor (and the OS) support AVX2.
    #[inline]
    pub(crate) fn detect() -> Option<Self> {
        std::is_x86_feature_detected!("avx2").then_some(Avx2(()))
    }
}

impl WindowMasks for Avx2 {
    #[inline(always)]
    fn masks(&self, window: &[u8; WINDOW], want_high: bool) -> Option<(u64, u64)> {
        // SAFETY: an `Avx2` exists only where the processor has AVX2 (`Avx2::detect`).
        unsafe { masks(window, want_high) }
    }
}

/// The window's stops as [`WindowMasks::masks`] gives them: the `"`, `\` and control bytes of
/// each block ([`stops`]); the non-ASCII bytes are the lanes' high bits.
///
/// # Safety
/// The processor must have AVX2.
#[target_feature(enable = "avx2")]
#[inline]
#[allow(clippy::cast_ptr_alignment)] // `_mm256_loadu_si256` reads unaligned
unsafe fn masks(window: &[u8; WINDOW], want_high: bool) -> Option<(u64, u64)> {
    let at = window.as_ptr().cast::<__m256i>();
    // SAFETY: both loads read 32 bytes inside the 64-byte window.
    let (lo, hi) = unsafe { (_mm256_loadu_si256(at), _mm256_loadu_si256(at.add(1))) };
    let special = mask64(stops(lo), stops(hi));
    let highs = if want_high { mask64(_mm256_movemask_epi8(lo), _mm256_movemask_epi8(hi)) } else { 0 };
    (special | highs != 0).then_some((special, highs))
}

/// The move-mask of a block's `"`, `\` and control-character lanes: each is zero in
/// `min((v ^ 0x02) -sat 0x20, v ^ '\\')` (the SSE2 path's `block_zeros`, 32 lanes at a time).
///
/// # Safety
/// The processor must have AVX2.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn stops(v: __m256i) -> i32 {
    // `v ^ 0x02` maps the control characters onto 0x00..=0x1f and `"` onto 0x20, nothing else
    // at or below 0x20: one saturating subtract zeroes exactly those lanes.
    let quote_or_control = _mm256_subs_epu8(_mm256_xor_si256(v, _mm256_set1_epi8(0x02)), _mm256_set1_epi8(0x20));
    let zeros = _mm256_min_epu8(quote_or_control, _mm256_xor_si256(v, _mm256_set1_epi8(b'\\' as i8)));
    _mm256_movemask_epi8(_mm256_cmpeq_epi8(zeros, _mm256_setzero_si256()))
}

/// One 64-bit mask from the 32-bit move-masks of a window's two blocks.
#[inline(always)]
fn mask64(lo: i32, hi: i32) -> u64 {
    u64::from(lo as u32) | u64::from(hi as u32) << 32
}

#[cfg(test)]
mod tests {
    use super::{Avx2, WindowMasks, WINDOW};
    use crate::core::scan::Sse2;

    /// Every byte value in every lane of a window, on backgrounds of plain ASCII, non-ASCII and
    /// stop bytes, with and without `want_high`: the AVX2 masks equal the SSE2 masks and the
    /// classification byte by byte. Every operation of both is per lane, so this covers every
    /// window either can see.
    #[test]
    fn avx2_masks_equal_sse2_masks_on_every_byte_in_every_lane() {
        let Some(avx2) = Avx2::detect() else { return };
        let is_special = |b: u8| b == b'"' || b == b'\\' || b < 0x20;
        for background in [b'a', 0xc3, b'"', 0x7f] {
            for lane in 0..WINDOW {
                for b in 0..=255u8 {
                    let mut window = [background; WINDOW];
                    window[lane] = b;
                    let special = window.iter().enumerate().fold(0u64, |m, (k, &c)| m | u64::from(is_special(c)) << k);
                    let highs = window.iter().enumerate().fold(0u64, |m, (k, &c)| m | u64::from(c >= 0x80) << k);
                    for want_high in [false, true] {
                        let highs = if want_high { highs } else { 0 };
                        let want = (special | highs != 0).then_some((special, highs));
                        assert_eq!(avx2.masks(&window, want_high), want, "byte {b:#04x} at {lane} on {background:#04x}, want_high {want_high}");
                        assert_eq!(Sse2.masks(&window, want_high), want, "SSE2: byte {b:#04x} at {lane} on {background:#04x}, want_high {want_high}");
                    }
                }
            }
        }
    }
}
