//! Measuring UTF-8 (or WTF-8) text in UTF-16 code units without decoding it: JavaScript's
//! `length` of a string or of a JSON text, as payload shrinking needs it (every field's size,
//! graphmind-shrink §4 T1), sixteen bytes a step through `wide` (no `unsafe`).

use wide::u8x16;

/// Bytes one SIMD block holds.
const BLOCK: usize = 16;
/// Blocks counted in byte lanes before the lanes are widened (each lane adds at most 1 a block).
const ROUNDS: usize = 255;

/// The number of UTF-16 code units of UTF-8 or WTF-8 text: one for each byte that is not a
/// continuation byte (`10xxxxxx`), plus one more for each 4-byte lead (`11110xxx`, an astral
/// character, written as a surrogate pair). Bytes that are not well-formed are counted by the
/// same rule.
pub fn utf16_len(b: &[u8]) -> usize {
    let units = |c: u8| usize::from(c & 0xC0 != 0x80) + usize::from(c >= 0xF0);
    let mut total = 0usize;
    let mut blocks = b.chunks_exact(BLOCK * ROUNDS);
    for run in &mut blocks {
        // Subtracting a compare's all-ones mask adds one in that lane (wrapping byte lanes).
        let mut continuation = u8x16::ZERO;
        let mut astral = u8x16::ZERO;
        for block in run.chunks_exact(BLOCK) {
            let v = u8x16::new(block.try_into().unwrap_or_default());
            continuation -= (v & u8x16::splat(0xC0)).simd_eq(u8x16::splat(0x80));
            astral -= v.max(u8x16::splat(0xF0)).simd_eq(v);
        }
        let sum = |lanes: u8x16| lanes.to_array().iter().map(|&n| usize::from(n)).sum::<usize>();
        total += run.len() - sum(continuation) + sum(astral);
    }
    let rest = blocks.remainder();
    total + rest.iter().map(|&c| units(c)).sum::<usize>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_as_utf16_does_across_runs_and_tails() {
        for n in [0, 1, 5, 1000, 1020, 1021, 1022, 3000] {
            let s = "a😀éꙮ".repeat(n);
            assert_eq!(utf16_len(s.as_bytes()), s.encode_utf16().count(), "{n}");
        }
        // A lone surrogate in WTF-8 counts one unit.
        assert_eq!(utf16_len(&[0xED, 0xA0, 0x80, b'x']), 2);
    }
}
