//! The single pass of payload shrinking: tiers 1, 2 and 4 straight from JSON text, with no
//! [`super::JsValue`] built.
//!
//! One scan reads the text as `JSON.parse` would and produces what `JSON.stringify` writes for
//! it (§3 S3), copying every span already spelled that way (a JavaScript client's text, the
//! contract's own writers: all of it) and rewriting only whitespace, number tokens spelled
//! otherwise (`1.0`, `4.2e-05`) and strings with other escapes (`\u00e9`, `\/`); it records
//! where each container ends and the top-level members. Tier 2 then reads only what it keeps
//! (up to 256 keys a level, 2000 units of a cut string) and measures the rest by span.
//!
//! Duplicate keys, array-index keys (JavaScript would reorder them, §2 P4) and keys with an
//! escape are left to the value path (`read.rs`, `trim.rs`, `skeleton.rs`), as is any shrink
//! that reaches the skeleton (tier 3): `None`. Both paths give the same bytes (tests: this
//! file's and `contract/tests/integration/shrink*.rs`).

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::HashSet;
use std::ops::Range;

use super::trim::{finish_trim, marker};
use super::units::{high_surrogate_of, len16, prefix16, wtf8_unit, TRUNCATION_SUFFIX};
use super::write::{into_string, set, write_out, write_str, Out};
use super::{Shrunk, MARKER_KEY, MAX_SHRINK_DEPTH, MAX_SHRINK_KEYS, MAX_TRIM_FIELDS, PREVIEW_CHARS};
use crate::registry::MessageDesc;
use wirecontract_json::scan::{plain_end, string_close};
use wirecontract_json::{number_value, scan_number, unescape_body, write_f64, LoneSurrogate};

/// An object or array of the scanned text.
struct Container {
    start: usize,
    /// The offset just after its closing bracket.
    end: usize,
    /// Members (object) or elements (array).
    len: usize,
}

/// What the scan learned: the payload's `JSON.stringify` text, its containers in text order,
/// and the top-level members (key text without quotes, value span) when it is an object. All
/// offsets are into `text`.
struct Scan<'a> {
    text: Cow<'a, [u8]>,
    containers: Vec<Container>,
    fields: Option<Vec<(Range<usize>, Range<usize>)>>,
}

impl Scan<'_> {
    fn container(&self, start: usize) -> Option<&Container> {
        self.containers.binary_search_by_key(&start, |c| c.start).ok().and_then(|i| self.containers.get(i))
    }
}

/// The re-serialized text while scanning: the input itself until the first token `JSON.stringify`
/// writes differently; from there a copy, made of the input's spans and the rewritten tokens.
struct Canon<'a> {
    src: &'a [u8],
    out: Option<Vec<u8>>,
    /// The input offset up to which `out` holds the text.
    copied: usize,
}

impl<'a> Canon<'a> {
    /// The offset in the re-serialized text of input offset `at` (never before `copied`).
    fn at(&self, at: usize) -> usize {
        self.out.as_ref().map_or(at, |o| o.len() + at.saturating_sub(self.copied))
    }

    /// Writes `with` in place of the input's `from..to`.
    fn replace(&mut self, from: usize, to: usize, with: &[u8]) {
        let out = self.out.get_or_insert_with(|| Vec::with_capacity(self.src.len()));
        out.extend_from_slice(self.src.get(self.copied..from).unwrap_or_default());
        out.extend_from_slice(with);
        self.copied = to;
    }

    /// Drops whitespace at `pos`; returns the offset after it.
    fn skip_ws(&mut self, pos: usize) -> usize {
        let mut end = pos;
        while matches!(self.src.get(end), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            end += 1;
        }
        if end > pos {
            self.replace(pos, end, b"");
        }
        end
    }

    fn finish(self) -> Cow<'a, [u8]> {
        match self.out {
            None => Cow::Borrowed(self.src),
            Some(mut out) => {
                out.extend_from_slice(self.src.get(self.copied..).unwrap_or_default());
                Cow::Owned(out)
            }
        }
    }
}

/// An open container while scanning: its index in `containers`, whether it is an object, and
/// for an object where its keys start in the key list (and, past [`SMALL_OBJECT`] keys, their set).
struct Open<'a> {
    idx: usize,
    object: bool,
    keys_from: usize,
    set: Option<HashSet<&'a [u8]>>,
}

/// Up to this many keys an object's duplicate check compares keys pairwise; beyond, it hashes.
const SMALL_OBJECT: usize = 16;

/// Whether a number token is spelled as `Number::toString` spells its double, without
/// converting it when that is certain (§2 P5): no exponent, no trailing fraction zero, no
/// `-0`, at most 15 significant digits (any such decimal is the shortest one naming its
/// double) and in the range written without an exponent (below 1e21, and from 1e-6 up).
/// Other tokens are converted and written, and compared.
fn canonical_number(tok: &[u8]) -> bool {
    let digits = tok.strip_prefix(b"-").unwrap_or(tok);
    let quick = !digits.iter().any(|&c| c == b'e' || c == b'E') && {
        let (int, frac) = match digits.iter().position(|&c| c == b'.') {
            Some(p) => (digits.get(..p).unwrap_or_default(), digits.get(p + 1..)),
            None => (digits, None),
        };
        let frac_ok = frac.is_none_or(|f| f.last().is_some_and(|&c| c != b'0'));
        let significant = if int == b"0" {
            let f = frac.unwrap_or_default();
            let zeros = f.iter().take_while(|&&c| c == b'0').count();
            // `-0` alone writes `0`; `0.000000x` (six zeros) writes an exponent.
            (frac.is_some() && zeros < 6).then(|| f.len() - zeros)
        } else {
            (int.len() <= 21).then(|| int.len() + frac.map_or(0, <[u8]>::len))
        };
        frac_ok && significant.is_some_and(|n| n <= 15)
    };
    quick || respelled(tok) == tok
}

/// `Number::toString` of the double a number token names (§2 P5).
fn respelled(tok: &[u8]) -> Vec<u8> {
    let mut w = Vec::with_capacity(24);
    write_f64(&mut w, number_value(std::str::from_utf8(tok).unwrap_or("x")));
    w
}

fn hex4(b: &[u8], at: usize, lowercase_only: bool) -> Option<u32> {
    let mut v = 0;
    for &c in b.get(at..at + 4)? {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' if !lowercase_only => c - b'A' + 10,
            _ => return None,
        };
        v = v << 4 | u32::from(d);
    }
    Some(v)
}

/// The escape whose backslash is at `i`: the offset after it and whether `JSON.stringify`
/// writes it so (§2 P1: the short forms, lowercase `\u00xx` for a control character without
/// one, lowercase `\udxxx` for a lone surrogate); `None` when it is no JSON escape.
fn escape(b: &[u8], i: usize) -> Option<(usize, bool)> {
    match b.get(i + 1)? {
        b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't' => Some((i + 2, true)),
        b'/' => Some((i + 2, false)),
        b'u' => {
            let Some(v) = hex4(b, i + 2, true) else { return hex4(b, i + 2, false).map(|_| (i + 6, false)) };
            let lone_high =
                (0xD800..0xDC00).contains(&v) && !(b.get(i + 6..i + 8) == Some(b"\\u") && hex4(b, i + 8, false).is_some_and(|w| (0xDC00..0xE000).contains(&w)));
            // A low surrogate escape here follows no high escape (that pair is not canonical).
            let canonical = (v < 0x20 && !matches!(v, 0x08 | 0x09 | 0x0A | 0x0C | 0x0D)) || lone_high || (0xDC00..0xE000).contains(&v);
            Some((i + 6, canonical))
        }
        _ => None,
    }
}

/// The string whose opening quote is at `pos`: the offset of its closing quote, whether it
/// holds an escape and whether every escape is canonical; `None` when it is not valid.
fn string(b: &[u8], pos: usize) -> Option<(usize, bool, bool)> {
    // One walk: plain runs skipped by `plain_end`, escapes checked where they stand, so a
    // string of back-to-back escapes costs no scan call per escape. (The engine's window scan
    // first, then a walk over the escapes, took 150 ms for 3.6 M `\u0001`: 56% in the scan.)
    let mut i = pos + 1;
    let mut escaped = false;
    let mut canonical = true;
    loop {
        match *b.get(i)? {
            b'"' => return Some((i, escaped, canonical)),
            b'\\' => {
                escaped = true;
                let (next, ok) = escape(b, i)?;
                canonical &= ok;
                i = next;
            }
            0..0x20 => return None,
            _ => i = plain_end(b, i + 1),
        }
    }
}

/// The end of the string at `pos` in re-serialized text.
fn string_end(b: &[u8], pos: usize) -> usize {
    string_close(b, pos + 1).map_or(b.len(), |(close, _)| close + 1)
}

/// Whether `key` is a canonical array index (`0` … `2^32 − 2`), which JavaScript enumerates first.
fn is_index_key(key: &[u8]) -> bool {
    match key {
        [b'0'] => true,
        [b'1'..=b'9', rest @ ..] => {
            rest.len() < 10 && rest.iter().all(u8::is_ascii_digit) && key.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0')) < u64::from(u32::MAX)
        }
        _ => false,
    }
}

/// Reads the key at `pos` of the object `open`: its content range in the re-serialized text
/// and the offset of its value in the input. `None` for a key with an escape, an index key or
/// a duplicate.
fn key<'a>(c: &mut Canon<'a>, pos: usize, open: &mut Open<'a>, keys: &mut Vec<&'a [u8]>) -> Option<(Range<usize>, usize)> {
    let b = c.src;
    if b.get(pos) != Some(&b'"') {
        return None;
    }
    let (close, escaped, _) = string(b, pos)?;
    let k = b.get(pos + 1..close)?;
    if escaped || is_index_key(k) {
        return None;
    }
    let mine = keys.get(open.keys_from..).unwrap_or_default();
    match &mut open.set {
        Some(set) => {
            if !set.insert(k) {
                return None;
            }
        }
        None if mine.len() >= SMALL_OBJECT => {
            let mut set: HashSet<&[u8]> = mine.iter().copied().collect();
            if !set.insert(k) {
                return None;
            }
            open.set = Some(set);
        }
        None => {
            if mine.contains(&k) {
                return None;
            }
        }
    }
    keys.push(k);
    let range = c.at(pos + 1)..c.at(close);
    let colon = c.skip_ws(close + 1);
    if b.get(colon) != Some(&b':') {
        return None;
    }
    Some((range, c.skip_ws(colon + 1)))
}

/// Reads `text` as `JSON.parse` would and writes it as `JSON.stringify` would, copying every
/// span already written so, and records its containers; `None` for text that is not JSON and
/// for duplicate, array-index or escaped keys (left to the value path). One pass, no
/// recursion.
fn scan(text: &str) -> Option<Scan<'_>> {
    let b = text.as_bytes();
    let mut c = Canon { src: b, out: None, copied: 0 };
    let mut containers: Vec<Container> = Vec::new();
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut keys: Vec<&[u8]> = Vec::new();
    let mut fields: Option<Vec<(Range<usize>, Range<usize>)>> = None;
    let mut pos = c.skip_ws(0);
    loop {
        // A value at `pos`.
        match *b.get(pos)? {
            open @ (b'{' | b'[') => {
                let object = open == b'{';
                if object && stack.is_empty() {
                    fields = Some(Vec::new());
                }
                containers.push(Container { start: c.at(pos), end: 0, len: 0 });
                stack.push(Open { idx: containers.len() - 1, object, keys_from: keys.len(), set: None });
                pos = c.skip_ws(pos + 1);
                let close = if object { b'}' } else { b']' };
                if b.get(pos) != Some(&close) {
                    if object {
                        let depth = stack.len();
                        let top = stack.last_mut()?;
                        let (k, at) = key(&mut c, pos, top, &mut keys)?;
                        if depth == 1 {
                            let v = c.at(at);
                            fields.as_mut()?.push((k, v..v));
                        }
                        pos = at;
                    }
                    continue;
                }
                // Empty: closed here, then ended below as any value.
                pos += 1;
                let top = stack.pop()?;
                keys.truncate(top.keys_from);
                containers.get_mut(top.idx)?.end = c.at(pos);
            }
            b'"' => {
                let (close, _, canonical) = string(b, pos)?;
                if !canonical {
                    let mut value = Vec::new();
                    // `Keep` into bytes never rejects.
                    let _ = unescape_body(text, pos + 1, &mut value, LoneSurrogate::Keep);
                    let mut spelled = Vec::with_capacity(value.len() + 2);
                    write_str(&mut spelled, &value);
                    c.replace(pos, close + 1, &spelled);
                }
                pos = close + 1;
            }
            b't' => pos = (b.get(pos..pos + 4)? == b"true").then_some(pos + 4)?,
            b'f' => pos = (b.get(pos..pos + 5)? == b"false").then_some(pos + 5)?,
            b'n' => pos = (b.get(pos..pos + 4)? == b"null").then_some(pos + 4)?,
            _ => {
                let end = scan_number(b, pos).ok()?;
                let tok = b.get(pos..end)?;
                if !canonical_number(tok) {
                    c.replace(pos, end, &respelled(tok));
                }
                pos = end;
            }
        }
        // The value ended at `pos`: count it, then a separator, or close containers.
        loop {
            let end = c.at(pos);
            pos = c.skip_ws(pos);
            let depth = stack.len();
            let Some(top) = stack.last_mut() else {
                return (pos == b.len()).then(|| Scan { text: c.finish(), containers, fields });
            };
            if depth == 1 && top.object {
                if let Some(f) = fields.as_mut().and_then(|f| f.last_mut()) {
                    f.1.end = end;
                }
            }
            containers.get_mut(top.idx)?.len += 1;
            match *b.get(pos)? {
                b',' => {
                    pos = c.skip_ws(pos + 1);
                    if top.object {
                        let (k, at) = key(&mut c, pos, top, &mut keys)?;
                        if depth == 1 {
                            let v = c.at(at);
                            fields.as_mut()?.push((k, v..v));
                        }
                        pos = at;
                    }
                    break;
                }
                close @ (b'}' | b']') if (close == b'}') == top.object => {
                    pos += 1;
                    let top = stack.pop()?;
                    keys.truncate(top.keys_from);
                    containers.get_mut(top.idx)?.end = c.at(pos);
                }
                _ => return None,
            }
        }
    }
}

/// `cut(value, n)` (§2 P2) of the canonical string whose text (quotes included) is `text`: the
/// text itself when the value has at most `n` UTF-16 units, else the value's first `n` units and
/// the suffix, as WTF-8. Reads at most `n` units of the value, whatever its length.
fn cut_string(text: &[u8], n: usize) -> Out<'_> {
    let body = text.get(1..text.len().saturating_sub(1)).unwrap_or_default();
    // Each byte of the text is at most one unit of the value.
    if body.len() <= n {
        return Out::Raw(text);
    }
    let mut out = Vec::with_capacity(n + TRUNCATION_SUFFIX.len() + 8);
    let (mut i, mut units) = (0, 0);
    while let Some(&c) = body.get(i) {
        let (bytes, u, step): (Cow<'_, [u8]>, usize, usize) = if c == b'\\' {
            let unit = match body.get(i + 1) {
                Some(b'b') => 0x08,
                Some(b'f') => 0x0C,
                Some(b'n') => 0x0A,
                Some(b'r') => 0x0D,
                Some(b't') => 0x09,
                Some(b'u') => hex4(body, i + 2, true).unwrap_or(0xFFFD),
                Some(&other) => u32::from(other),
                None => 0xFFFD,
            };
            let step = if body.get(i + 1) == Some(&b'u') { 6 } else { 2 };
            // Canonical `\u` escapes are control characters (one byte) or lone surrogates.
            let bytes = if unit < 0x80 { Cow::Owned(vec![unit as u8]) } else { Cow::Owned(wtf8_unit(unit).to_vec()) };
            (bytes, 1, step)
        } else {
            let w = super::units::width(c);
            (Cow::Borrowed(body.get(i..i + w).unwrap_or_default()), if w == 4 { 2 } else { 1 }, w)
        };
        if units + u > n {
            if u == 2 && units < n {
                out.extend_from_slice(&high_surrogate_of(&bytes));
            }
            out.extend_from_slice(TRUNCATION_SUFFIX.as_bytes());
            return Out::Str(Cow::Owned(out));
        }
        out.extend_from_slice(&bytes);
        units += u;
        i += step;
    }
    Out::Raw(text)
}

/// The end of the value starting at `pos` in scanned text.
fn value_end(scan: &Scan<'_>, b: &[u8], pos: usize) -> usize {
    match b.get(pos) {
        Some(b'"') => string_end(b, pos),
        Some(b'{' | b'[') => scan.container(pos).map_or(b.len(), |c| c.end),
        Some(b't' | b'n') => pos + 4,
        Some(b'f') => pos + 5,
        _ => scan_number(b, pos).unwrap_or(b.len()),
    }
}

/// `shrinkField` (§5, as `trim.rs`'s `shrink_field`) of the value spanning `v` in scanned text.
/// `units` is the value text's length in UTF-16 units, used at depth 0 only.
fn shrink_field<'a>(scan: &Scan<'_>, b: &'a [u8], v: Range<usize>, depth: usize, units: usize) -> Out<'a> {
    let text = b.get(v.clone()).unwrap_or_default();
    match text.first() {
        Some(b'"') => cut_string(text, PREVIEW_CHARS),
        Some(b'[') => Out::List(Vec::new()),
        Some(b'{') if depth >= MAX_SHRINK_DEPTH => marker(0, Cow::Borrowed(b"[deeply nested]")),
        Some(b'{') => {
            let len = scan.container(v.start).map_or(0, |c| c.len);
            let mut members: Vec<(&'a [u8], Out<'a>)> = Vec::with_capacity(len.min(MAX_SHRINK_KEYS) + 4);
            let mut pos = v.start + 1;
            for _ in 0..len.min(MAX_SHRINK_KEYS) {
                // A key without escapes: its closing quote is the next quote.
                let close = pos + 1 + b.get(pos + 1..).unwrap_or_default().iter().position(|&c| c == b'"').unwrap_or(0);
                let at = close + 2;
                let end = value_end(scan, b, at);
                members.push((b.get(pos + 1..close).unwrap_or_default(), shrink_field(scan, b, at..end, depth + 1, 0)));
                pos = end + 1;
            }
            let dropped = len.saturating_sub(MAX_SHRINK_KEYS);
            if depth > 0 {
                if dropped > 0 {
                    set(&mut members, MARKER_KEY, Out::Bool(true));
                    set(&mut members, "keysDropped", Out::Count(dropped));
                }
            } else {
                set(&mut members, MARKER_KEY, Out::Bool(true));
                set(&mut members, "bytes", Out::Count(units));
                set(&mut members, "preview", Out::Str(prefix16(text, PREVIEW_CHARS)));
                if dropped > 0 {
                    set(&mut members, "keysDropped", Out::Count(dropped));
                }
            }
            Out::Object(members)
        }
        _ => Out::Raw(text),
    }
}

/// `truncateFields` (§4, as `trim.rs`'s `trim`) over scanned text.
fn trim(scan: &Scan<'_>, fields: &[(Range<usize>, Range<usize>)], b: &[u8], max_bytes: usize) -> Option<String> {
    let total = b.len();
    let sizes: Vec<usize> = fields.iter().map(|(_, v)| len16(b.get(v.clone()).unwrap_or_default())).collect();
    let mut order: Vec<usize> = (0..fields.len()).collect();
    order.sort_by_key(|&i| Reverse(sizes.get(i).copied().unwrap_or(0)));
    let mut out: Vec<(&[u8], Out<'_>)> =
        fields.iter().map(|(k, v)| (b.get(k.clone()).unwrap_or_default(), Out::Raw(b.get(v.clone()).unwrap_or_default()))).collect();
    let mut shrunk: Vec<Out<'_>> = Vec::new();
    let mut remaining = total as i128;
    for i in order {
        if 2 * remaining <= max_bytes as i128 {
            break;
        }
        let (Some((k, v)), Some(&size)) = (fields.get(i), sizes.get(i)) else { break };
        if let Some(slot) = out.get_mut(i) {
            slot.1 = shrink_field(scan, b, v.clone(), 0, size);
        }
        shrunk.push(Out::Str(Cow::Borrowed(b.get(k.clone()).unwrap_or_default())));
        remaining -= size as i128;
    }
    finish_trim(out, shrunk, total, b, max_bytes)
}

/// `serializePayload` (§3) of canonical text, when no skeleton is needed: `None` when the text
/// is not canonical or tier 3 may apply (the caller then takes the value path).
pub(super) fn shrink(text: &str, max_bytes: usize, event: Option<&MessageDesc>) -> Option<Shrunk> {
    let scan = scan(text)?;
    let b: &[u8] = &scan.text;
    let total = b.len();
    if total <= max_bytes {
        return Some(Shrunk { json: into_string(b.to_vec()), tier: 1 });
    }
    if let Some(fields) = &scan.fields {
        if fields.len() <= MAX_TRIM_FIELDS {
            if let Some(json) = trim(&scan, fields, b, max_bytes) {
                if super::skeleton::valid_or_unchecked(event, &json) {
                    return Some(Shrunk { json, tier: 2 });
                }
            }
        }
        if event.is_some() {
            return None;
        }
    }
    let mut json = Vec::new();
    write_out(&mut json, &marker(total, prefix16(b, PREVIEW_CHARS)));
    Some(Shrunk { json: into_string(json), tier: 4 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graphmind::shrink::parse_js_value;

    #[test]
    fn numbers_are_canonical_exactly_when_javascript_spells_them_so() {
        for yes in [
            "0",
            "-1",
            "1.5",
            "0.000001",
            "123456789012345",
            "0.1",
            "-0.5",
            "100000000000000000000",
            "1e+21",
            "1.5e-7",
            "9007199254740992",
            "0.30000000000000004",
        ] {
            assert!(canonical_number(yes.as_bytes()), "{yes}");
        }
        for no in ["-0", "1.0", "1e21", "1E-7", "0.0000001", "1000000000000000000000", "9007199254740993", "1.50", "2e-6", "0.10"] {
            assert!(!canonical_number(no.as_bytes()), "{no}");
        }
    }

    #[test]
    fn the_scan_writes_what_json_stringify_writes() {
        for text in [
            r#"{"a":[1,{"b":"\u0001\ud800x\"\\\n"}],"c":null}"#,
            r#""\udc00\ud800""#,
            "[]",
            "{}",
            r#"{"a":{},"b":[]}"#,
            r#" { "a" : 1.0 , "b" : [ 1e21 , -0, 4.2e-05, 1E400 ] , "c" : { } } "#,
            r#"["\u00e9\/\u001F\ud83d\ude00\uD800\u0041", "é", "\ud83d\ude00x"]"#,
            "[\"\\u00e9\",\n\t1]",
        ] {
            let s = scan(text).unwrap_or_else(|| panic!("{text}"));
            let want = parse_js_value(text).expect("JSON").to_json();
            assert_eq!(String::from_utf8_lossy(&s.text), want, "{text}");
        }
        for text in [r#"{"a":1,"a":2}"#, r#"{"0":1}"#, r#"{"a\n":1}"#, r#"{"a":1}x"#, r#"{"a":1"#, "[1,]", r#"{"a":1]"#, "tru", "\"\\x\"", "[01]", ""] {
            assert!(scan(text).is_none(), "{text}");
        }
        // Duplicates past the pairwise limit are found by the set.
        let wide = (0..40).map(|i| format!("\"k{i}\": {i}")).collect::<Vec<_>>().join(",") + ",";
        assert!(scan(&format!("{{{wide}\"z\":0}}")).is_some());
        assert!(scan(&format!("{{{wide}\"k3\":0}}")).is_none());
    }

    #[test]
    fn spans_point_into_the_rewritten_text() {
        let s = scan(r#"{ "a" : [ 1.0 , { "b" : 2 } ] , "c" : "\u00e9" }"#).expect("scans");
        assert_eq!(&*s.text, r#"{"a":[1,{"b":2}],"c":"é"}"#.as_bytes());
        let fields = s.fields.as_ref().expect("object");
        let at = |r: &Range<usize>| String::from_utf8_lossy(&s.text[r.clone()]).into_owned();
        assert_eq!(fields.iter().map(|(k, v)| (at(k), at(v))).collect::<Vec<_>>(), [("a".into(), "[1,{\"b\":2}]".into()), ("c".into(), "\"é\"".into())]);
        let inner = s.container(8).expect("inner object");
        assert_eq!((inner.end, inner.len), (15, 1));
    }
}
