//! UTF-8 text to UTF-32 code units, for hosts whose string constructor takes UTF-32 in one
//! allocation (CPython's `PyUnicode_FromWideChar`, where the UTF-8 decoder allocates, widens
//! and copies as it meets wider characters: docs/performance.md, "5. Python binding").
//!
//! The input is a `&str`, so it is valid UTF-8 and every character is decoded from its lead
//! byte alone, without the checks a validating decoder makes. On x86-64 a run-time choice
//! takes the AVX-512 or AVX2 loop of `utf32_x86.rs` (every byte position decoded at once as
//! if it led a character, the positions that do kept by a compress); elsewhere, and for the
//! last few bytes, [`str::chars`].

/// Appends the Unicode scalar values of `text` to `out`, one `u32` each (`text.chars()` as
/// `u32`). Reserves `text.len()` more elements up front (a character is at least one byte),
/// so a call allocates at most once.
#[inline]
pub fn push_utf32(text: &str, out: &mut Vec<u32>) {
    out.reserve(text.len());
    let read = simd_prefix(text, out);
    push_tail(text, read, out);
}

/// Whether this processor has one of the SIMD loops (AVX-512 F or AVX2 on x86-64). Without
/// one, [`push_utf32`] is `str::chars`, which measured slower than a UTF-8 decoder that builds
/// the host string directly (docs/performance.md, "5. Python binding"): callers choosing a
/// route ask this first.
#[inline]
#[must_use]
pub fn is_simd() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f") || std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The SIMD loop for this processor, appending to `out` (whose spare capacity is at least
/// `text.len()`): how many bytes of `text` it read (0 where no loop applies).
#[inline]
fn simd_prefix(text: &str, out: &mut Vec<u32>) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        crate::utf32_x86::push_prefix(text, out)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (text, out);
        0
    }
}

/// The characters after the first `read` bytes. The loops stop at a byte position, which may
/// hold a continuation byte of a character they already wrote: the tail starts at the next
/// character.
#[inline]
fn push_tail(text: &str, read: usize, out: &mut Vec<u32>) {
    let rest = text.as_bytes().get(read..).unwrap_or_default();
    let skip = rest.iter().take_while(|&&b| b & 0xC0 == 0x80).count();
    out.extend(text.get(read + skip..).unwrap_or_default().chars().map(u32::from));
}

/// Forces one loop, for the tests: `0` none (the portable path alone), `1` AVX2, `2` AVX-512.
/// Returns `false`, appending nothing, where the processor lacks the loop.
#[cfg(test)]
pub(crate) fn push_utf32_with(text: &str, out: &mut Vec<u32>, lane: u8) -> bool {
    out.reserve(text.len());
    let read = match lane {
        0 => 0,
        #[cfg(target_arch = "x86_64")]
        1 => match crate::utf32_x86::push_prefix_avx2(text, out) {
            Some(r) => r,
            None => return false,
        },
        #[cfg(target_arch = "x86_64")]
        2 => match crate::utf32_x86::push_prefix_avx512(text, out) {
            Some(r) => r,
            None => return false,
        },
        _ => return false,
    };
    push_tail(text, read, out);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Characters of every UTF-8 length, each edge of each length, and the two ASCII bytes
    /// JSON escapes (`"` and `\`), which the converters around this one treat specially.
    const ALPHABET: &[char] = &[
        'a',
        'Z',
        ' ',
        '"',
        '\\',
        '\u{0}',
        '\u{7f}',
        '\u{80}',
        'é',
        'ß',
        '\u{7ff}',
        '\u{800}',
        'Ж',
        '模',
        '東',
        '…',
        '✓',
        '\u{fffd}',
        '\u{ffff}',
        '\u{10000}',
        '🚀',
        '😀',
        '\u{10ffff}',
    ];

    /// A small deterministic generator (xorshift), so a failure reproduces.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    fn random_text(state: &mut u64, len: usize, ascii_share: u64) -> String {
        (0..len)
            .map(|_| {
                let r = next(state);
                if r % 100 < ascii_share {
                    char::from(b'a' + (r >> 8) as u8 % 26)
                } else {
                    ALPHABET[(r >> 16) as usize % ALPHABET.len()]
                }
            })
            .collect()
    }

    fn check(text: &str, lane: u8, prefix: &[u32]) -> bool {
        let mut out = prefix.to_vec();
        if !push_utf32_with(text, &mut out, lane) {
            return false;
        }
        let want: Vec<u32> = prefix.iter().copied().chain(text.chars().map(u32::from)).collect();
        assert_eq!(out, want, "lane {lane}, text {text:?}");
        true
    }

    #[test]
    fn every_loop_agrees_with_chars() {
        let mut state = 0x9E37_79B9_7F4A_7C15;
        let mut ran = [0usize; 3];
        for len in 0..200 {
            for ascii_share in [0, 50, 90, 100] {
                let text = random_text(&mut state, len, ascii_share);
                for lane in 0..3u8 {
                    // An output that already holds elements: the loops write after them.
                    let prefix: &[u32] = if len % 3 == 0 { &[7, 8, 9] } else { &[] };
                    if check(&text, lane, prefix) {
                        ran[usize::from(lane)] += 1;
                    }
                }
            }
        }
        assert_eq!(ran[0], 800);
        #[cfg(target_arch = "x86_64")]
        assert!(!std::is_x86_feature_detected!("avx2") || ran[1] == 800, "AVX2 loop ran {} times", ran[1]);
        #[cfg(target_arch = "x86_64")]
        assert!(!std::is_x86_feature_detected!("avx512f") || ran[2] == 800, "AVX-512 loop ran {} times", ran[2]);
    }

    #[test]
    fn every_character_at_every_offset_of_a_block() {
        // Each character of the alphabet after 0..40 ASCII bytes and before 0..20 more: its
        // lead lands in every lane of a 16- and 8-position step, and its continuation bytes
        // cross every step's end.
        for &c in ALPHABET {
            for before in 0..40 {
                for after in 0..20 {
                    let text = format!("{}{c}{}", "x".repeat(before), "é".repeat(after));
                    for lane in 0..3u8 {
                        check(&text, lane, &[]);
                    }
                }
            }
        }
    }

    #[test]
    fn the_public_entry_point_agrees_with_chars() {
        let mut state = 42;
        for len in [0, 1, 15, 16, 19, 20, 64, 1000, 70_000] {
            let text = random_text(&mut state, len, 70);
            let mut out = Vec::new();
            push_utf32(&text, &mut out);
            assert_eq!(out, text.chars().map(u32::from).collect::<Vec<_>>());
        }
    }
}
