//! The one JSON string scanner: every reader, validator and writer that looks for the end of
//! a string or for the bytes that need attention inside one (`"`, `\`, control characters)
//! goes through [`string_body`] or [`plain_end`], which skip plain bytes with SIMD through
//! the `wide` crate (no `unsafe` here): [`plain_end`] sixteen bytes a step, [`string_body`]
//! its first sixteen bytes, then 64-byte windows whose stops are all taken from one mask.
//!
//! Users: the validator and the two-pass reader ([`crate::reference`]: `validate`, `Val`
//! iteration), the single-pass reader ([`crate::cursor`]), the writers
//! ([`crate::write_string`], [`crate::write_compact`]), the string decoder
//! ([`crate::unescape()`]) and the contract's payload shrinking (its `shrink/write.rs`,
//! which adds its own `0xED` lane to [`string_stops`]); the bindings' converters of validated
//! text through [`plain_run_end`] and [`validated_string_end`] (also exported by
//! [`crate::cursor`]).
//!
//! What the 64-byte windows share with their x86-64 class makers (the error, the window, the
//! escape rule, the branch-free loop) is in `scan_window.rs`; the makers are `scan_avx2.rs`
//! and `scan_avx512.rs`, and the window loop here dispatches to them.

// `inline(always)` on the scanner primitives is measured, not hopeful: without it the
// per-byte helpers stay calls inside the hot loops of the single-pass reader.
#![allow(clippy::inline_always)]

use wide::u8x16;

use crate::scan_window::{escape_end, StringError, Taken, WINDOW};

/// `0x01` in every byte lane.
pub const ONES: u64 = 0x0101_0101_0101_0101;
/// `0x80` in every byte lane.
pub const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Marks (high bit of each byte lane) the bytes of `w` that end the plain part of a string:
/// `"`, `\` and control characters below U+0020. Only the lowest mark is exact (borrows can
/// set spurious marks above it), which is all a scan needs.
#[inline(always)]
pub fn string_stops(w: u64) -> u64 {
    let quote = w ^ (ONES * u64::from(b'"'));
    let backslash = w ^ (ONES * u64::from(b'\\'));
    let zero_q = quote.wrapping_sub(ONES) & !quote;
    let zero_b = backslash.wrapping_sub(ONES) & !backslash;
    let control = w.wrapping_sub(ONES * 0x20) & !w;
    (zero_q | zero_b | control) & HIGHS
}

/// Bytes one SIMD block holds: the step of [`plain_end`] and [`plain_ascii_end`], the first
/// step of [`string_body_impl`], a quarter of its window.
const BLOCK: usize = 16;
const _: () = assert!(WINDOW == 4 * BLOCK, "a window is four blocks");

/// `v` with a zero in exactly the lanes holding `"`, `\` or a control character below
/// U+0020 (other lanes are nonzero).
#[inline(always)]
fn block_zeros(v: u8x16) -> u8x16 {
    // `v ^ 0x02` maps the control characters onto 0x00..=0x1f and `"` (0x22) onto 0x20, and
    // nothing else at or below 0x20, so one saturating subtract zeroes exactly those lanes;
    // a backslash is the lane where `v ^ b'\\'` is zero. In the compiled SSE2 loop, with
    // the move-mask and not counting the load, eight instructions a block (three compares, a
    // `min` and two `or`s took nine).
    let quote_or_control = (v ^ u8x16::splat(0x02)).saturating_sub(u8x16::splat(0x20));
    quote_or_control.min(v ^ u8x16::splat(b'\\'))
}

/// One bit per byte of `v` (bit `k` for byte `k`) that is `"`, `\` or a control character
/// below U+0020: the SIMD form of [`string_stops`], exact in every lane.
#[inline(always)]
fn block_stops(v: u8x16) -> u32 {
    block_zeros(v).simd_eq(u8x16::ZERO).to_bitmask()
}

/// The offset of the first `"`, `\` or control character at or after `i`, or of the first
/// byte of the tail shorter than eight bytes when none is found before it (callers finish the
/// tail byte by byte). Sixteen bytes a step (one SIMD block, [`block_stops`]), then one
/// eight-byte word.
#[inline(always)]
pub fn plain_end(b: &[u8], i: usize) -> usize {
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
    // Whole blocks through `chunks_exact`, whose loop test is one compare: a checked slice
    // range per block cost seven instructions of the nineteen a block took
    // (docs/performance.md, "2. Strings by SIMD blocks and windows").
    for chunk in b.get(i..).unwrap_or_default().chunks_exact(BLOCK) {
        let v = u8x16::new(chunk.try_into().unwrap_or_default());
        // The high bit of every lane is what `to_bitmask` collects: non-ASCII bytes for free.
        let stops = block_stops(v) | if HIGH { v.to_bitmask() } else { 0 };
        if stops != 0 {
            return i + stops.trailing_zeros() as usize;
        }
        i += BLOCK;
    }
    // `get(i..)` first: `i + 8` could overflow where `i` lies past the end.
    if let Some(chunk) = b.get(i..).and_then(|rest| rest.get(..8)) {
        let w = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        let stops = if HIGH { string_stops_utf8(w) } else { string_stops(w) };
        if stops != 0 {
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
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

/// [`string_body`] for callers outside the engine (the contract's payload shrinking): the
/// offset of the closing quote of the string whose body starts at `pos`, and whether it holds
/// an escape; `None` when the string is not valid JSON (an error's detail is the caller's to
/// find with [`crate::validate`]).
#[inline]
pub fn string_close(src: &[u8], pos: usize) -> Option<(usize, bool)> {
    string_body(src, pos).ok()
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

/// The offset of the first byte at or after `pos` that ends the plain part of a string (`"`,
/// `\`, a control character), or `src.len()`: the block-at-a-time scan of
/// [`Cursor::string`](crate::cursor::Cursor::string),
/// for converters that decode validated strings themselves.
#[inline]
pub fn plain_run_end(src: &[u8], pos: usize) -> usize {
    let mut pos = plain_end(src, pos);
    while let Some(&b) = src.get(pos) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            return pos;
        }
        pos += 1;
    }
    src.len()
}

/// In validated JSON text, the string starting at `start` (its opening quote): the offset
/// after its closing quote and whether it holds an escape. One block-at-a-time scan; for
/// converters that walk validated text (the bindings' JSON → host value conversion).
#[inline]
pub fn validated_string_end(src: &[u8], start: usize) -> (usize, bool) {
    // Validated text cannot fail; if it somehow did, the string runs to the end.
    string_body(src, start + 1).map_or((src.len(), true), |(close, escaped)| (close + 1, escaped))
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

/// The blocks of a window, as SIMD vectors.
#[inline(always)]
fn window_blocks(w: &[u8; WINDOW]) -> [u8x16; 4] {
    let block = |k: usize| u8x16::new(w[k * BLOCK..(k + 1) * BLOCK].try_into().unwrap_or_default());
    [block(0), block(1), block(2), block(3)]
}

/// One bit per lane of `blocks` (block `k`'s lanes at bits `16k..16k+16`) from `mask`.
#[inline(always)]
fn window_mask(blocks: &[u8x16; 4], mask: impl Fn(u8x16) -> u32) -> u64 {
    blocks.iter().enumerate().fold(0, |m, (k, &v)| m | u64::from(mask(v)) << (k * BLOCK))
}

/// The scan of [`string_body`]; with `HIGH`, it also stops at the first non-ASCII byte, whose
/// offset is returned (`usize::MAX`: none).
///
/// The first sixteen bytes as one SIMD block (most strings end in it), then 64-byte windows
/// while that many remain ([`windows`]), then the last bytes, fewer than a window
/// ([`string_tail`]).
// Out of line in unoptimised builds: there every temporary of every inlined copy gets its own
// stack slot, and the readers' frames grew past what `limits.rs` allows on a 64 KiB stack.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline(never))]
fn string_body_impl<const HIGH: bool>(src: &[u8], mut pos: usize) -> Result<(usize, bool, usize), StringError> {
    let mut escaped = false;
    let mut high = usize::MAX;
    if let Some(chunk) = src.get(pos..).and_then(<[u8]>::first_chunk::<BLOCK>) {
        let v = u8x16::new(*chunk);
        let special = u64::from(block_stops(v));
        // The high bit of every lane is what `to_bitmask` collects: non-ASCII bytes.
        let stops = special | if HIGH { u64::from(v.to_bitmask()) } else { 0 };
        pos = match take_stops::<BLOCK>(src, pos, special, stops, &mut escaped, &mut high)? {
            Taken::Closed(close) => return Ok((close, escaped, high)),
            Taken::Resume(resume) => resume,
        };
    }
    if src.len().saturating_sub(pos) >= WINDOW {
        pos = match windows::<HIGH>(src, pos, &mut escaped, &mut high)? {
            Taken::Closed(close) => return Ok((close, escaped, high)),
            Taken::Resume(resume) => resume,
        };
    }
    string_tail::<HIGH>(src, pos, escaped, high)
}

/// The 64-byte windows of a string from `pos`: with AVX-512 BW or else AVX2 where the
/// processor has it (one register or two 32-byte blocks a window, every byte classed and
/// escapes resolved without a branch: [`resolved_loop`](crate::scan_window::resolved_loop), `scan_avx512.rs`, `scan_avx2.rs`,
/// x86-64 only), else through `wide` (four SSE2 blocks, escapes taken one stop at a time:
/// [`window_loop`]).
///
/// # Errors
/// As [`take_stops`].
#[inline(always)]
fn windows<const HIGH: bool>(src: &[u8], pos: usize, escaped: &mut bool, high: &mut usize) -> Result<Taken, StringError> {
    #[cfg(target_arch = "x86_64")]
    if let Some(taken) = crate::scan_avx512::windows::<HIGH>(src, pos, escaped, high) {
        return taken;
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(taken) = crate::scan_avx2::windows::<HIGH>(src, pos, escaped, high) {
        return taken;
    }
    window_loop::<HIGH>(src, pos, escaped, high)
}

/// A window's stops as four SSE2 blocks through `wide` (every x86-64 processor, and other
/// targets through `wide`'s portable code), their stop lanes tested with one `min` chain first
/// so a plain window costs one test. `None` when the window holds no `"`, `\` or control
/// character and, with `want_high`, no byte at or above `0x80` (a plain window); else
/// `(special, highs)`, bit `k` for byte `k`: `special` marks the `"`, `\` and control bytes,
/// `highs` the non-ASCII bytes (`0` when not `want_high`).
#[inline(always)]
fn sse2_masks(window: &[u8; WINDOW], want_high: bool) -> Option<(u64, u64)> {
    let blocks = window_blocks(window);
    let zeros = blocks.map(block_zeros);
    let [a, b, c, d] = zeros;
    let any_special = a.min(b).min(c.min(d)).simd_eq(u8x16::ZERO).to_bitmask() != 0;
    let [a, b, c, d] = blocks;
    let any_high = want_high && (a | b | c | d).to_bitmask() != 0;
    if !any_special && !any_high {
        return None;
    }
    let special = if any_special { window_mask(&zeros, |z| z.simd_eq(u8x16::ZERO).to_bitmask()) } else { 0 };
    let highs = if any_high { window_mask(&blocks, u8x16::to_bitmask) } else { 0 };
    Some((special, highs))
}

/// The portable window loop of [`windows`]: 64 bytes a step while that many remain, the masks
/// from [`sse2_masks`]. Every stop in a window is taken from its mask ([`take_stops`]): after
/// an escape such as `\n` the scan goes on in the same mask instead of loading a new block at
/// the byte after it. Escapes come every few dozen bytes in real text, and that reload (an
/// unaligned block overlapping the last, and the loop's setup) cost more than the block itself
/// (docs/performance.md, "2. Strings by SIMD blocks and windows"). Returns the close, or where the bytes fewer
/// than a window start.
///
/// # Errors
/// As [`take_stops`].
#[inline(always)]
pub(crate) fn window_loop<const HIGH: bool>(src: &[u8], pos: usize, escaped: &mut bool, high: &mut usize) -> Result<Taken, StringError> {
    // The unread bytes; each window is split off their front.
    let mut rest = src.get(pos..).unwrap_or_default();
    while let Some((window, next)) = rest.split_first_chunk::<WINDOW>() {
        let Some((special, highs)) = sse2_masks(window, HIGH && *high == usize::MAX) else {
            rest = next;
            continue;
        };
        // `stops`: the special bytes and, while the first non-ASCII byte is still to be
        // found, the non-ASCII bytes.
        let stops = special | highs;
        let base = src.len() - rest.len();
        rest = next;
        match take_stops::<WINDOW>(src, base, special, stops, escaped, high)? {
            Taken::Closed(close) => return Ok(Taken::Closed(close)),
            // An escape reaching into the next window: go on from its end.
            Taken::Resume(resume) if resume != base + WINDOW => rest = src.get(resume..).unwrap_or_default(),
            Taken::Resume(_) => {}
        }
    }
    Ok(Taken::Resume(src.len() - rest.len()))
}

/// Takes the stops of the `WIDTH` bytes at `base`, lowest first: `stops` marks them (bit `k`
/// for byte `base + k`), `special` the `"`, `\` and control bytes among them (`stops` also
/// marks non-ASCII bytes while the first is still to be found: it is recorded in `high`).
///
/// # Errors
/// A control character, or an escape that is not one ([`escape_end`]).
#[inline(always)]
fn take_stops<const WIDTH: usize>(src: &[u8], base: usize, special: u64, mut stops: u64, escaped: &mut bool, high: &mut usize) -> Result<Taken, StringError> {
    while stops != 0 {
        let at = base + stops.trailing_zeros() as usize;
        let b = src.get(at).copied().unwrap_or_default();
        let after = match b {
            b'"' => return Ok(Taken::Closed(at)),
            b'\\' => {
                *escaped = true;
                escape_end(src, at)?
            }
            0..=0x1f => return Err(StringError::Control(at, b)),
            // Only the first non-ASCII byte stops: the rest of the window's non-ASCII bytes
            // leave the mask with it.
            _ => {
                *high = at;
                stops = special;
                at + 1
            }
        };
        if after >= base + WIDTH {
            return Ok(Taken::Resume(after));
        }
        stops &= u64::MAX << (after - base);
    }
    Ok(Taken::Resume(base + WIDTH))
}

/// The end of [`string_body_impl`]'s scan, where fewer than a window's 64 bytes remain:
/// [`plain_stop`] (sixteen-byte blocks, then one eight-byte word) up to each stop, which is
/// taken byte by byte, and [`plain_stop`] again after it.
#[inline(always)]
fn string_tail<const HIGH: bool>(src: &[u8], mut pos: usize, mut escaped: bool, mut high: usize) -> Result<(usize, bool, usize), StringError> {
    loop {
        pos = if HIGH && high == usize::MAX { plain_ascii_end(src, pos) } else { plain_end(src, pos) };
        let Some(&b) = src.get(pos) else { return Err(StringError::Unterminated) };
        match b {
            b'"' => return Ok((pos, escaped, high)),
            b'\\' => {
                escaped = true;
                pos = escape_end(src, pos)?;
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
pub(crate) mod tests {
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

    /// A window's [`crate::scan_window::Classes`] byte by byte: what every class maker must give.
    pub(crate) fn classes_by_byte(window: &[u8; super::WINDOW], want_high: bool) -> crate::scan_window::Classes {
        let mask = |class: &dyn Fn(u8) -> bool| window.iter().enumerate().fold(0u64, |m, (k, &c)| m | u64::from(class(c)) << k);
        crate::scan_window::Classes {
            quote_or_control: mask(&|c| c == b'"' || c < 0x20),
            backslash: mask(&|c| c == b'\\'),
            not_short_escape: mask(&|c| !b"\"\\/bfnrt".contains(&c)),
            high: if want_high { mask(&|c| c >= 0x80) } else { 0 },
        }
    }

    /// The scan byte by byte, as the grammar reads: what [`super::string_body_impl`] must
    /// return on every input, whichever block and mask each stop falls in.
    fn string_body_by_byte(src: &[u8], mut pos: usize) -> Result<(usize, bool, usize), StringError> {
        let (mut escaped, mut high) = (false, usize::MAX);
        loop {
            match *src.get(pos).ok_or(StringError::Unterminated)? {
                b'"' => return Ok((pos, escaped, high)),
                b'\\' => {
                    escaped = true;
                    pos = match src.get(pos + 1) {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => pos + 2,
                        Some(b'u') => {
                            for k in pos + 2..pos + 6 {
                                match src.get(k) {
                                    Some(h) if h.is_ascii_hexdigit() => {}
                                    Some(_) => return Err(StringError::BadUnicodeEscape(k)),
                                    None => return Err(StringError::Unterminated),
                                }
                            }
                            pos + 6
                        }
                        Some(_) => return Err(StringError::BadEscape(pos + 1)),
                        None => return Err(StringError::Unterminated),
                    };
                }
                b @ 0..=0x1f => return Err(StringError::Control(pos, b)),
                b => {
                    if b >= 0x80 && high == usize::MAX {
                        high = pos;
                    }
                    pos += 1;
                }
            }
        }
    }

    /// The bytes that matter to the string scan (quotes, backslashes, every escape letter, hex
    /// digits, control and non-ASCII bytes), plain `a` weighted in.
    const ALPHABET: &[u8] = b"aaaaaaaaaaaaaa\"\\\\\\nnuu0fF9g/btr\x01\x1f\xc3\xa9\xe2\x80\x7f ";

    /// A deterministic generator for the random tests (an LCG from `seed`): `next(n)` is in
    /// `0..n`. The writer's tests (`json.rs`) use it too.
    pub(crate) fn rng(seed: u64) -> impl FnMut(usize) -> usize {
        let mut state = seed;
        move |n| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize % n
        }
    }

    /// `buf` refilled with `len` bytes of [`ALPHABET`]; with `plain_one_in: Some(k)`, mostly
    /// plain text (each byte `a` but for one in `k` or so, from the alphabet), so that whole
    /// windows pass with no stop.
    fn random_string(buf: &mut Vec<u8>, next: &mut impl FnMut(usize) -> usize, len: usize, plain_one_in: Option<usize>) {
        buf.clear();
        buf.extend((0..len).map(|_| match plain_one_in {
            Some(k) if next(k) != 0 => b'a',
            _ => ALPHABET[next(ALPHABET.len())],
        }));
    }

    /// Random strings built from the bytes that matter (quotes, backslashes, escape letters,
    /// hex digits, control and non-ASCII bytes), 0 to 199 bytes long and some with long plain
    /// runs, scanned from every start offset up to 20: stops in one block or one 64-byte
    /// window, escapes straddling two, `\u` escapes cut by a window's end or the text's end, a
    /// non-ASCII byte before and after an escape in the same window. Both scans agree on the
    /// close, the escape flag, the first non-ASCII byte and the error.
    #[test]
    fn string_body_agrees_with_the_byte_by_byte_scan() {
        let mut next = rng(0x9e37_79b9_7f4a_7c15);
        let mut buf = Vec::new();
        for round in 0..40_000 {
            let len = next(if round % 2 == 0 { 61 } else { 200 });
            // One string in four is mostly plain text.
            random_string(&mut buf, &mut next, len, (round % 4 == 1).then_some(40));
            for start in 0..=len.min(20) {
                let want = string_body_by_byte(&buf, start);
                assert_eq!(super::string_body_impl::<true>(&buf, start), want, "HIGH, from {start}: {buf:x?}");
                let plain = want.map(|(close, escaped, _)| (close, escaped));
                assert_eq!(string_body(&buf, start), plain, "from {start}: {buf:x?}");
            }
        }
    }

    /// The window loops, portable ([`super::window_loop`], stop by stop), AVX2 and AVX-512
    /// (escapes resolved by [`crate::scan_window::escaped_lanes`], where the processor has them: the
    /// dispatch of every other test takes the best one, so without this test the others would
    /// go untested on such machines), each finished by the scan's tail from where it leaves
    /// off, give what the byte-by-byte scan gives on every string of the random test's
    /// alphabet, 64 to 299 bytes from every start up to 20, half of them mostly plain text:
    /// the same close, escape flag and first non-ASCII byte, or the same error
    /// ([`check_every_loop`]). The loops may leave off at different offsets (the resolving ones
    /// carry an escape across windows where the portable one resumes after it).
    #[test]
    fn every_window_loop_agrees_with_the_byte_by_byte_scan() {
        let mut next = rng(0x2545_f491_4f6c_dd1d);
        let mut buf = Vec::new();
        let (mut ran, mut cases) = (0, 0);
        for round in 0..20_000 {
            let len = 64 + next(236);
            random_string(&mut buf, &mut next, len, (round % 2 == 1).then_some(50));
            for start in 0..=20 {
                ran += check_every_loop(&buf, start);
                cases += 1;
            }
        }
        // Every loop the processor has ran on every case, with and without `HIGH`.
        let present = simd_loops::<true>().iter().filter(|(_, run)| run(b"", 0, &mut false, &mut 0).is_some()).count();
        assert_eq!(ran, cases * present * 2);
    }

    /// Every byte value in every lane of a window, on backgrounds of plain ASCII, non-ASCII,
    /// stop and neighbouring bytes, with and without `want_high`: the portable loop's masks
    /// ([`super::sse2_masks`]) equal the classification byte by byte. Every operation is per
    /// lane, so this covers every window (the class makers of the SIMD loops have theirs in
    /// `scan_avx2.rs` and `scan_avx512.rs`).
    #[test]
    fn sse2_masks_equal_the_classification_on_every_byte_in_every_lane() {
        for background in [b'a', 0xc3, b'"', b'#', b'\\', 0x7f, 0x1f, 0x20, 0xff] {
            for lane in 0..super::WINDOW {
                for b in 0..=255u8 {
                    let mut window = [background; super::WINDOW];
                    window[lane] = b;
                    for want_high in [false, true] {
                        let c = classes_by_byte(&window, want_high);
                        let special = c.quote_or_control | c.backslash;
                        let want = (special | c.high != 0).then_some((special, c.high));
                        assert_eq!(super::sse2_masks(&window, want_high), want, "byte {b:#04x} at {lane} on {background:#04x}, want_high {want_high}");
                    }
                }
            }
        }
    }

    /// The cases a random string rarely holds, spelled out for every window loop, with and
    /// without the search for the first non-ASCII byte: a run of one to four backslashes
    /// ending at lane 61, 62, 63 or 64 (the next window's first byte) of the first or second
    /// window, then a quote, a short escape letter, `\u` with its digits whole, cut by a quote
    /// or cut by the end of the input, a byte that starts no escape, a control byte, a
    /// non-ASCII character, or the end of the input; then the end, a close, or more text and a
    /// close; after a non-ASCII character or not. Each loop, finished by the scan's tail, gives
    /// what the byte-by-byte scan gives.
    #[test]
    fn every_window_loop_agrees_on_escapes_at_window_ends() {
        let letters: [&[u8]; 11] = [b"\"", b"\\", b"/", b"n", b"u0aF9", b"u0a\"9", b"u0", b"x", b"\x01", b"\xc3\xa9", b""];
        let long_tail: Vec<u8> = [&[b'a'; 100][..], b"\""].concat();
        let tails: [&[u8]; 3] = [b"", b"\"aaaa", &long_tail];
        let mut buf = Vec::new();
        for lead in [&b""[..], "\u{e9}".as_bytes()] {
            for window in 1..=2 {
                for end_lane in 61..=64 {
                    for run in 1..=4 {
                        for letter in letters {
                            for tail in tails {
                                buf.clear();
                                buf.extend_from_slice(lead);
                                buf.resize((window - 1) * super::WINDOW + end_lane - run, b'a');
                                buf.resize(buf.len() + run, b'\\');
                                buf.extend_from_slice(letter);
                                buf.extend_from_slice(tail);
                                check_every_loop(&buf, 0);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Every window loop on `buf` from `start`, with and without `HIGH`, finished by the scan's
    /// tail, against the byte-by-byte scan; returns how many loop runs there were (the loops the
    /// processor has, twice).
    fn check_every_loop(buf: &[u8], start: usize) -> usize {
        let want = &string_body_by_byte(buf, start);
        let finish = |high_wanted: bool, taken: Result<super::Taken, StringError>, escaped: bool, high: usize| match taken {
            Ok(super::Taken::Closed(close)) => Ok((close, escaped, high)),
            Ok(super::Taken::Resume(resume)) if high_wanted => super::string_tail::<true>(buf, resume, escaped, high),
            Ok(super::Taken::Resume(resume)) => super::string_tail::<false>(buf, resume, escaped, high),
            Err(e) => Err(e),
        };
        let want_plain = want.map(|(close, escaped, _)| (close, escaped, usize::MAX));
        let loops = [(true, simd_loops::<true>()), (false, simd_loops::<false>())];
        let mut ran = 0;
        for (high_wanted, loops) in loops {
            let want = if high_wanted { want } else { &want_plain };
            for (name, run) in loops {
                let (mut escaped, mut high) = (false, usize::MAX);
                if let Some(taken) = run(buf, start, &mut escaped, &mut high) {
                    ran += 1;
                    assert_eq!(&finish(high_wanted, taken, escaped, high), want, "{name}, HIGH {high_wanted}, from {start}: {buf:x?}");
                }
            }
        }
        ran
    }

    /// [`crate::scan_window::escaped_lanes`] against the definition, lane by lane (a backslash that is not
    /// itself escaped escapes the next byte), on every backslash pattern of the low 16 lanes
    /// and on random patterns over all 64, dense and sparse, with and without a carry in.
    #[test]
    fn escaped_lanes_follow_the_definition() {
        let by_lane = |backslash: u64, carry: u64| {
            let (mut escaped, mut next_escaped) = (0u64, carry == 1);
            for k in 0..64 {
                let is_escaped = next_escaped;
                let is_backslash = backslash >> k & 1 == 1;
                if is_escaped && !is_backslash {
                    escaped |= 1 << k;
                }
                next_escaped = is_backslash && !is_escaped;
            }
            (escaped, u64::from(next_escaped))
        };
        let mut next = rng(0x0dd_ba11);
        // A word over all 64 lanes from three draws (each draw gives at most 31 bits).
        let mut word = move || (next(1 << 16) as u64) << 48 | (next(1 << 24) as u64) << 24 | next(1 << 24) as u64;
        let random = (0..200_000).map(|i| {
            // Dense words have long runs; sparse ones (a word ANDed with two more) short.
            if i % 2 == 0 {
                word()
            } else {
                word() & word() & word()
            }
        });
        for backslash in (0..1u64 << 16).chain((0..1u64 << 16).map(|w| w << 48 | 0x5555)).chain(random).chain([u64::MAX, u64::MAX - 1, 1 << 63]) {
            for carry in [0, 1] {
                assert_eq!(crate::scan_window::escaped_lanes(backslash, carry), by_lane(backslash, carry), "backslashes {backslash:#066b}, carry {carry}");
            }
        }
    }

    /// A window loop that may be missing: `None` where the processor or the target lacks it.
    type SimdLoop = fn(&[u8], usize, &mut bool, &mut usize) -> Option<Result<super::Taken, StringError>>;

    /// The portable window loop as a [`SimdLoop`] (always there).
    #[allow(clippy::unnecessary_wraps)] // the shape of a `SimdLoop`
    fn portable_loop<const HIGH: bool>(src: &[u8], pos: usize, escaped: &mut bool, high: &mut usize) -> Option<Result<super::Taken, StringError>> {
        Some(super::window_loop::<HIGH>(src, pos, escaped, high))
    }

    /// Every window loop by name: the portable one, then `scan_avx2::windows` and
    /// `scan_avx512::windows` on x86-64.
    fn simd_loops<const HIGH: bool>() -> Vec<(&'static str, SimdLoop)> {
        #[cfg(target_arch = "x86_64")]
        {
            vec![("portable", portable_loop::<HIGH>), ("AVX2", crate::scan_avx2::windows::<HIGH>), ("AVX-512", crate::scan_avx512::windows::<HIGH>)]
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            vec![("portable", portable_loop::<HIGH> as SimdLoop)]
        }
    }
}
