//! The string scanner's 64-byte windows with AVX2, chosen at run time: two 32-byte blocks a
//! window where [`super::scan`]'s portable path (through `wide`, compiled for the x86-64
//! baseline, SSE2) takes four 16-byte ones. Long strings are most of a large frame's bytes,
//! so this loop is most of a large-corpus parse (docs/performance.md, "Issue 18, lever 6").
//!
//! The only `unsafe` of the scanner lives here, for two reasons the compiler cannot check:
//! the loop is compiled with AVX2 enabled and may run only where the processor has it (checked
//! once by `is_x86_feature_detected!`, whose answer std caches), and the loads read through a
//! pointer (each one 32 bytes inside a `&[u8; 64]`). What the loop does with the masks is
//! [`super::scan::window_loop`], shared with the portable path; tests run both on the same
//! strings (`scan.rs`, `both_window_loops_agree_with_the_byte_by_byte_scan`).
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
    if !std::is_x86_feature_detected!("avx2") {
        return None;
    }
    // SAFETY: the processor has AVX2 (checked just above).
    Some(unsafe { windows_avx2::<HIGH>(src, pos, escaped, high) })
}

/// The window loop compiled with AVX2 enabled, so that [`Avx2::masks`] (inlined into it)
/// may use AVX2.
///
/// # Safety
/// The processor must have AVX2.
#[target_feature(enable = "avx2")]
unsafe fn windows_avx2<const HIGH: bool>(src: &[u8], pos: usize, escaped: &mut bool, high: &mut usize) -> Result<Taken, StringError> {
    window_loop::<HIGH, Avx2>(src, pos, escaped, high)
}

/// Masks from two 32-byte AVX2 blocks. Private to this module, so that the only loop
/// instantiated with it is [`windows_avx2`], which runs where AVX2 was found.
struct Avx2;

impl WindowMasks for Avx2 {
    #[inline(always)]
    fn masks(window: &[u8; WINDOW], want_high: bool) -> Option<(u64, u64)> {
        // SAFETY: `Avx2` is used only by `windows_avx2`, which runs only where the processor
        // has AVX2 (see the type).
        unsafe { masks(window, want_high) }
    }
}

/// The window's stops as [`WindowMasks::masks`] gives them: every lane holding `"`, `\` or a
/// control character is zero in `min((v ^ 0x02) -sat 0x20, v ^ '\\')` (the SSE2 path's
/// `block_zeros`, 32 lanes at a time); the non-ASCII bytes are the lanes' high bits.
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

/// The move-mask of a block's `"`, `\` and control-character lanes.
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
