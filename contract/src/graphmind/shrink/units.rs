//! Measuring and cutting text in the two units the shrink mixes (graphmind-shrink §2 P2/P3,
//! §14 A10): UTF-16 code units, JavaScript's string length, and UTF-8 bytes, the budget's unit.
//!
//! Every function here works on WTF-8 bytes: UTF-8 in which a lone surrogate is written as the
//! 3-byte generalized UTF-8 sequence `ED A0..BF xx`. JSON text (always valid UTF-8, since the
//! writer escapes lone surrogates) is a special case, so the same functions measure and cut
//! both string values and JSON text.

use std::borrow::Cow;

/// `…[graphmind: truncated]`: U+2026 then the bracketed note (23 UTF-16 units, 25 UTF-8
/// bytes; §1 TRUNCATION_SUFFIX).
pub const TRUNCATION_SUFFIX: &str = "\u{2026}[graphmind: truncated]";

/// `len16`: the number of UTF-16 code units of WTF-8 text (§2 P2). A 4-byte sequence (an
/// astral character) counts 2, every other character 1.
pub fn len16(b: &[u8]) -> usize {
    // The engine's SIMD count: a sum straight into `usize` ran four bytes a step and was most
    // of a 5 MB shrink (perf), byte-wide counters left to the compiler still a third.
    wirecontract_json::utf16_len(b)
}

/// Byte width of the WTF-8 sequence starting with `lead`.
pub(super) fn width(lead: u8) -> usize {
    match lead {
        0..0xE0 => 1 + usize::from(lead >= 0xC0),
        0xE0..0xF0 => 3,
        _ => 4,
    }
}

/// The high surrogate of the astral character whose 4-byte sequence starts `seq`, encoded as
/// WTF-8 (what `String.prototype.slice` leaves when it cuts a pair in half).
pub(super) fn high_surrogate_of(seq: &[u8]) -> [u8; 3] {
    let byte = |i: usize| u32::from(seq.get(i).copied().unwrap_or(0x80) & 0x3F);
    let cp = (u32::from(seq.first().copied().unwrap_or(0xF0) & 0x07) << 18) | (byte(1) << 12) | (byte(2) << 6) | byte(3);
    let hi = 0xD800 + ((cp.saturating_sub(0x1_0000) >> 10) & 0x3FF);
    wtf8_unit(hi)
}

/// The 3-byte WTF-8 form of a BMP code unit (including a surrogate).
pub(super) fn wtf8_unit(u: u32) -> [u8; 3] {
    [0xE0 | ((u >> 12) & 0x0F) as u8, 0x80 | ((u >> 6) & 0x3F) as u8, 0x80 | (u & 0x3F) as u8]
}

/// `prefix16(s, n)`: the first `n` UTF-16 units (§2 P2). May split a surrogate pair, leaving a
/// lone high surrogate at the end, exactly as `String.prototype.slice` does.
#[allow(clippy::many_single_char_names)] // b, n as in the spec's prefix16(s, n); i, w, u local.
pub fn prefix16(b: &[u8], n: usize) -> Cow<'_, [u8]> {
    // Every character is at least one byte and at most two units per byte count, so a text of
    // at most `n` bytes has at most `n` units.
    if b.len() <= n {
        return Cow::Borrowed(b);
    }
    let (mut i, mut units) = (0, 0);
    while let Some(&lead) = b.get(i) {
        let (w, u) = match width(lead) {
            4 => (4, 2),
            w => (w, 1),
        };
        if units + u > n {
            if u == 2 && units < n {
                let mut out = b.get(..i).unwrap_or(b).to_vec();
                out.extend_from_slice(&high_surrogate_of(b.get(i..).unwrap_or_default()));
                return Cow::Owned(out);
            }
            break;
        }
        units += u;
        i += w;
    }
    Cow::Borrowed(b.get(..i).unwrap_or(b))
}

/// `cut(s, n)` (§2 P2): `s` itself when it has at most `n` UTF-16 units, else its first `n`
/// units followed by [`TRUNCATION_SUFFIX`]. The flag says whether it was cut.
pub fn cut(b: &[u8], n: usize) -> (Cow<'_, [u8]>, bool) {
    if b.len() <= n || len16(b) <= n {
        return (Cow::Borrowed(b), false);
    }
    let mut out = prefix16(b, n).into_owned();
    out.extend_from_slice(TRUNCATION_SUFFIX.as_bytes());
    (Cow::Owned(out), true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_and_cuts() {
        assert_eq!(len16("a😀é".as_bytes()), 4);
        assert_eq!(len16(TRUNCATION_SUFFIX.as_bytes()), 23);
        // Across the counting blocks (2032 bytes) and their tail.
        for n in [2031, 2032, 2033, 5000] {
            let s = "a😀é".repeat(n);
            assert_eq!(len16(s.as_bytes()), s.encode_utf16().count(), "{n}");
        }
        assert_eq!(TRUNCATION_SUFFIX.len(), 25);
        let s = "a😀b".as_bytes();
        assert_eq!(&*prefix16(s, 2), &[b'a', 0xED, 0xA0, 0xBD][..]);
        assert_eq!(&*prefix16(s, 3), "a😀".as_bytes());
        assert_eq!(&*prefix16(s, 1), b"a");
        assert!(!cut(s, 4).1);
        assert_eq!(&*cut(s, 3).0, format!("a😀{TRUNCATION_SUFFIX}").as_bytes());
    }
}
