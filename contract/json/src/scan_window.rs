//! What the string scanner (`scan.rs`) and its x86-64 class makers (`scan_avx2.rs`,
//! `scan_avx512.rs`) share, so that the makers import this file and `scan.rs` imports them
//! without a cycle: the scan's error ([`StringError`]) and step result ([`Taken`]), the
//! 64-byte [`WINDOW`], the escape rule ([`escape_end`]), a window's byte [`Classes`] and the
//! trait of their makers ([`WindowClasses`]), the escape-letter tables ([`ESCAPE_HIGH`],
//! [`ESCAPE_LOW`]), and the branch-free window loop over those classes ([`resolved_loop`],
//! escapes resolved by carry arithmetic in [`escaped_lanes`]). Portable code, no `unsafe`.

// `inline(always)` as in `scan.rs`: measured, the loop and its helpers must land inside the
// callers' hot loops (and inside the SIMD-compiled loops of the class makers).
#![allow(clippy::inline_always)]

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
    /// Bytes that are not UTF-8 ([`string_body_utf8`](crate::scan::string_body_utf8) only); the offset of the character
    /// that is not well-formed.
    Utf8(usize),
}

/// Bytes `string_body_impl` (`scan.rs`) tests at once once a string has
/// proved longer than a block: four SSE2 blocks (`scan.rs` asserts it), two AVX2 blocks or one
/// AVX-512 register, 64-bit masks.
pub(crate) const WINDOW: usize = 64;

/// The classes of a window's bytes that [`resolved_loop`] needs, bit `k` for byte `k`.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the x86-64 class makers
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Classes {
    /// `"` and the control characters below U+0020.
    pub(crate) quote_or_control: u64,
    /// `\`.
    pub(crate) backslash: u64,
    /// Every byte but `"\/bfnrt`: what may not follow a backslash as a two-byte escape (`u`
    /// is among them: its four hex digits are checked on the stop path).
    pub(crate) not_short_escape: u64,
    /// The bytes at or above `0x80` when asked for (`want_high`), else `0`.
    pub(crate) high: u64,
}

/// How a 64-byte window's [`Classes`] are made: with AVX-512 BW (`scan_avx512.rs`) or AVX2
/// (`scan_avx2.rs`), whose byte shuffles class the escape letters in two table lookups; the
/// portable path has no byte shuffle in SSE2 and keeps [`window_loop`](crate::scan::window_loop).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the x86-64 class makers
pub(crate) trait WindowClasses: Copy {
    /// The classes of `window`'s bytes; `high` is `0` unless `want_high`.
    fn classes(&self, window: &[u8; WINDOW], want_high: bool) -> Classes;
}

/// The lanes of a 64-byte window that a backslash escapes and that are not themselves
/// backslashes (the byte after a run of an odd number of backslashes), from the window's
/// `backslash` mask and `carry` (`1` when the window's first byte is escaped by a backslash
/// that ended the previous window, else `0`). Returns those lanes and the carry into the next
/// window. No branch, one subtraction: in a run of backslashes every other one starts an
/// escape, counted from the run's first, so the starts are the run's lanes of its first
/// lane's parity, and the byte after the run is escaped when the run is odd.
///
/// Take the run at lanes `s..e` (`e` the first byte after it) and subtract it from
/// `m = (run << 1) | ODD`. If `s` is odd, `m` holds ones at `s..=e`; subtracting ones at
/// `s..e` leaves one at `e` alone, and no borrow. If `s` is even, `m` holds `0` at `s` and
/// ones at `s+1..=e`, the value `2 * (2^L - 1)` for the run's length `L`; minus `2^L - 1` it
/// is `2^L - 1`: ones at `s..e`, zero at `e`, no borrow. XOR with `ODD` then marks, in both
/// cases, the run's lanes of `s`'s parity (the starts) and `e` when `e`'s parity differs from
/// `s`'s, i.e. when the run is odd; outside runs `ODD ^ ODD` leaves nothing. Runs never touch
/// (a byte that is no backslash lies between), so each is its own sum. A run reaching lane 63
/// has its `e` beyond the word: what would land there, a bit or (for an even `s`) a borrow,
/// leaves the word (hence the wrapping subtraction) and is not needed: a start at lane 63
/// escapes the next window's first byte. An escaped backslash is never a stop (`\\` is an
/// escape), so only the other escaped lanes are returned.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the x86-64 class makers
pub(crate) fn escaped_lanes(backslash: u64, carry: u64) -> (u64, u64) {
    const ODD: u64 = 0xAAAA_AAAA_AAAA_AAAA;
    // A backslash escaped by the carry is the escaped byte, not part of a run.
    let run = backslash & !carry;
    let starts_and_ends = ((run << 1) | ODD).wrapping_sub(run) ^ ODD;
    ((starts_and_ends | carry) & !backslash, (starts_and_ends & run) >> 63)
}

/// The escape letters `"\/bfnrt` as two tables for a byte shuffle (`scan_avx2.rs`,
/// `scan_avx512.rs`): a byte is one of them exactly when the bit its high nibble picks from
/// [`ESCAPE_HIGH`] is set in its low nibble's entry of [`ESCAPE_LOW`]. One bit per high nibble
/// that holds a letter (`0x2_`: `"` `/`; `0x5_`: `\`; `0x6_`: `b` `f` `n`; `0x7_`: `r` `t`),
/// set in the entries of those letters' low nibbles. This table: by high nibble, the bit that
/// nibble's escape letters have in [`ESCAPE_LOW`]. Each 16-entry table is repeated across a
/// window's 64 bytes, as the shuffles want it (they look a lane's index up in that lane's
/// 16-byte quarter): an AVX-512 register loads all of it, an AVX2 one its first 32 bytes.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the x86-64 class makers
pub(crate) static ESCAPE_HIGH: [i8; WINDOW] = every_quarter([0, 0, 1, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0]);

/// By low nibble, the bits of the high nibbles that make an escape letter with it: `0x2`
/// (`"` `b` `r`), `0x4` (`t`), `0x6` (`f`), `0xc` (`\`), `0xe` (`n`), `0xf` (`/`); repeated as
/// [`ESCAPE_HIGH`] is.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the x86-64 class makers
pub(crate) static ESCAPE_LOW: [i8; WINDOW] = every_quarter([0, 0, 1 | 4 | 8, 0, 8, 0, 4, 0, 0, 0, 0, 0, 2, 0, 4, 1]);

/// A 16-entry table in each 16-byte quarter of a window.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the x86-64 class makers
const fn every_quarter(t: [i8; 16]) -> [i8; WINDOW] {
    let mut out = [0; WINDOW];
    let mut k = 0;
    while k < WINDOW {
        out[k] = t[k % 16];
        k += 1;
    }
    out
}

/// The window loop of the AVX2 and AVX-512 paths: 64 bytes a step while that many remain, like
/// [`window_loop`](crate::scan::window_loop), but a window's escapes cost no branch. The escaped lanes come from
/// [`escaped_lanes`] (a backslash at a window's end escapes the next window's first byte by a
/// carry), so a quote is a stop only when not escaped, and an escaped byte is a stop only when
/// it is not one of `"\/bfnrt`: a `\u` (its hex digits checked by [`escape_end`]) or an error.
/// A window whose stops are none of those passes whole. In long text an escape comes every
/// hundred bytes or so, and taking each as a stop of its own cost a mispredicted branch or two
/// apiece (docs/performance.md, "2. Strings by SIMD blocks and windows"). Returns the close, or where the bytes
/// fewer than a window start (past an escape that straddles into them).
///
/// # Errors
/// As `take_stops` (`scan.rs`): a control character, or an escape that is not one.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the x86-64 class makers
pub(crate) fn resolved_loop<const HIGH: bool, C: WindowClasses>(
    classes: C,
    src: &[u8],
    pos: usize,
    escaped: &mut bool,
    high: &mut usize,
) -> Result<Taken, StringError> {
    let mut rest = src.get(pos..).unwrap_or_default();
    let mut carry = 0u64;
    // Every backslash passed: whether the string has an escape, said once at the end.
    let mut seen = 0u64;
    // Whether the string's first non-ASCII byte is still to be found (a local, not `*high`,
    // so that it stays in a register).
    let mut want_high = HIGH && *high == usize::MAX;
    while let Some((window, next)) = rest.split_first_chunk::<WINDOW>() {
        let c = classes.classes(window, want_high);
        let (esc, carry_out) = escaped_lanes(c.backslash, carry);
        let stops = (c.quote_or_control & !esc) | (esc & c.not_short_escape) | c.high;
        if stops == 0 {
            seen |= c.backslash;
            carry = carry_out;
            rest = next;
            continue;
        }
        let lane = stops.trailing_zeros();
        let at = src.len() - rest.len() + lane as usize;
        seen |= c.backslash & !(u64::MAX << lane);
        let resume = if esc >> lane & 1 == 1 {
            // Escaped, not by a short escape: `\u` and its digits, or an error. The backslash
            // is the byte before (in the previous window when the carry escaped lane 0).
            seen |= 1;
            escape_end(src, at - 1)?
        } else {
            match src.get(at).copied().unwrap_or_default() {
                b'"' => {
                    *escaped |= seen != 0;
                    return Ok(Taken::Closed(at));
                }
                b @ 0..=0x1f => return Err(StringError::Control(at, b)),
                // The string's first non-ASCII byte: noted, and the scan goes on after it.
                _ => {
                    *high = at;
                    want_high = false;
                    at + 1
                }
            }
        };
        // Either way the scan goes on from a byte no backslash escapes.
        carry = 0;
        rest = src.get(resume..).unwrap_or_default();
    }
    *escaped |= seen != 0;
    let end = src.len() - rest.len();
    if carry != 0 {
        // The last window ended inside an escape: its letter is the first byte left.
        return Ok(Taken::Resume(escape_end(src, end - 1)?));
    }
    Ok(Taken::Resume(end))
}

/// Where the stops of one block or window leave `string_body_impl` (`scan.rs`).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Taken {
    /// The closing quote, at this offset.
    Closed(usize),
    /// No closing quote: the scan goes on at this offset (the end of the window, or of an
    /// escape reaching past it).
    Resume(usize),
}

/// The end (the offset just past it) of the escape whose backslash is at `at`: `\uXXXX` needs
/// four hex digits, any other escape is one of `"\/bfnrt`.
///
/// # Errors
/// [`StringError::BadEscape`], [`StringError::BadUnicodeEscape`] or
/// [`StringError::Unterminated`] when the text ends inside the escape.
#[inline(always)]
pub(crate) fn escape_end(src: &[u8], at: usize) -> Result<usize, StringError> {
    // One table load instead of a `match` compiled to an indirect jump.
    match ESCAPE_LEN[usize::from(src.get(at + 1).copied().unwrap_or_default())] {
        2 => Ok(at + 2),
        6 => {
            for k in at + 2..at + 6 {
                match src.get(k) {
                    Some(h) if h.is_ascii_hexdigit() => {}
                    Some(_) => return Err(StringError::BadUnicodeEscape(k)),
                    None => return Err(StringError::Unterminated),
                }
            }
            Ok(at + 6)
        }
        _ if at + 1 >= src.len() => Err(StringError::Unterminated),
        _ => Err(StringError::BadEscape(at + 1)),
    }
}

/// The length of the escape a backslash followed by each byte starts: 2 for `"\/bfnrt`, 6 for
/// `u` (four hex digits follow), 0 for a byte that starts no escape.
static ESCAPE_LEN: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut k = 0;
    let simple = b"\"\\/bfnrt";
    while k < simple.len() {
        t[simple[k] as usize] = 2;
        k += 1;
    }
    t[b'u' as usize] = 6;
    t
};
