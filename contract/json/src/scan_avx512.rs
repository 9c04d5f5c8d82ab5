//! The string scanner's 64-byte windows with AVX-512 (`avx512bw`), chosen at run time before
//! AVX2: a window is one register, and every class of [`crate::scan_window::Classes`] comes straight
//! out of a compare as a 64-bit mask, where AVX2 makes each from two 32-byte blocks and two
//! move-masks. The loop over the classes is [`crate::scan_window::resolved_loop`], as for AVX2
//! (docs/performance.md, "2. Strings by SIMD blocks and windows").
//!
//! Its `unsafe` is that of `scan_avx2.rs`: code compiled with AVX-512 enabled runs only where
//! `is_x86_feature_detected!` found it (the only way to get an [`Avx512`] token), and each
//! load reads the 64 bytes of a `&[u8; 64]` (the window) or of a 64-byte static (the tables). Tests hold the classes equal to the
//! classification on every byte value in every lane, and the loop equal to the byte-by-byte
//! scan on random strings and on every escape at a window's end (`scan.rs`,
//! `every_window_loop_agrees_with_the_byte_by_byte_scan`,
//! `every_window_loop_agrees_on_escapes_at_window_ends`).
//!
//! Measured on AMD Zen 4 only (docs/performance.md, "2. Strings by SIMD blocks and windows"); on Intel processors
//! that lower their clock for 512-bit instructions (Skylake-SP, Cascade Lake) the loop was not
//! measured against AVX2.
#![allow(unsafe_code)]
// `inline(always)` as in `scan.rs`: the classes must land inside the AVX-512-compiled loop.
#![allow(clippy::inline_always)]

use std::arch::x86_64::{
    _mm512_and_si512, _mm512_cmpeq_epi8_mask, _mm512_cmplt_epu8_mask, _mm512_loadu_si512, _mm512_movepi8_mask, _mm512_set1_epi8, _mm512_shuffle_epi8,
    _mm512_srli_epi16, _mm512_testn_epi8_mask,
};

use crate::scan_window::{resolved_loop, Classes, StringError, Taken, WindowClasses, ESCAPE_HIGH, ESCAPE_LOW, WINDOW};

/// [`crate::scan_window::resolved_loop`] with AVX-512 classes, or `None` when the processor lacks
/// AVX-512 BW (the caller then tries AVX2).
///
/// # Errors
/// As the loop: the first error in the string.
#[inline]
pub(crate) fn windows<const HIGH: bool>(src: &[u8], pos: usize, escaped: &mut bool, high: &mut usize) -> Option<Result<Taken, StringError>> {
    let avx512 = Avx512::detect()?;
    // SAFETY: `avx512` exists, so the processor has AVX-512 F and BW.
    Some(unsafe { windows_avx512::<HIGH>(avx512, src, pos, escaped, high) })
}

/// The window loop compiled with AVX-512 enabled, so that [`Avx512::classes`] (inlined into
/// it) may use it.
///
/// # Safety
/// The processor must have AVX-512 F and BW (as holding `avx512` proves).
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn windows_avx512<const HIGH: bool>(avx512: Avx512, src: &[u8], pos: usize, escaped: &mut bool, high: &mut usize) -> Result<Taken, StringError> {
    resolved_loop::<HIGH, _>(avx512, src, pos, escaped, high)
}

/// Proof that the processor has AVX-512 F and BW: made only by [`Avx512::detect`] (its field
/// is private), and the class maker of the AVX-512 loop.
#[derive(Clone, Copy)]
pub(crate) struct Avx512(());

impl Avx512 {
    /// `Some` when the processor (and the OS) support AVX-512 F and BW.
    #[inline]
    pub(crate) fn detect() -> Option<Self> {
        (std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw")).then_some(Avx512(()))
    }
}

impl WindowClasses for Avx512 {
    #[inline(always)]
    fn classes(&self, window: &[u8; WINDOW], want_high: bool) -> Classes {
        // SAFETY: an `Avx512` exists only where the processor has AVX-512 F and BW.
        unsafe { classes(window, want_high) }
    }
}

/// The window's [`Classes`], each a compare's mask: quotes and control characters (`< 0x20`),
/// backslashes, the escape letters by the two table lookups of `scan_avx2.rs`'s
/// `not_short_escape` (tables [`ESCAPE_HIGH`], [`ESCAPE_LOW`], whole: the lanes where the two
/// entries share no bit), and the lanes' high bits.
///
/// # Safety
/// The processor must have AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn classes(window: &[u8; WINDOW], want_high: bool) -> Classes {
    // SAFETY: the load reads the 64 bytes of the window.
    let v = unsafe { _mm512_loadu_si512(window.as_ptr().cast()) };
    let nibble = _mm512_set1_epi8(0x0f);
    // SAFETY: each load reads the 64 bytes of a table.
    let (high_table, low_table) = unsafe { (_mm512_loadu_si512(ESCAPE_HIGH.as_ptr().cast()), _mm512_loadu_si512(ESCAPE_LOW.as_ptr().cast())) };
    let high_bits = _mm512_shuffle_epi8(high_table, _mm512_and_si512(_mm512_srli_epi16::<4>(v), nibble));
    let low_bits = _mm512_shuffle_epi8(low_table, _mm512_and_si512(v, nibble));
    Classes {
        quote_or_control: _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20)) | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'"' as i8)),
        backslash: _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'\\' as i8)),
        not_short_escape: _mm512_testn_epi8_mask(high_bits, low_bits),
        high: if want_high { _mm512_movepi8_mask(v) } else { 0 },
    }
}

#[cfg(test)]
mod tests {
    use super::{Avx512, WindowClasses, WINDOW};
    use crate::scan::tests::classes_by_byte;

    /// As `scan_avx2.rs`'s test: every byte value in every lane, on every background, with and
    /// without `want_high`, the AVX-512 classes equal the classification byte by byte.
    #[test]
    fn avx512_classes_equal_the_classification_on_every_byte_in_every_lane() {
        let Some(avx512) = Avx512::detect() else { return };
        for background in [b'a', 0xc3, b'"', b'\\', b'n', b'u', 0x7f, 0x1f, 0xff] {
            for lane in 0..WINDOW {
                for b in 0..=255u8 {
                    let mut window = [background; WINDOW];
                    window[lane] = b;
                    for want_high in [false, true] {
                        assert_eq!(
                            avx512.classes(&window, want_high),
                            classes_by_byte(&window, want_high),
                            "byte {b:#04x} at {lane} on {background:#04x}, want_high {want_high}"
                        );
                    }
                }
            }
        }
    }
}
