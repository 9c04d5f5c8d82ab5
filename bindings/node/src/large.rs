//! Large frames: long string values are taken out before the frame is parsed, twice over.
//!
//! On a frame of hundreds of kilobytes (an LLM transcript in `input` or `output`) almost every
//! unit is inside a few long strings. Converting those to UTF-8 for the contract's reader and
//! having `JSON.parse` scan them again to build the envelope costs more than the verdict
//! itself. [`extract`] walks the frame's UTF-16 code units once and replaces each long string
//! *value* nested at least two levels deep (inside `payload` or another member's object or
//! array) by a short placeholder string, keeping the value's code units, escapes resolved.
//! The contract decides the reduced frame; when it is `ok` or `unknown-type`, `JSON.parse`
//! builds the reduced envelope and `index.js` puts each string back at its path (a JS string
//! made from the kept code units: a copy, not a parse).
//!
//! Why the verdict on the reduced frame is the verdict on the frame, when it is `ok` or
//! `unknown-type` (any other verdict is recomputed on the whole frame, so that reasons,
//! issues and byte offsets are exact):
//! - JSON lexes a `"` outside a string as the start of a string token in any context, so both
//!   texts have the same token sequence; only the contents of some string tokens differ, and
//!   a long string is replaced only when its content is valid (escapes, no raw control
//!   character), by a valid one. Syntax, nesting depth and structure are the same.
//! - Only values are replaced, never keys, and never at the envelope's top level (`runId`,
//!   `type`), the only strings with rules on their content besides closed sets. A placeholder
//!   (`"\u0001"` followed by digits) equals no enum value, literal or type name, and neither
//!   does any string of [`MIN_UNITS`] units or more, so both are rejected alike by a closed set.
//! - A frame is reduced only when it is at most a sixth of the size cap in code units, so that
//!   neither text can exceed the cap in UTF-8 bytes; and only when no `\u0001` escape appears
//!   in it, so that every placeholder the envelope holds is one of ours.

/// String values shorter than this stay in the frame.
pub const MIN_UNITS: usize = 64;

/// Containers deeper than this are not followed for paths (their strings stay in the frame).
const MAX_PATH_DEPTH: usize = 64;

const QUOTE: u16 = b'"' as u16;
const BACKSLASH: u16 = b'\\' as u16;

/// Where a taken value's code units are: a range of the frame (no escapes) or of
/// [`Scratch::arena`] (escapes resolved).
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    /// Units of the frame.
    Frame(std::ops::Range<usize>),
    /// Units of the arena.
    Arena(std::ops::Range<usize>),
}

/// The buffers of [`extract`], kept from one large frame to the next.
#[derive(Default)]
pub struct Scratch {
    /// The frame with each taken string value replaced by `"\u0001<k>"`, `k` its index.
    pub reduced: Vec<u16>,
    /// JSON text: `[[key or index, …], …]`, the path of each taken value from the envelope
    /// root. Keys are copied as the frame spells them (JSON string tokens), so `JSON.parse`
    /// gives the very keys it gives for the frame.
    pub paths: Vec<u16>,
    /// The taken values, in frame order.
    pub pieces: Vec<Piece>,
    /// The taken values that had escapes, resolved.
    pub arena: Vec<u16>,
    stack: Vec<Container>,
}

impl Scratch {
    /// The code units of taken value `piece` of `frame`.
    pub fn units<'a>(&'a self, frame: &'a [u16], piece: &Piece) -> &'a [u16] {
        match piece {
            Piece::Frame(r) => &frame[r.clone()],
            Piece::Arena(r) => &self.arena[r.clone()],
        }
    }

    /// Empties the buffers, and lets go of any that grew beyond `keep` units.
    pub fn reset(&mut self, keep: usize) {
        for v in [&mut self.reduced, &mut self.paths, &mut self.arena] {
            v.clear();
            if v.capacity() > keep {
                *v = Vec::new();
            }
        }
        self.pieces.clear();
        self.stack.clear();
    }
}

#[derive(Clone, Copy)]
enum Container {
    /// An object and the token range of its current key (none between `{`/`,` and the key).
    Object(Option<(usize, usize)>),
    /// An array and the index of its current element.
    Array(usize),
}

/// Takes the long string values out of `frame` into `out` (emptied first); `false` when
/// nothing is taken, when a `\u0001` escape appears, or when the walk meets something that is
/// not well-formed JSON (the whole frame is then parsed as it is).
pub fn extract(units: &[u16], max_depth: usize, out: &mut Scratch) -> bool {
    out.reset(usize::MAX);
    out.paths.push(u16::from(b'['));
    walk(units, max_depth, out).is_some() && !out.pieces.is_empty()
}

fn walk(units: &[u16], max_depth: usize, out: &mut Scratch) -> Option<()> {
    let n = units.len();
    let mut copied = 0;
    let mut i = 0;
    while i < n {
        match units[i] {
            0x20 | 0x09 | 0x0A | 0x0D | 0x3A => i += 1, // whitespace, ':'
            0x7B => {
                // '{'
                if out.stack.len() > max_depth {
                    return None;
                }
                out.stack.push(Container::Object(None));
                i += 1;
            }
            0x5B => {
                // '['
                if out.stack.len() > max_depth {
                    return None;
                }
                out.stack.push(Container::Array(0));
                i += 1;
            }
            0x7D | 0x5D => {
                // '}' ']'
                out.stack.pop()?;
                i += 1;
            }
            0x2C => {
                // ','
                match out.stack.last_mut()? {
                    Container::Object(key) => *key = None,
                    Container::Array(index) => *index += 1,
                }
                i += 1;
            }
            QUOTE => {
                let arena_start = out.arena.len();
                let (end, escaped) = scan_string(units, i, &mut out.arena)?;
                if let Some(Container::Object(key @ None)) = out.stack.last_mut() {
                    *key = Some((i, end + 1));
                    out.arena.truncate(arena_start);
                } else if end - i > MIN_UNITS && (2..=MAX_PATH_DEPTH).contains(&out.stack.len()) {
                    let piece = if escaped { Piece::Arena(arena_start..out.arena.len()) } else { Piece::Frame(i + 1..end) };
                    out.reduced.extend_from_slice(&units[copied..i]);
                    push_placeholder(&mut out.reduced, out.pieces.len());
                    copied = end + 1;
                    push_path(&mut out.paths, units, &out.stack, out.pieces.is_empty());
                    out.pieces.push(piece);
                } else {
                    out.arena.truncate(arena_start);
                }
                i = end + 1;
            }
            _ => {
                // A number or literal: up to the next delimiter.
                i += 1;
                while i < n && !matches!(units[i], 0x20 | 0x09 | 0x0A | 0x0D | 0x2C | 0x3A | 0x5B | 0x5D | 0x7B | 0x7D | QUOTE) {
                    i += 1;
                }
            }
        }
    }
    out.reduced.extend_from_slice(&units[copied..]);
    out.paths.push(u16::from(b']'));
    Some(())
}

/// Reads the string token opened at `start`: the index of its closing quote, and whether its
/// content has escapes, in which case the content, escapes resolved, is appended to `arena`
/// (an escape-free content stays where it is). `None` for a raw control character, an escape
/// JSON does not have, a `\u0001` escape (a placeholder could be mistaken for it) or no
/// closing quote.
fn scan_string(units: &[u16], start: usize, arena: &mut Vec<u16>) -> Option<(usize, bool)> {
    let mut escaped = false;
    // Units from `plain` on are not copied yet.
    let mut plain = start + 1;
    let mut i = plain;
    loop {
        i = next_special(units, i);
        match *units.get(i)? {
            QUOTE => {
                if escaped {
                    arena.extend_from_slice(&units[plain..i]);
                }
                return Some((i, escaped));
            }
            BACKSLASH => {
                escaped = true;
                arena.extend_from_slice(&units[plain..i]);
                let (unit, len) = match *units.get(i + 1)? {
                    0x22 => (0x22, 2),
                    0x5C => (0x5C, 2),
                    0x2F => (0x2F, 2),
                    0x62 => (0x08, 2),
                    0x66 => (0x0C, 2),
                    0x6E => (0x0A, 2),
                    0x72 => (0x0D, 2),
                    0x74 => (0x09, 2),
                    0x75 => {
                        let mut v = 0u16;
                        for &h in units.get(i + 2..i + 6)? {
                            v = (v << 4) | u16::try_from(char::from_u32(u32::from(h))?.to_digit(16)?).ok()?;
                        }
                        if v == 1 {
                            return None;
                        }
                        (v, 6)
                    }
                    _ => return None,
                };
                arena.push(unit);
                i += len;
                plain = i;
            }
            _ => return None, // a raw control character: not JSON
        }
    }
}

/// The first index at or after `i` holding `"`, `\\` or a control character (`units.len()`
/// when none).
fn next_special(units: &[u16], i: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    let i = {
        let found = if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2 (checked just above; the answer is cached).
            unsafe { find_special_avx2(units, i) }
        } else {
            find_special_sse2(units, i)
        };
        match found {
            Ok(found) => return found,
            Err(tail) => tail,
        }
    };
    let mut i = i;
    while i < units.len() && !(units[i] == QUOTE || units[i] == BACKSLASH || units[i] < 0x20) {
        i += 1;
    }
    i
}

/// Looks eight units at a time for `"`, `\\` or a unit below U+0020 (SSE2, which every x86-64
/// processor has): `Ok(index)`, or `Err(index)` of the last, shorter stretch to look at.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::cast_ptr_alignment)] // `_mm_loadu_si128` reads unaligned
fn find_special_sse2(units: &[u16], mut i: usize) -> Result<usize, usize> {
    use std::arch::x86_64::{__m128i, _mm_and_si128, _mm_cmpeq_epi16, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi16, _mm_setzero_si128};
    // SAFETY: SSE2 is part of the x86-64 baseline; every load reads eight units inside `units`.
    unsafe {
        let quote = _mm_set1_epi16(QUOTE as i16);
        let backslash = _mm_set1_epi16(BACKSLASH as i16);
        let high = _mm_set1_epi16(0xFFE0_u16 as i16);
        let zero = _mm_setzero_si128();
        while i + 8 <= units.len() {
            let v = _mm_loadu_si128(units.as_ptr().add(i).cast::<__m128i>());
            let hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi16(v, quote), _mm_cmpeq_epi16(v, backslash)), _mm_cmpeq_epi16(_mm_and_si128(v, high), zero));
            let mask = _mm_movemask_epi8(hit);
            if mask != 0 {
                // Two mask bits a unit.
                return Ok(i + mask.trailing_zeros() as usize / 2);
            }
            i += 8;
        }
    }
    Err(i)
}

/// [`find_special_sse2`] sixteen units at a time (AVX2; the scan of long strings is most of
/// the addon's time on large frames), finishing with SSE2.
///
/// # Safety
/// The processor must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::cast_ptr_alignment)] // `_mm256_loadu_si256` reads unaligned
unsafe fn find_special_avx2(units: &[u16], mut i: usize) -> Result<usize, usize> {
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_cmpeq_epi16, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi16, _mm256_setzero_si256,
    };
    let quote = _mm256_set1_epi16(QUOTE as i16);
    let backslash = _mm256_set1_epi16(BACKSLASH as i16);
    let high = _mm256_set1_epi16(0xFFE0_u16 as i16);
    let zero = _mm256_setzero_si256();
    while i + 16 <= units.len() {
        // SAFETY: the load reads sixteen units inside `units`.
        let v = unsafe { _mm256_loadu_si256(units.as_ptr().add(i).cast::<__m256i>()) };
        let hit = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi16(v, quote), _mm256_cmpeq_epi16(v, backslash)),
            _mm256_cmpeq_epi16(_mm256_and_si256(v, high), zero),
        );
        let mask = _mm256_movemask_epi8(hit);
        if mask != 0 {
            // Two mask bits a unit.
            return Ok(i + mask.trailing_zeros() as usize / 2);
        }
        i += 16;
    }
    find_special_sse2(units, i)
}

fn push_ascii(out: &mut Vec<u16>, s: &str) {
    out.extend(s.bytes().map(u16::from));
}

/// `"\u0001<k>"`.
fn push_placeholder(out: &mut Vec<u16>, k: usize) {
    push_ascii(out, "\"\\u0001");
    push_ascii(out, &k.to_string());
    out.push(QUOTE);
}

/// `[key or index, …]` for the value at the top of `stack`, keys as their source tokens.
fn push_path(paths: &mut Vec<u16>, units: &[u16], stack: &[Container], first: bool) {
    if !first {
        paths.push(u16::from(b','));
    }
    paths.push(u16::from(b'['));
    for (d, c) in stack.iter().enumerate() {
        if d > 0 {
            paths.push(u16::from(b','));
        }
        match *c {
            Container::Object(Some((a, b))) => paths.extend_from_slice(&units[a..b]),
            // A value in an object without a key is not JSON; the verdict says so and the
            // path is never used.
            Container::Object(None) => push_ascii(paths, "null"),
            Container::Array(index) => push_ascii(paths, &index.to_string()),
        }
    }
    paths.push(u16::from(b']'));
}
