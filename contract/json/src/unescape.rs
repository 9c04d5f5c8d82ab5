//! The one JSON string decoder: every reader that turns a string's escaped content into text
//! (the two readers of this crate, the contract's typed fields and payload shrinking, the
//! Python binding's JSON → `str` conversion) goes through [`unescape_body`], with the
//! lone-surrogate policy ([`LoneSurrogate`]) its caller needs. Plain runs between escapes are
//! found sixteen bytes at a time ([`crate::scan::plain_end`]) and copied whole.
//!
//! A lone surrogate is a `\uD800`–`\uDBFF` escape not followed by a `\uDC00`–`\uDFFF` escape,
//! or a `\uDC00`–`\uDFFF` escape alone. JSON allows it and `JSON.parse` keeps it as one UTF-16
//! code unit; UTF-8 (a Rust `str`) cannot hold it. A high surrogate escape directly followed by
//! a low one is one astral character.

use std::borrow::Cow;

/// What [`unescape_body`] does with a lone-surrogate escape (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoneSurrogate {
    /// Write U+FFFD in its place (what a typed string field holds) and report that it did.
    Replace,
    /// Stop at the first one with [`LoneSurrogateRejected`]: the caller takes another route
    /// (the single pass bails; the Python binding keeps the code unit in a `str`).
    Reject,
    /// Write the code unit's three-byte generalized UTF-8 form (`ED A0 80` to `ED BF BF`), so
    /// the output is WTF-8 (payload shrinking measures and cuts such text). Only an output that
    /// holds WTF-8 (`Vec<u8>`) can: into a `String` this policy rejects, as [`Self::Reject`].
    Keep,
}

/// The decoder stopped at a lone-surrogate escape under [`LoneSurrogate::Reject`] (or
/// [`LoneSurrogate::Keep`] into an output that cannot hold one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoneSurrogateRejected;

/// Where decoded text goes: a `String` (UTF-8) or bytes (UTF-8, or WTF-8 under
/// [`LoneSurrogate::Keep`]).
pub trait Unescaped {
    /// Appends text.
    fn push_text(&mut self, text: &str);
    /// Appends one character.
    fn push_char(&mut self, c: char);
    /// Appends the surrogate code unit `unit` as WTF-8; `false` (nothing appended) when this
    /// output holds UTF-8 only.
    fn push_surrogate(&mut self, unit: u32) -> bool;
}

impl Unescaped for String {
    #[inline]
    fn push_text(&mut self, text: &str) {
        self.push_str(text);
    }
    #[inline]
    fn push_char(&mut self, c: char) {
        self.push(c);
    }
    #[inline]
    fn push_surrogate(&mut self, _unit: u32) -> bool {
        false
    }
}

impl Unescaped for Vec<u8> {
    #[inline]
    fn push_text(&mut self, text: &str) {
        self.extend_from_slice(text.as_bytes());
    }
    #[inline]
    fn push_char(&mut self, c: char) {
        self.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
    }
    #[inline]
    fn push_surrogate(&mut self, unit: u32) -> bool {
        self.extend_from_slice(&[0xE0 | ((unit >> 12) & 0x0F) as u8, 0x80 | ((unit >> 6) & 0x3F) as u8, 0x80 | (unit & 0x3F) as u8]);
        true
    }
}

/// What [`unescape_body`] read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Body {
    /// The offset of the string's closing quote (the text's length when there is none).
    pub close: usize,
    /// Whether a lone surrogate was replaced ([`LoneSurrogate::Replace`]) or kept
    /// ([`LoneSurrogate::Keep`]).
    pub lone_surrogate: bool,
}

/// Decodes the body of the JSON string that runs from `text[from..]` (just after its opening
/// quote, or anywhere inside its body at a character boundary) to its closing quote,
/// appending to `out`, lone surrogates as `lone` says.
///
/// Meant for validated text; on anything else it still returns without panicking: an invalid
/// `\u` escape reads as U+FFFD, a backslash before any other byte as that byte, and a raw
/// control character is kept.
///
/// # Errors
/// [`LoneSurrogateRejected`] at the first lone surrogate under [`LoneSurrogate::Reject`], or
/// under [`LoneSurrogate::Keep`] into an output that holds UTF-8 only.
#[inline]
pub fn unescape_body<O: Unescaped + ?Sized>(text: &str, from: usize, out: &mut O, lone: LoneSurrogate) -> Result<Body, LoneSurrogateRejected> {
    decode::<O, true>(text, from, out, lone)
}

/// Decodes the escaped content of a JSON string (the text between its quotes), all of it,
/// lone surrogates as `lone` says; returns whether a lone surrogate was replaced or kept.
///
/// # Errors
/// As [`unescape_body`].
#[inline]
pub fn unescape<O: Unescaped + ?Sized>(raw: &str, out: &mut O, lone: LoneSurrogate) -> Result<bool, LoneSurrogateRejected> {
    decode::<O, false>(raw, 0, out, lone).map(|body| body.lone_surrogate)
}

/// Result of [`decode_string`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded<'s> {
    /// The text, with lone surrogates replaced by U+FFFD.
    pub text: Cow<'s, str>,
    /// Whether a lone-surrogate escape was replaced.
    pub had_lone_surrogate: bool,
}

/// Decodes the escaped content of a validated JSON string with [`LoneSurrogate::Replace`]:
/// borrowed when it holds no escape.
pub fn decode_string(raw: &str) -> Decoded<'_> {
    if !raw.as_bytes().contains(&b'\\') {
        return Decoded { text: Cow::Borrowed(raw), had_lone_surrogate: false };
    }
    let mut out = String::with_capacity(raw.len());
    // `Replace` into a `String` never rejects.
    let lone = unescape(raw, &mut out, LoneSurrogate::Replace).unwrap_or(true);
    Decoded { text: Cow::Owned(out), had_lone_surrogate: lone }
}

/// The value of the four hex digits at `at`, if there are four.
#[inline]
fn hex4(b: &[u8], at: usize) -> Option<u32> {
    let digits = b.get(at..at.checked_add(4)?)?;
    digits.iter().try_fold(0u32, |acc, &d| Some(acc * 16 + char::from(d).to_digit(16)?))
}

/// The decoder. With `QUOTE_ENDS`, an unescaped `"` ends the string; without, the whole text is
/// string content (a raw `"` in it, which validated content cannot hold, is kept).
#[inline]
fn decode<O: Unescaped + ?Sized, const QUOTE_ENDS: bool>(text: &str, from: usize, out: &mut O, lone: LoneSurrogate) -> Result<Body, LoneSurrogateRejected> {
    let b = text.as_bytes();
    let mut lone_seen = false;
    // `seg..i` is the plain run not yet copied. Every offset it takes is at an ASCII byte (a
    // quote, a backslash, the byte after an escape, a control character) or the text's end,
    // so each `get` is at a character boundary.
    let mut seg = from;
    let mut i = from;
    loop {
        i = crate::scan::plain_end(b, i);
        let Some(&c) = b.get(i) else { break };
        match c {
            b'"' if QUOTE_ENDS => break,
            b'\\' => {
                out.push_text(text.get(seg..i).unwrap_or_default());
                let esc = b.get(i + 1).copied().unwrap_or(b'\\');
                match esc {
                    b'b' => out.push_char('\u{8}'),
                    b'f' => out.push_char('\u{c}'),
                    b'n' => out.push_char('\n'),
                    b'r' => out.push_char('\r'),
                    b't' => out.push_char('\t'),
                    b'u' => {
                        let hi = hex4(b, i + 2).unwrap_or(0xFFFD);
                        i += 4;
                        let lo = if (0xD800..0xDC00).contains(&hi) && b.get(i + 2) == Some(&b'\\') && b.get(i + 3) == Some(&b'u') {
                            hex4(b, i + 4).filter(|lo| (0xDC00..0xE000).contains(lo))
                        } else {
                            None
                        };
                        if let Some(lo) = lo {
                            out.push_char(char::from_u32(0x1_0000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)).unwrap_or('\u{FFFD}'));
                            i += 6;
                        } else if let Some(ch) = char::from_u32(hi) {
                            out.push_char(ch);
                        } else {
                            lone_seen = true;
                            match lone {
                                LoneSurrogate::Replace => out.push_char('\u{FFFD}'),
                                LoneSurrogate::Reject => return Err(LoneSurrogateRejected),
                                LoneSurrogate::Keep => {
                                    if !out.push_surrogate(hi) {
                                        return Err(LoneSurrogateRejected);
                                    }
                                }
                            }
                        }
                    }
                    // `"`, `\`, `/`: the escaped character is itself.
                    other if other.is_ascii() => out.push_char(char::from(other)),
                    // Not an escape (unvalidated text): the backslash alone is dropped, and the
                    // character after it starts the next run.
                    _ => {
                        i += 1;
                        seg = i;
                        continue;
                    }
                }
                i = (i + 2).min(b.len());
                seg = i;
            }
            // A control character (or, without `QUOTE_ENDS`, a quote): part of the run.
            _ => i += 1,
        }
    }
    out.push_text(text.get(seg..i).unwrap_or_default());
    Ok(Body { close: i, lone_surrogate: lone_seen })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_decode_to_replacement_and_pairs_join() {
        let d = decode_string("a\\ud800b");
        assert!(d.had_lone_surrogate);
        assert_eq!(d.text, "a\u{FFFD}b");
        let d = decode_string("\\ud83d\\ude00");
        assert!(!d.had_lone_surrogate);
        assert_eq!(d.text, "😀");
    }

    /// Each policy on each kind of lone surrogate: a high one at the end, before a plain
    /// character, before a non-low escape and before another high one; a low one alone.
    #[test]
    fn each_policy_does_what_it_says() {
        let cases: [(&str, &[u8], &str); 5] = [
            ("x\\ud800", b"x\xED\xA0\x80", "x\u{FFFD}"),
            ("\\udbffy", b"\xED\xAF\xBFy", "\u{FFFD}y"),
            ("\\ud800\\u0041", b"\xED\xA0\x80A", "\u{FFFD}A"),
            ("\\ud800\\ud83d\\ude00", b"\xED\xA0\x80\xF0\x9F\x98\x80", "\u{FFFD}\u{1F600}"),
            ("a\\udc00", b"a\xED\xB0\x80", "a\u{FFFD}"),
        ];
        for (raw, wtf8, utf8) in cases {
            let mut kept = Vec::new();
            assert_eq!(unescape(raw, &mut kept, LoneSurrogate::Keep), Ok(true), "{raw}");
            assert_eq!(kept, wtf8, "{raw}");
            let mut replaced = String::new();
            assert_eq!(unescape(raw, &mut replaced, LoneSurrogate::Replace), Ok(true), "{raw}");
            assert_eq!(replaced, utf8, "{raw}");
            for lone in [LoneSurrogate::Reject, LoneSurrogate::Keep] {
                assert_eq!(unescape(raw, &mut String::new(), lone), Err(LoneSurrogateRejected), "{raw} {lone:?}");
            }
            assert_eq!(unescape(raw, &mut Vec::new(), LoneSurrogate::Reject), Err(LoneSurrogateRejected), "{raw}");
        }
    }

    /// Every escape, in runs of every length around the scanner's block and word, decodes as
    /// serde_json decodes the same string; `unescape_body` stops at the closing quote.
    #[test]
    fn escapes_decode_as_serde_json_reads_them() {
        for esc in ["\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u00e9", "\\u0000", "\\ud83d\\ude00", "\\uFFFF", "é", "型"] {
            for run in 0..40 {
                let plain = "a".repeat(run);
                let body = format!("{plain}{esc}{plain}{esc}");
                let want: String = serde_json::from_str(&format!("\"{body}\"")).unwrap_or_default();
                let mut got = String::new();
                assert_eq!(unescape(&body, &mut got, LoneSurrogate::Reject), Ok(false), "{body}");
                assert_eq!(got, want, "{body}");
                let text = format!("\"{body}\",\"z\"");
                let mut got = Vec::new();
                let read = unescape_body(&text, 1, &mut got, LoneSurrogate::Keep);
                assert_eq!(read, Ok(Body { close: body.len() + 1, lone_surrogate: false }), "{body}");
                assert_eq!(got, want.as_bytes(), "{body}");
            }
        }
    }

    /// Text that is not a validated string body decodes without panicking, as documented.
    #[test]
    fn unvalidated_text_never_panics() {
        for raw in ["\\", "a\\", "\\u", "\\u12", "\\uZZZZ", "\\ud800\\u", "\\ud800\\", "\\é", "\"", "\u{1}", "\\ud800\\udc"] {
            for lone in [LoneSurrogate::Replace, LoneSurrogate::Reject, LoneSurrogate::Keep] {
                let _ = unescape(raw, &mut String::new(), lone);
                let _ = unescape(raw, &mut Vec::new(), lone);
                let _ = unescape_body(raw, 0, &mut Vec::new(), lone);
            }
        }
        assert_eq!(decode_string("\\é").text, "é");
        assert_eq!(decode_string("a\"b").text, "a\"b");
        assert_eq!(decode_string("\\u12").text, "\u{FFFD}");
    }
}
