//! The SIMD loops of [`crate::utf32`]: valid UTF-8 to UTF-32 with AVX-512 (16 byte
//! positions a step) or AVX2 (8 a step), chosen at run time.
//!
//! A step decodes every byte position as if it led a character: its lead byte and the three
//! bytes after it, widened to 32-bit lanes, give the one-, two-, three- and four-byte decodes,
//! and the lead byte's range picks one. Positions holding a continuation byte (`10xxxxxx`)
//! are dropped by a compress (AVX-512's `vpcompressd`; AVX2 permutes by a 256-entry table),
//! so no branch depends on where characters start: the text these frames carry has a
//! non-ASCII character every few dozen bytes, which is a mispredicted branch each in a
//! byte-at-a-time decoder. A step whose bytes are all ASCII only widens them.
//!
//! `unsafe`, for what the compiler cannot check, as in `scan_avx2.rs`: code compiled with a
//! target feature runs only after `is_x86_feature_detected!` found it. Every load reads inside
//! a fixed-size chunk taken from `src` by a checked `first_chunk` (the step's bytes and the
//! three after them), and every store writes inside a checked slice of `out`'s spare capacity,
//! so neither depends on the bytes being UTF-8 (the AVX2 loop's one other load reads a
//! 32-byte row of its 256-row table, indexed by an 8-bit mask); a loop ends where either runs
//! out. The caller reserves `src.len()` elements, and the output position never passes the input's (each
//! element written stands for a distinct byte read), so the input runs out first. Lanes past
//! the kept ones are written but not counted: the next store or the length set at the end
//! leaves them out. Tests (`utf32.rs`) hold each loop equal to `str::chars` on random text and
//! on every character at every lane.
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m256i, __m512i, _mm256_and_si256, _mm256_blendv_epi8, _mm256_castsi256_ps, _mm256_cmpeq_epi32, _mm256_cmpgt_epi32, _mm256_cvtepu8_epi32,
    _mm256_loadu_si256, _mm256_movemask_ps, _mm256_or_si256, _mm256_permutevar8x32_epi32, _mm256_set1_epi32, _mm256_slli_epi32, _mm256_storeu_si256,
    _mm512_and_si512, _mm512_cmpge_epu32_mask, _mm512_cmpneq_epi32_mask, _mm512_cvtepu8_epi32, _mm512_mask_mov_epi32, _mm512_maskz_compress_epi32,
    _mm512_or_si512, _mm512_set1_epi32, _mm512_slli_epi32, _mm512_storeu_si512, _mm_loadl_epi64, _mm_loadu_si128, _mm_movemask_epi8, _mm_srli_si128,
};

/// The best loop this processor has: how many bytes of `text` it read (0 where it has
/// neither AVX-512 F nor AVX2), appending to `out`. With less than `text.len()` elements of
/// spare capacity the loop stops where its stores would run out, and the caller's tail does
/// the rest.
#[inline]
pub(crate) fn push_prefix(text: &str, out: &mut Vec<u32>) -> usize {
    match push_prefix_avx512(text, out) {
        Some(read) => read,
        None => push_prefix_avx2(text, out).unwrap_or(0),
    }
}

/// The AVX-512 loop, or `None` where the processor lacks AVX-512 F.
#[inline]
pub(crate) fn push_prefix_avx512(text: &str, out: &mut Vec<u32>) -> Option<usize> {
    if !std::is_x86_feature_detected!("avx512f") {
        return None;
    }
    // SAFETY: the processor has AVX-512 F (checked above); the loop's loads and stores are
    // inside checked slices whatever `out`'s capacity.
    Some(unsafe { avx512(text.as_bytes(), out) })
}

/// The AVX2 loop, or `None` where the processor lacks AVX2.
#[inline]
pub(crate) fn push_prefix_avx2(text: &str, out: &mut Vec<u32>) -> Option<usize> {
    if !std::is_x86_feature_detected!("avx2") {
        return None;
    }
    // SAFETY: the processor has AVX2 (checked above); the loop's loads and stores are inside
    // checked slices whatever `out`'s capacity.
    Some(unsafe { avx2(text.as_bytes(), out) })
}

/// # Safety
/// The processor must have AVX-512 F. (`src` must be valid UTF-8 for the values to be right;
/// every load and store is inside a slice whatever the bytes.)
#[target_feature(enable = "avx512f")]
unsafe fn avx512(src: &[u8], out: &mut Vec<u32>) -> usize {
    const STEP: usize = 16;
    let base = out.len();
    let (mut i, mut o) = (0usize, 0usize);
    // The step's bytes and the three after them; `dst`, the step's 16 lanes of output.
    while let Some(block) = src.get(i..).and_then(<[u8]>::first_chunk::<{ STEP + 3 }>) {
        let Some(dst) = out.spare_capacity_mut().get_mut(o..o + STEP) else { break };
        let dst = dst.as_mut_ptr();
        // 16 bytes from `block[k..]`, k <= 3, widened: inside the 19-byte block.
        let at = |k: usize| -> __m512i { _mm512_cvtepu8_epi32(_mm_loadu_si128(block.as_ptr().add(k).cast())) };
        let head = _mm_loadu_si128(block.as_ptr().cast());
        let b0 = _mm512_cvtepu8_epi32(head);
        if _mm_movemask_epi8(head) == 0 {
            _mm512_storeu_si512(dst.cast(), b0);
            i += STEP;
            o += STEP;
            continue;
        }
        let low6 = _mm512_set1_epi32(0x3F);
        let (c1, c2, c3) = (_mm512_and_si512(at(1), low6), _mm512_and_si512(at(2), low6), _mm512_and_si512(at(3), low6));
        let lead = |mask: i32| _mm512_and_si512(b0, _mm512_set1_epi32(mask));
        let two = _mm512_or_si512(_mm512_slli_epi32::<6>(lead(0x1F)), c1);
        let three = _mm512_or_si512(_mm512_or_si512(_mm512_slli_epi32::<12>(lead(0x0F)), _mm512_slli_epi32::<6>(c1)), c2);
        let four =
            _mm512_or_si512(_mm512_or_si512(_mm512_slli_epi32::<18>(lead(0x07)), _mm512_slli_epi32::<12>(c1)), _mm512_or_si512(_mm512_slli_epi32::<6>(c2), c3));
        let from = |min: i32| _mm512_cmpge_epu32_mask(b0, _mm512_set1_epi32(min));
        let mut cp = _mm512_mask_mov_epi32(b0, from(0x80), two);
        cp = _mm512_mask_mov_epi32(cp, from(0xE0), three);
        cp = _mm512_mask_mov_epi32(cp, from(0xF0), four);
        let keep = _mm512_cmpneq_epi32_mask(lead(0xC0), _mm512_set1_epi32(0x80));
        _mm512_storeu_si512(dst.cast(), _mm512_maskz_compress_epi32(keep, cp));
        i += STEP;
        o += keep.count_ones() as usize;
    }
    // Every element up to `o` was written: each step stored its lanes from the position the
    // previous one's kept lanes ended at.
    out.set_len(base + o);
    i
}

/// # Safety
/// As [`avx512`], with AVX2.
#[target_feature(enable = "avx2")]
unsafe fn avx2(src: &[u8], out: &mut Vec<u32>) -> usize {
    const STEP: usize = 8;
    let base = out.len();
    let (mut i, mut o) = (0usize, 0usize);
    loop {
        // Sixteen ASCII bytes are two plain widenings.
        if let (Some(block), Some(dst)) = (src.get(i..).and_then(<[u8]>::first_chunk::<{ 2 * STEP }>), out.spare_capacity_mut().get_mut(o..o + 2 * STEP)) {
            let v = _mm_loadu_si128(block.as_ptr().cast());
            if _mm_movemask_epi8(v) == 0 {
                let dst = dst.as_mut_ptr();
                _mm256_storeu_si256(dst.cast(), _mm256_cvtepu8_epi32(v));
                _mm256_storeu_si256(dst.add(STEP).cast(), _mm256_cvtepu8_epi32(_mm_srli_si128::<8>(v)));
                i += 2 * STEP;
                o += 2 * STEP;
                continue;
            }
        }
        // The step's bytes and the three after them; `dst`, the step's 8 lanes of output.
        let Some(block) = src.get(i..).and_then(<[u8]>::first_chunk::<{ STEP + 3 }>) else { break };
        let Some(dst) = out.spare_capacity_mut().get_mut(o..o + STEP) else { break };
        let dst = dst.as_mut_ptr();
        // 8 bytes from `block[k..]`, k <= 3, widened: inside the 11-byte block.
        let at = |k: usize| -> __m256i { _mm256_cvtepu8_epi32(_mm_loadl_epi64(block.as_ptr().add(k).cast())) };
        let b0 = at(0);
        let low6 = _mm256_set1_epi32(0x3F);
        let (c1, c2, c3) = (_mm256_and_si256(at(1), low6), _mm256_and_si256(at(2), low6), _mm256_and_si256(at(3), low6));
        let lead = |mask: i32| _mm256_and_si256(b0, _mm256_set1_epi32(mask));
        let two = _mm256_or_si256(_mm256_slli_epi32::<6>(lead(0x1F)), c1);
        let three = _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi32::<12>(lead(0x0F)), _mm256_slli_epi32::<6>(c1)), c2);
        let four =
            _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi32::<18>(lead(0x07)), _mm256_slli_epi32::<12>(c1)), _mm256_or_si256(_mm256_slli_epi32::<6>(c2), c3));
        // Lanes hold bytes (0..=255), so the signed compare is the unsigned one.
        let from = |min: i32| _mm256_cmpgt_epi32(b0, _mm256_set1_epi32(min - 1));
        let mut cp = _mm256_blendv_epi8(b0, two, from(0x80));
        cp = _mm256_blendv_epi8(cp, three, from(0xE0));
        cp = _mm256_blendv_epi8(cp, four, from(0xF0));
        let continuation = _mm256_cmpeq_epi32(lead(0xC0), _mm256_set1_epi32(0x80));
        let keep = !_mm256_movemask_ps(_mm256_castsi256_ps(continuation)) & 0xFF;
        let order = _mm256_loadu_si256(PACK.0[keep as usize].as_ptr().cast());
        _mm256_storeu_si256(dst.cast(), _mm256_permutevar8x32_epi32(cp, order));
        i += STEP;
        o += keep.count_ones() as usize;
    }
    // As in `avx512`: every element up to `o` was written.
    out.set_len(base + o);
    i
}

/// For each 8-bit lane mask, the lanes it keeps in order, then zeros: the index vector of the
/// AVX2 loop's compress.
struct Pack([[u32; 8]; 256]);

static PACK: Pack = Pack(pack_table());

const fn pack_table() -> [[u32; 8]; 256] {
    let mut table = [[0u32; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut lane, mut kept) = (0, 0);
        while lane < 8 {
            if mask & (1 << lane) != 0 {
                table[mask][kept] = lane as u32;
                kept += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
}
