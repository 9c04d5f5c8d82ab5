//! The one JSON string scanner: every reader, validator and writer that looks for the end of
//! a string or for the bytes that need attention inside one (`"`, `\`, control characters)
//! goes through [`string_body`] or [`plain_end`], which skip plain bytes sixteen at a time
//! (one SIMD compare per kind of stop byte, through the `wide` crate: no `unsafe` here).
//!
//! Users: the validator and the two-pass reader ([`super::json`]: `validate`, `Val`
//! iteration, `write_compact`), the single-pass reader ([`super::cursor`]), the writer
//! ([`super::json::write_string`]) and payload shrinking (`graphmind/shrink/read.rs`,
//! `write.rs`, which adds its own `0xED` lane to [`string_stops`]).

// `inline(always)` on the scanner primitives is measured, not hopeful: without it the
// per-byte helpers stay calls inside the hot loops of the single-pass reader.
#![allow(clippy::inline_always)]

use wide::u8x16;

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

/// Bytes the block loops of [`plain_end`] and [`plain_ascii_end`] test at once.
const BLOCK: usize = 16;

/// The 16 bytes at `i`, as one SIMD vector (`wide`: SSE2 on x86-64, NEON on aarch64, a
/// portable fallback elsewhere); `None` when fewer than 16 remain.
#[inline(always)]
fn block(b: &[u8], i: usize) -> Option<u8x16> {
    let bytes: [u8; BLOCK] = b.get(i..i + BLOCK)?.try_into().ok()?;
    Some(u8x16::new(bytes))
}

/// One bit per byte of `v` (bit `k` for byte `k`) that is `"`, `\` or a control character
/// below U+0020: the SIMD form of [`string_stops`], exact in every lane.
#[inline(always)]
fn block_stops(v: u8x16) -> u32 {
    let quote = v.simd_eq(u8x16::splat(b'"'));
    let backslash = v.simd_eq(u8x16::splat(b'\\'));
    // `min(v, 0x1f) == v` exactly when `v <= 0x1f` (SSE2 has no unsigned compare).
    let control = v.min(u8x16::splat(0x1f)).simd_eq(v);
    (quote | backslash | control).to_bitmask()
}

/// The offset of the first `"`, `\` or control character at or after `i`, or of the first
/// byte of the tail shorter than eight bytes when none is found before it (callers finish the
/// tail byte by byte). Sixteen bytes a step (one SIMD compare of each kind), then one
/// eight-byte word.
#[inline(always)]
pub(crate) fn plain_end(b: &[u8], i: usize) -> usize {
    plain_stop::<false>(b, i)
}

/// [`string_stops`], plus every byte at or above `0x80` (where the UTF-8 checking scan of
/// [`string_body_utf8`] notes a string's first non-ASCII byte). Only the lowest mark is
/// exact, as for [`string_stops`].
#[inline(always)]
pub(crate) fn string_stops_utf8(w: u64) -> u64 {
    string_stops(w) | (w & HIGHS)
}

/// [`plain_end`] that also stops at bytes at or above `0x80`.
#[inline(always)]
fn plain_ascii_end(b: &[u8], i: usize) -> usize {
    plain_stop::<true>(b, i)
}

/// The loops of [`plain_end`]; with `HIGH`, bytes at or above `0x80` are stops too.
#[inline(always)]
fn plain_stop<const HIGH: bool>(b: &[u8], mut i: usize) -> usize {
    while let Some(v) = block(b, i) {
        // The high bit of every lane is what `to_bitmask` collects: non-ASCII bytes for free.
        let stops = block_stops(v) | if HIGH { v.to_bitmask() } else { 0 };
        if stops != 0 {
            return i + stops.trailing_zeros() as usize;
        }
        i += BLOCK;
    }
    if let Some(chunk) = b.get(i..i + 8) {
        let w = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        let stops = if HIGH { string_stops_utf8(w) } else { string_stops(w) };
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
    /// Bytes that are not UTF-8 ([`string_body_utf8`] only); the offset of the character
    /// that is not well-formed.
    Utf8(usize),
}

/// Scans a string body from just after its opening quote: returns the offset of the closing
/// quote and whether a backslash escape was seen. Validates escapes (`\uXXXX` needs four hex
/// digits) and refuses raw control characters; UTF-8 validity is the caller's (`&str`).
///
/// # Errors
/// The first [`StringError`] met.
#[inline(always)]
pub(crate) fn string_body(src: &[u8], pos: usize) -> Result<(usize, bool), StringError> {
    string_body_impl::<false>(src, pos).map(|(close, escaped, _)| (close, escaped))
}

/// [`string_body`] on bytes not yet known to be UTF-8: also checks that the string's bytes
/// are UTF-8. The block loop stops at the string's first non-ASCII byte too; from there the
/// string is scanned as by [`string_body`] and its tail is checked at the closing quote, in
/// one SIMD call (`simdutf8`). Together with a reader that accepts nothing but ASCII tokens
/// outside strings, a frame read to its end this way needs no separate UTF-8 pass: outside a
/// string any byte at or above `0x80` is a syntax error anyway.
///
/// # Errors
/// The first [`StringError`] met, [`StringError::Utf8`] included.
#[inline(always)]
pub(crate) fn string_body_utf8(src: &[u8], pos: usize) -> Result<(usize, bool), StringError> {
    let (close, escaped, high) = string_body_impl::<true>(src, pos)?;
    if high != usize::MAX {
        utf8(src, high, close).map_err(StringError::Utf8)?;
    }
    Ok((close, escaped))
}

/// [`string_body`] that also returns the offset of the string's first non-ASCII byte
/// (`usize::MAX` when it has none), for a reader that checks UTF-8 over a longer range
/// itself (a whole opaque value in one call: `Cursor::skip_value`).
///
/// # Errors
/// As [`string_body`].
#[inline(always)]
pub(crate) fn string_body_high(src: &[u8], pos: usize) -> Result<(usize, bool, usize), StringError> {
    string_body_impl::<true>(src, pos)
}

/// Below this many bytes, [`utf8`] uses std's check rather than the SIMD one.
const SHORT_UTF8: usize = 32;

/// Checks `src[from..to]` is UTF-8 (one SIMD call); `Err` with the offset of the first byte
/// that is not (std's check, on the rare failure only).
#[inline]
pub(crate) fn utf8(src: &[u8], from: usize, to: usize) -> Result<(), usize> {
    let bytes = src.get(from..to).unwrap_or_default();
    // A short tail (a word or two of text) is cheaper for std's scalar check than for the
    // SIMD call's setup.
    if if bytes.len() < SHORT_UTF8 { std::str::from_utf8(bytes).is_ok() } else { simdutf8::basic::from_utf8(bytes).is_ok() } {
        return Ok(());
    }
    Err(from + std::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), |_| 0))
}

/// The scan of [`string_body`]; with `HIGH`, the block loop also stops at the first non-ASCII
/// byte, whose offset is returned (`usize::MAX`: none).
#[inline(always)]
fn string_body_impl<const HIGH: bool>(src: &[u8], mut pos: usize) -> Result<(usize, bool, usize), StringError> {
    let mut escaped = false;
    let mut high = usize::MAX;
    loop {
        // Sixteen bytes at a time while they are plain (SIMD). An earlier eight-byte SWAR
        // unrolled to sixteen, and memchr's search for long runs, were both slower on real
        // text, where escapes such as `\n` and `\"` come every few dozen bytes; one SIMD
        // block is not (docs/performance.md, "Issue 18, lever 3").
        pos = if HIGH && high == usize::MAX { plain_ascii_end(src, pos) } else { plain_end(src, pos) };
        // Byte at a time near a stop or the end.
        let Some(&b) = src.get(pos) else { return Err(StringError::Unterminated) };
        match b {
            b'"' => return Ok((pos, escaped, high)),
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
            0x80.. if HIGH && high == usize::MAX => {
                high = pos;
                pos += 1;
            }
            _ => pos += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{plain_ascii_end, plain_end, string_body, string_body_high, string_body_utf8, string_stops, string_stops_utf8, StringError};

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

    /// The SIMD block loop and the word after it: for every length from one block to two
    /// blocks and a word and every start offset up to a block, a stop byte of every value at
    /// every offset, alone or after a second stop, ends the scan exactly at the first stop, or
    /// at the start of the tail shorter than a word; with and without non-ASCII bytes as stops.
    #[test]
    fn block_loops_stop_exactly_at_the_first_stop_byte() {
        let is_stop = |b: u8| b == b'"' || b == b'\\' || b < 0x20;
        for len in 16..=42 {
            for start in [0, 1, 7, 8, 15] {
                let blocks = (len - start.min(len)) / 16;
                let mut tail = start + 16 * blocks;
                if len - tail.min(len) >= 8 {
                    tail += 8;
                }
                for at in start..len {
                    for b in 0..=255u8 {
                        let mut bytes = vec![b'a'; len];
                        bytes[at] = b;
                        let want = |stop: bool| if stop && at < tail { at } else { tail.max(start) };
                        assert_eq!(plain_end(&bytes, start), want(is_stop(b)), "byte {b:#04x} at {at}, len {len}, from {start}");
                        assert_eq!(plain_ascii_end(&bytes, start), want(is_stop(b) || b >= 0x80), "byte {b:#04x} at {at}, len {len}, from {start}");
                        // A second stop after the first changes nothing.
                        if at + 1 < len {
                            bytes[at + 1] = b'"';
                            assert_eq!(
                                plain_end(&bytes, start),
                                if is_stop(b) && at < tail {
                                    at
                                } else if at + 1 < tail {
                                    at + 1
                                } else {
                                    tail
                                },
                                "two stops at {at}, len {len}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn string_body_validates_escapes_and_control_characters() {
        let scan = |s: &str| string_body(s.as_bytes(), 1);
        let plain = r#""plain text, long enough to take the block loop""#;
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

    #[test]
    fn string_stops_utf8_marks_high_bytes_too() {
        for lane in 0..8 {
            for b in 0..=255u8 {
                let mut bytes = [b'a'; 8];
                bytes[lane] = b;
                let stops = string_stops_utf8(u64::from_le_bytes(bytes));
                let is_stop = b == b'"' || b == b'\\' || !(0x20..0x80).contains(&b);
                assert_eq!(stops != 0, is_stop, "byte {b:#04x} at {lane}");
                if is_stop {
                    assert_eq!(stops.trailing_zeros() / 8, lane as u32, "byte {b:#04x} at {lane}");
                }
            }
        }
    }

    /// `string_body_utf8` accepts a string exactly when `string_body` does and its content is
    /// UTF-8 by std's check, and names std's offset; on every lead byte with a spread of
    /// second, third and fourth bytes (the range edges, ASCII, the quote and the backslash),
    /// after every lane offset of the block and word loops.
    #[test]
    fn string_body_utf8_agrees_with_std() {
        const EDGES: [u8; 17] = [0x00, 0x22, 0x41, 0x5c, 0x7f, 0x80, 0x81, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xe0, 0xf4, 0xff];
        let mut buf = Vec::new();
        for pad in [0usize, 3, 7, 9, 12, 15, 17] {
            for b0 in 0x80..=0xffu8 {
                for b1 in EDGES {
                    for b2 in EDGES {
                        for b3 in [0x22u8, 0x41, 0x80, 0xbf, 0xc0] {
                            buf.clear();
                            buf.push(b'"');
                            buf.extend(std::iter::repeat_n(b'a', pad));
                            buf.extend([b0, b1, b2, b3]);
                            buf.extend(b"tail\"");
                            let plain = string_body(&buf, 1);
                            let want = match plain {
                                Ok((close, escaped)) => match std::str::from_utf8(&buf[1..close]) {
                                    Ok(_) => Ok((close, escaped)),
                                    Err(e) => Err(StringError::Utf8(1 + e.valid_up_to())),
                                },
                                Err(e) => Err(e),
                            };
                            let got = string_body_utf8(&buf, 1);
                            // A bad character before a JSON error is reported first; either
                            // way the string is refused.
                            match (got, want) {
                                (Err(StringError::Utf8(_)), Err(_)) | (Err(_), Err(StringError::Utf8(_))) => assert!(got.is_err()),
                                _ => assert_eq!(got, want, "{buf:x?}"),
                            }
                            if let Ok((close, _)) = plain {
                                assert_eq!(string_body_high(&buf, 1).map(|(c, _, h)| (c, h)), Ok((close, 1 + pad)), "{buf:x?}");
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(string_body_high(br#""ascii only""#, 1), Ok((11, false, usize::MAX)));
    }
}
