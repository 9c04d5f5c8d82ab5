//! The one JSON string scanner: every reader, validator and writer that looks for the end of
//! a string or for the bytes that need attention inside one (`"`, `\`, control characters)
//! goes through [`string_body`] or [`plain_end`], which skip plain bytes eight at a time.
//!
//! Users: the validator and the two-pass reader ([`super::json`]: `validate`, `Val`
//! iteration, `write_compact`), the single-pass reader ([`super::cursor`]), the writer
//! ([`super::json::write_string`]) and payload shrinking (`graphmind/shrink/read.rs`,
//! `write.rs`, which adds its own `0xED` lane to [`string_stops`]).

// `inline(always)` on the scanner primitives is measured, not hopeful: without it the
// per-byte helpers stay calls inside the hot loops of the single-pass reader.
#![allow(clippy::inline_always)]

/// `0x01` in every byte lane.
pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
/// `0x80` in every byte lane.
pub(crate) const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Marks (high bit of each byte lane) the bytes of `w` that end the plain part of a string:
/// `"`, `\` and control characters below U+0020. Only the lowest mark is exact (borrows can
/// set spurious marks above it), which is all a scan needs.
#[inline(always)]
pub(crate) fn string_stops(w: u64) -> u64 {
    let quote = w ^ (ONES * u64::from(b'"'));
    let backslash = w ^ (ONES * u64::from(b'\\'));
    let zero_q = quote.wrapping_sub(ONES) & !quote;
    let zero_b = backslash.wrapping_sub(ONES) & !backslash;
    let control = w.wrapping_sub(ONES * 0x20) & !w;
    (zero_q | zero_b | control) & HIGHS
}

/// The offset of the first `"`, `\` or control character at or after `i`, or of the first
/// byte of the tail shorter than eight bytes when none is found before it (callers finish the
/// tail byte by byte).
#[inline(always)]
pub(crate) fn plain_end(b: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = b.get(i..i + 8) {
        let w = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        let stops = string_stops(w);
        if stops != 0 {
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
}

/// Why a string is not one `JSON.parse` accepts; offsets point at the offending byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StringError {
    /// The text ends before the closing quote.
    Unterminated,
    /// `\u` not followed by four hex digits; the offset of the first non-hex byte.
    BadUnicodeEscape(usize),
    /// A backslash followed by a byte that starts no escape; the offset of that byte.
    BadEscape(usize),
    /// A raw control character below U+0020, and its offset.
    Control(usize, u8),
}

/// Scans a string body from just after its opening quote: returns the offset of the closing
/// quote and whether a backslash escape was seen. Validates escapes (`\uXXXX` needs four hex
/// digits) and refuses raw control characters; UTF-8 validity is the caller's (`&str`).
///
/// # Errors
/// The first [`StringError`] met.
#[inline(always)]
pub(crate) fn string_body(src: &[u8], mut pos: usize) -> Result<(usize, bool), StringError> {
    let mut escaped = false;
    loop {
        // Eight bytes at a time while they are plain. (Measured: unrolling to sixteen, or
        // handing long runs to memchr's SIMD search, were both slower on real text, where
        // escapes such as `\n` and `\"` come every few dozen bytes.)
        pos = plain_end(src, pos);
        // Byte at a time near a stop or the end.
        let Some(&b) = src.get(pos) else { return Err(StringError::Unterminated) };
        match b {
            b'"' => return Ok((pos, escaped)),
            b'\\' => {
                escaped = true;
                match src.get(pos + 1) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => pos += 2,
                    Some(b'u') => {
                        for k in pos + 2..pos + 6 {
                            match src.get(k) {
                                Some(h) if h.is_ascii_hexdigit() => {}
                                Some(_) => return Err(StringError::BadUnicodeEscape(k)),
                                None => return Err(StringError::Unterminated),
                            }
                        }
                        pos += 6;
                    }
                    Some(_) => return Err(StringError::BadEscape(pos + 1)),
                    None => return Err(StringError::Unterminated),
                }
            }
            0..=0x1f => return Err(StringError::Control(pos, b)),
            _ => pos += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{plain_end, string_body, string_stops, StringError};

    /// Every byte value at every lane: the lowest mark is exactly the first stop byte.
    #[test]
    fn string_stops_lowest_mark_is_the_first_stop_byte() {
        for lane in 0..8 {
            for b in 0..=255u8 {
                let mut bytes = [b'a'; 8];
                bytes[lane] = b;
                let stops = string_stops(u64::from_le_bytes(bytes));
                let is_stop = b == b'"' || b == b'\\' || b < 0x20;
                if is_stop {
                    assert_eq!(stops.trailing_zeros() / 8, lane as u32, "byte {b:#04x} at {lane}");
                } else {
                    assert_eq!(stops, 0, "byte {b:#04x} at {lane}");
                }
            }
        }
    }

    #[test]
    fn plain_end_stops_at_the_first_stop_or_the_short_tail() {
        assert_eq!(plain_end(b"abcdefghij\"", 0), 8, "the tail is the caller's");
        assert_eq!(plain_end(b"abcdefgh\"ijklmnop", 0), 8);
        assert_eq!(plain_end(b"abc\\defghijk", 0), 3);
        assert_eq!(plain_end("é\u{1}abcdefgh".as_bytes(), 0), 2);
    }

    #[test]
    fn string_body_validates_escapes_and_control_characters() {
        let scan = |s: &str| string_body(s.as_bytes(), 1);
        let plain = r#""plain text, long enough to take the word loop""#;
        assert_eq!(scan(plain), Ok((plain.len() - 1, false)));
        let escapes = r#""a\"b\\c\/\b\f\n\r\t\u00e9\uD800""#;
        assert_eq!(scan(escapes), Ok((escapes.len() - 1, true)));
        assert_eq!(scan(r#""unterminated"#), Err(StringError::Unterminated));
        assert_eq!(scan(r#""ends in \"#), Err(StringError::Unterminated));
        assert_eq!(scan(r#""\u12"#), Err(StringError::Unterminated));
        assert_eq!(scan(r#""\u12x4""#), Err(StringError::BadUnicodeEscape(5)));
        assert_eq!(scan(r#""\x""#), Err(StringError::BadEscape(2)));
        assert_eq!(scan("\"0123456789\ttab\""), Err(StringError::Control(11, b'\t')));
        assert_eq!(scan("\"é\u{7f}\u{80}ok\""), Ok((8, false)), "DEL and non-ASCII are plain");
    }
}
