//! The reference reader: the validator and the walk over validated text, with `JSON.parse`
//! number semantics.
//!
//! Reading is two passes over the frame text, neither of them recursive:
//!
//! 1. [`validate`] checks the whole frame against RFC 8259 exactly as `JSON.parse` does (no BOM,
//!    no comments, no trailing text, no `NaN`), with an explicit container stack so that any
//!    depth up to the hard cap is handled without touching the call stack.
//! 2. Typed readers then walk the *validated* text through [`Val`] handles: objects yield their
//!    members as spans, opaque values are skipped by bracket counting and kept as raw text.
//!
//! Because pass 2 only ever sees validated text it cannot hit a syntax error; every accessor
//! still guards its indices so that a broken invariant degrades into a wrong answer, never a
//! panic across an FFI boundary.

use std::fmt;

use crate::scan_window::StringError;

/// The largest integer JavaScript represents exactly, `2^53 − 1` (`Number.MAX_SAFE_INTEGER`).
pub const MAX_SAFE_INTEGER: u64 = 9_007_199_254_740_991;

/// Default hard cap on nesting depth (containers inside containers, counted from the frame's
/// top-level value as depth 1). Spec graphmind-v1 §5.8: at least 10,000.
pub const DEFAULT_MAX_DEPTH: usize = 100_000;

/// A JSON syntax error, with the byte offset (0-based, into the frame) where it was detected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Byte offset into the frame where reading stopped.
    pub offset: usize,
    /// What was wrong, in English, without the offset.
    pub message: String,
    /// `true` when the text is valid JSON but nests deeper than the configured cap.
    pub too_deep: bool,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message, self.offset)
    }
}

impl std::error::Error for SyntaxError {}

fn err(offset: usize, message: impl Into<String>) -> SyntaxError {
    SyntaxError { offset, message: message.into(), too_deep: false }
}

fn unexpected(src: &[u8], pos: usize) -> SyntaxError {
    match src.get(pos) {
        None => err(pos, "unexpected end of JSON input"),
        Some(&b) if b.is_ascii_graphic() || b == b' ' => err(pos, format!("unexpected character '{}'", b as char)),
        Some(&b) if b < 0x80 => err(pos, format!("unexpected character U+{b:04X}")),
        Some(_) => {
            // Name the whole code point, not the first byte of its UTF-8 form.
            let ch = std::str::from_utf8(&src[pos..src.len().min(pos + 4)])
                .ok()
                .or_else(|| (1..4).rev().find_map(|n| std::str::from_utf8(src.get(pos..pos + n)?).ok()))
                .and_then(|s| s.chars().next());
            match ch {
                Some(c) => err(pos, format!("unexpected character U+{:04X}", c as u32)),
                None => err(pos, "unexpected byte"),
            }
        }
    }
}

#[inline]
fn skip_ws(src: &[u8], mut pos: usize) -> usize {
    while let Some(&b) = src.get(pos) {
        if matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
            pos += 1;
        } else {
            break;
        }
    }
    pos
}

/// Validates the string starting at `pos` (which holds `"`); returns the offset after the
/// closing quote.
fn scan_string(src: &[u8], start: usize) -> Result<usize, SyntaxError> {
    match crate::scan::string_body(src, start + 1) {
        Ok((close, _)) => Ok(close + 1),
        Err(StringError::Unterminated) => Err(err(start, "unterminated string")),
        Err(StringError::BadUnicodeEscape(at)) => Err(err(at, "bad Unicode escape in string")),
        Err(StringError::BadEscape(at)) => Err(err(at, "bad escaped character in string")),
        Err(StringError::Control(at, b)) => Err(err(at, format!("bad control character U+{b:04X} in string (must be escaped)"))),
        // Not reported by `string_body`, which scans text already known to be UTF-8.
        Err(StringError::Utf8(at)) => Err(err(at, "invalid UTF-8")),
    }
}

/// Validates a number at `pos`; returns the offset after it.
#[inline]
pub fn scan_number(src: &[u8], start: usize) -> Result<usize, SyntaxError> {
    let mut pos = start;
    if src.get(pos) == Some(&b'-') {
        pos += 1;
    }
    match src.get(pos) {
        Some(b'0') => {
            pos += 1;
            if matches!(src.get(pos), Some(b'0'..=b'9')) {
                return Err(err(pos, "leading zeros are not allowed in numbers"));
            }
        }
        Some(b'1'..=b'9') => {
            while matches!(src.get(pos), Some(b'0'..=b'9')) {
                pos += 1;
            }
        }
        _ => return Err(if pos >= src.len() { err(pos, "unexpected end of JSON input") } else { err(pos, "no digits in number") }),
    }
    if src.get(pos) == Some(&b'.') {
        pos += 1;
        if !matches!(src.get(pos), Some(b'0'..=b'9')) {
            return Err(err(pos, "no digits after decimal point"));
        }
        while matches!(src.get(pos), Some(b'0'..=b'9')) {
            pos += 1;
        }
    }
    if matches!(src.get(pos), Some(b'e' | b'E')) {
        pos += 1;
        if matches!(src.get(pos), Some(b'+' | b'-')) {
            pos += 1;
        }
        if !matches!(src.get(pos), Some(b'0'..=b'9')) {
            return Err(err(pos, "no digits in exponent"));
        }
        while matches!(src.get(pos), Some(b'0'..=b'9')) {
            pos += 1;
        }
    }
    Ok(pos)
}

fn scan_literal(src: &[u8], pos: usize, lit: &[u8]) -> Result<usize, SyntaxError> {
    for (k, &expected) in lit.iter().enumerate() {
        if src.get(pos + k) != Some(&expected) {
            return Err(unexpected(src, pos + k));
        }
    }
    Ok(pos + lit.len())
}

/// Checks that text this crate wrote (valid JSON by construction) does not nest deeper than
/// `max_depth`, so the reader accepts it back. Opaque values are valid JSON each, but nested
/// inside a frame they may pass the cap. Nesting needs one `[`/`{` byte per level, so text with
/// fewer of them than the cap (counted over all bytes, strings included: an upper bound)
/// cannot be too deep and skips the validating pass.
///
/// # Errors
/// The reader's [`SyntaxError`] ("nesting exceeds the maximum depth of …").
pub fn check_written_depth(written: &[u8], max_depth: usize) -> Result<(), SyntaxError> {
    if written.len() < max_depth || count_openers(written) < max_depth {
        return Ok(());
    }
    validate(std::str::from_utf8(written).unwrap_or(""), max_depth)
}

/// How many `[` and `{` bytes `text` holds (`[` is `{` without bit 0x20). Byte counters per
/// chunk of 255, so the loop vectorises over byte lanes.
fn count_openers(text: &[u8]) -> usize {
    text.chunks(255).map(|c| usize::from(c.iter().fold(0u8, |n, &b| n + u8::from(b | 0x20 == b'{')))).sum()
}

/// Checks that `src` is exactly one JSON value surrounded by optional whitespace, as
/// `JSON.parse` requires, and that no container nests deeper than `max_depth`.
///
/// Runs in O(len) time and O(depth) bits of heap; never recurses.
///
/// # Errors
/// [`SyntaxError`] with the offset of the first offending byte.
pub fn validate(src: &str, max_depth: usize) -> Result<(), SyntaxError> {
    let src = src.as_bytes();
    // `true` for an object, `false` for an array.
    let mut stack: Vec<bool> = Vec::new();
    let mut pos = skip_ws(src, 0);
    'value: loop {
        // Read one value at `pos`.
        match src.get(pos) {
            Some(b'{' | b'[') => {
                let is_obj = src[pos] == b'{';
                if stack.len() >= max_depth {
                    return Err(SyntaxError { offset: pos, message: format!("nesting exceeds the maximum depth of {max_depth}"), too_deep: true });
                }
                pos = skip_ws(src, pos + 1);
                let close = if is_obj { b'}' } else { b']' };
                if src.get(pos) == Some(&close) {
                    pos += 1;
                } else {
                    stack.push(is_obj);
                    if is_obj {
                        pos = member_key(src, pos)?;
                    }
                    continue 'value;
                }
            }
            Some(b'"') => pos = scan_string(src, pos)?,
            Some(b't') => pos = scan_literal(src, pos, b"true")?,
            Some(b'f') => pos = scan_literal(src, pos, b"false")?,
            Some(b'n') => pos = scan_literal(src, pos, b"null")?,
            Some(b'-' | b'0'..=b'9') => pos = scan_number(src, pos)?,
            _ => return Err(unexpected(src, pos)),
        }
        // After a value: close containers or move to the next element.
        loop {
            pos = skip_ws(src, pos);
            match stack.last() {
                None => {
                    return if pos == src.len() { Ok(()) } else { Err(unexpected(src, pos)) };
                }
                Some(&is_obj) => {
                    let close = if is_obj { b'}' } else { b']' };
                    match src.get(pos) {
                        Some(b',') => {
                            pos = skip_ws(src, pos + 1);
                            if is_obj {
                                pos = member_key(src, pos)?;
                            }
                            continue 'value;
                        }
                        Some(&b) if b == close => {
                            stack.pop();
                            pos += 1;
                        }
                        _ => return Err(unexpected(src, pos)),
                    }
                }
            }
        }
    }
}

/// Reads `"key" :` at `pos` and returns the position of the member's value.
fn member_key(src: &[u8], pos: usize) -> Result<usize, SyntaxError> {
    if src.get(pos) != Some(&b'"') {
        return Err(unexpected(src, pos));
    }
    let pos = skip_ws(src, scan_string(src, pos)?);
    if src.get(pos) != Some(&b':') {
        return Err(unexpected(src, pos));
    }
    Ok(skip_ws(src, pos + 1))
}

// ---------------------------------------------------------------------------------------------
// Pass 2: walking validated text.
// ---------------------------------------------------------------------------------------------

/// The JSON type of a value, named as error messages name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonKind {
    /// `null`
    Null,
    /// `true` / `false`
    Bool,
    /// any number
    Number,
    /// a string
    String,
    /// an array
    Array,
    /// an object
    Object,
}

impl JsonKind {
    /// The lowercase name used in issue messages (`"object"`, `"array"`, …).
    pub fn name(self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Bool => "boolean",
            Self::Number => "number",
            Self::String => "string",
            Self::Array => "array",
            Self::Object => "object",
        }
    }
}

/// A handle on one value inside validated frame text: `src[start..end]` is its exact text.
#[derive(Debug, Clone, Copy)]
pub struct Val<'s> {
    src: &'s str,
    start: usize,
    end: usize,
}

/// The offset after the closing quote of the string starting at `start` in validated text.
#[inline]
pub(crate) fn string_end(src: &[u8], start: usize) -> usize {
    crate::scan::string_body(src, start + 1).map_or(src.len(), |(close, _)| close + 1)
}

/// End of the value starting at `start` in validated text. Iterative, so depth is free.
#[inline]
fn value_end(src: &[u8], start: usize) -> usize {
    match src.get(start) {
        Some(b'"') => string_end(src, start),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut pos = start;
            while pos < src.len() {
                // Jump straight to the next byte that matters.
                let rest = &src[pos..];
                let Some(i) = rest.iter().position(|&b| matches!(b, b'"' | b'{' | b'[' | b'}' | b']')) else {
                    return src.len();
                };
                pos += i;
                match src[pos] {
                    b'"' => {
                        pos = string_end(src, pos);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    _ => {
                        depth -= 1;
                        if depth == 0 {
                            return pos + 1;
                        }
                    }
                }
                pos += 1;
            }
            src.len()
        }
        _ => {
            let mut pos = start;
            while let Some(&b) = src.get(pos) {
                if matches!(b, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t') {
                    break;
                }
                pos += 1;
            }
            pos
        }
    }
}

impl<'s> Val<'s> {
    /// The value at `src[start..end]`, which must be one validated JSON value.
    pub(crate) fn span(src: &'s str, start: usize, end: usize) -> Self {
        Val { src, start, end }
    }

    /// The top-level value of validated text (whitespace around it is excluded).
    pub fn root(src: &'s str) -> Self {
        let b = src.as_bytes();
        let start = skip_ws(b, 0);
        let end = value_end(b, start);
        Val { src, start, end }
    }

    /// The exact source text of this value.
    #[inline]
    pub fn raw(&self) -> &'s str {
        self.src.get(self.start..self.end).unwrap_or_default()
    }

    /// The value's JSON type, from its first byte.
    #[inline]
    pub fn kind(&self) -> JsonKind {
        match self.src.as_bytes().get(self.start) {
            Some(b'{') => JsonKind::Object,
            Some(b'[') => JsonKind::Array,
            Some(b'"') => JsonKind::String,
            Some(b't' | b'f') => JsonKind::Bool,
            Some(b'n') => JsonKind::Null,
            _ => JsonKind::Number,
        }
    }

    /// `Some(b)` for `true`/`false`.
    pub fn as_bool(&self) -> Option<bool> {
        match self.raw() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        }
    }

    /// The number's value as `JSON.parse` computes it (correctly rounded double; overflow is
    /// ±infinity, as `1e400` is in JavaScript). `None` when this is not a number.
    pub fn as_f64(&self) -> Option<f64> {
        if self.kind() != JsonKind::Number {
            return None;
        }
        Some(number_value(self.raw()))
    }

    /// The string's content between the quotes, still escaped. `None` when not a string.
    pub fn string_raw(&self) -> Option<&'s str> {
        if self.kind() != JsonKind::String || self.end < self.start + 2 {
            return None;
        }
        self.src.get(self.start + 1..self.end - 1)
    }

    /// Iterates over an object's members in source order, duplicates included.
    pub fn members(&self) -> Members<'s> {
        let b = self.src.as_bytes();
        let pos = if self.kind() == JsonKind::Object { skip_ws(b, self.start + 1) } else { self.end };
        Members { src: self.src, pos, end: self.end }
    }

    /// Iterates over an array's elements in order.
    pub fn elements(&self) -> Elements<'s> {
        let b = self.src.as_bytes();
        let pos = if self.kind() == JsonKind::Array { skip_ws(b, self.start + 1) } else { self.end };
        Elements { src: self.src, pos, end: self.end }
    }
}

/// Iterator over `(escaped key content, value)` of an object; see [`Val::members`].
pub struct Members<'s> {
    src: &'s str,
    pos: usize,
    end: usize,
}

impl<'s> Iterator for Members<'s> {
    type Item = (&'s str, Val<'s>);
    fn next(&mut self) -> Option<Self::Item> {
        let b = self.src.as_bytes();
        if self.pos >= self.end || b.get(self.pos) != Some(&b'"') {
            return None;
        }
        let key_end = string_end(b, self.pos);
        let key = self.src.get(self.pos + 1..key_end.saturating_sub(1)).unwrap_or_default();
        let mut pos = skip_ws(b, key_end);
        if b.get(pos) == Some(&b':') {
            pos = skip_ws(b, pos + 1);
        }
        let vend = value_end(b, pos);
        let val = Val { src: self.src, start: pos, end: vend };
        pos = skip_ws(b, vend);
        if b.get(pos) == Some(&b',') {
            pos = skip_ws(b, pos + 1);
        } else {
            pos = self.end;
        }
        self.pos = pos;
        Some((key, val))
    }
}

/// Iterator over an array's elements; see [`Val::elements`].
pub struct Elements<'s> {
    src: &'s str,
    pos: usize,
    end: usize,
}

impl<'s> Iterator for Elements<'s> {
    type Item = Val<'s>;
    fn next(&mut self) -> Option<Self::Item> {
        let b = self.src.as_bytes();
        if self.pos >= self.end || matches!(b.get(self.pos), Some(b']') | None) {
            return None;
        }
        let vend = value_end(b, self.pos);
        let val = Val { src: self.src, start: self.pos, end: vend };
        let pos = skip_ws(b, vend);
        self.pos = if b.get(pos) == Some(&b',') { skip_ws(b, pos + 1) } else { self.end };
        Some(val)
    }
}

/// The value of a JSON number lexeme, as `JSON.parse` computes it.
#[inline]
pub fn number_value(lexeme: &str) -> f64 {
    let b = lexeme.as_bytes();
    // Fast path: short plain integers are exact in f64.
    if !b.is_empty() && b.len() <= 15 && b.iter().all(u8::is_ascii_digit) {
        let mut n: u64 = 0;
        for &d in b {
            n = n * 10 + u64::from(d - b'0');
        }
        return n as f64;
    }
    // Rust's float parsing is correctly rounded and yields ±inf on overflow, like V8.
    lexeme.parse::<f64>().unwrap_or(f64::NAN)
}

/// `Some(i)` when `x` is an integer value with `|x| ≤ 2^53 − 1` (zod 4 `.int()`); `-0` is `0`.
#[inline]
pub fn safe_integer(x: f64) -> Option<i64> {
    // In range (which NaN and the infinities are not), then integral: the cast truncates, so
    // it round-trips only an integer (`trunc` is a libm call on baseline x86-64).
    if x.abs() <= MAX_SAFE_INTEGER as f64 && (x as i64) as f64 == x {
        Some(x as i64)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write_f64;

    #[test]
    fn validate_matches_json_parse_grammar() {
        for ok in ["0", "-0", "1.5e+3", "\"\\ud800\"", " [1, {\"a\": []}] ", "1E2", "{\"a\":1,\"a\":2}"] {
            assert!(validate(ok, 100).is_ok(), "{ok}");
        }
        for bad in ["", "01", ".5", "1.", "1e", "[1,]", "{\"a\":1,}", "NaN", "\u{feff}{}", "{} {}", "'a'", "\"\t\"", "0x10", "\"\\x\""] {
            assert!(validate(bad, 100).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn depth_cap_is_reported_without_recursion() {
        let deep = "[".repeat(1_000_000) + &"]".repeat(1_000_000);
        let e = validate(&deep, DEFAULT_MAX_DEPTH).unwrap_err();
        assert!(e.too_deep);
        assert!(validate(&("[".repeat(10_000) + &"]".repeat(10_000)), DEFAULT_MAX_DEPTH).is_ok());
    }

    #[test]
    fn numbers_follow_js_semantics() {
        assert_eq!(safe_integer(number_value("1e3")), Some(1000));
        assert_eq!(safe_integer(number_value("-0")), Some(0));
        assert_eq!(safe_integer(number_value("9007199254740992")), None);
        assert!(number_value("1e400").is_infinite());
        let mut out = Vec::new();
        write_f64(&mut out, 1e21);
        out.push(b' ');
        write_f64(&mut out, 0.125);
        assert_eq!(out, b"1e+21 0.125");
    }

    #[test]
    fn members_walk_validated_text() {
        let src = r#" { "a" : [1, {"b":"}"}], "c\"d" : "x" } "#;
        let v = Val::root(src);
        let m: Vec<_> = v.members().map(|(k, v)| (k, v.raw())).collect();
        assert_eq!(m, vec![("a", r#"[1, {"b":"}"}]"#), ("c\\\"d", "\"x\"")]);
    }
}
