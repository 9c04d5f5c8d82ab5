//! `JSON.stringify` exactly (graphmind-shrink §2 P1, §11): compact, keys in own-key order,
//! JavaScript number spelling, lone surrogates escaped as lowercase `\udxxx`.
//!
//! [`write_value`] walks a [`JsValue`] of any depth with an explicit stack; [`Out`] is the
//! shrink's own result tree (markers, cut strings, references into the payload), whose depth
//! the algorithm bounds (§5 F4: 7 levels; §7 plans: 3), so it is written recursively.

use std::borrow::Cow;
use std::fmt;

use super::value::{JsString, JsValue};
use wirecontract_json::scan::{HIGHS, ONES};
use wirecontract_json::write_f64;

impl JsValue {
    /// `JSON.stringify(value)` (§2 P1): compact, JavaScript number spelling, lone surrogates
    /// escaped. Iterative at any depth.
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        write_value(&mut out, self);
        into_string(out)
    }
}

impl fmt::Debug for JsValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json())
    }
}

/// The offset of the first byte at or after `i` that [`write_str`] must look at (`"`, `\`, a
/// control character, `0xED` which may start a lone surrogate), eight bytes at a time; the
/// tail shorter than eight bytes is left to the byte loop.
#[inline]
fn plain_end(s: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = s.get(i..i + 8) {
        let w = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        let ed = w ^ (ONES * 0xED);
        // Each mask's lowest mark is exact (wirecontract_json::scan::string_stops), so theirs is.
        let stops = wirecontract_json::scan::string_stops(w) | (ed.wrapping_sub(ONES) & !ed & HIGHS);
        if stops != 0 {
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
}

/// Appends `\uXXXX` (lowercase hex) for a code unit below 0x10000, as `JSON.stringify` spells
/// it; without `format!`, which cost most of the time of an escape-heavy payload.
fn push_u_escape(out: &mut Vec<u8>, unit: u32) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digit = |shift: u32| HEX.get(((unit >> shift) & 0xF) as usize).copied().unwrap_or(b'0');
    out.extend_from_slice(&[b'\\', b'u', digit(12), digit(8), digit(4), digit(0)]);
}

/// Appends the JSON string literal of WTF-8 text.
pub(super) fn write_str(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
    let mut seg = 0;
    let mut i = 0;
    loop {
        i = plain_end(s, i);
        let Some(&c) = s.get(i) else { break };
        let esc: &[u8] = match c {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0C => b"\\f",
            0..0x20 => b"",
            // `ED A0..BF` starts a (lone) surrogate; `ED 80..9F` is ordinary text.
            0xED if s.get(i + 1).is_some_and(|&n| n >= 0xA0) => b"",
            _ => {
                i += 1;
                continue;
            }
        };
        out.extend_from_slice(s.get(seg..i).unwrap_or_default());
        if esc.is_empty() && c == 0xED {
            let unit = 0xD000 | (u32::from(s.get(i + 1).copied().unwrap_or(0) & 0x3F) << 6) | u32::from(s.get(i + 2).copied().unwrap_or(0) & 0x3F);
            push_u_escape(out, unit);
            i += 3;
        } else {
            if esc.is_empty() {
                push_u_escape(out, u32::from(c));
            } else {
                out.extend_from_slice(esc);
            }
            i += 1;
        }
        seg = i;
    }
    out.extend_from_slice(s.get(seg..).unwrap_or_default());
    out.push(b'"');
}

/// An open container while writing.
enum Open<'a> {
    Array(std::slice::Iter<'a, JsValue>),
    Object(std::slice::Iter<'a, (JsString, JsValue)>),
}

/// Appends `JSON.stringify(v)`. Iterative at any depth; O(size of the output).
pub(super) fn write_value(out: &mut Vec<u8>, v: &JsValue) {
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut next = Some(v);
    loop {
        if let Some(v) = next.take() {
            match v {
                JsValue::Null => out.extend_from_slice(b"null"),
                JsValue::Bool(true) => out.extend_from_slice(b"true"),
                JsValue::Bool(false) => out.extend_from_slice(b"false"),
                JsValue::Number(x) => write_f64(out, *x),
                JsValue::String(s) => write_str(out, s.as_wtf8()),
                JsValue::Array(items) => {
                    out.push(b'[');
                    let mut it = items.iter();
                    next = it.next();
                    stack.push(Open::Array(it));
                    if next.is_some() {
                        continue;
                    }
                }
                JsValue::Object(o) => {
                    out.push(b'{');
                    let mut it = o.entries().iter();
                    if let Some((k, v)) = it.next() {
                        write_str(out, k.as_wtf8());
                        out.push(b':');
                        next = Some(v);
                    }
                    stack.push(Open::Object(it));
                    if next.is_some() {
                        continue;
                    }
                }
            }
        }
        // A value is complete: write the separator and the next sibling, or close.
        let Some(top) = stack.last_mut() else { return };
        match top {
            Open::Array(it) => {
                if let Some(v) = it.next() {
                    out.push(b',');
                    next = Some(v);
                } else {
                    out.push(b']');
                    stack.pop();
                }
            }
            Open::Object(it) => {
                if let Some((k, v)) = it.next() {
                    out.push(b',');
                    write_str(out, k.as_wtf8());
                    out.push(b':');
                    next = Some(v);
                } else {
                    out.push(b'}');
                    stack.pop();
                }
            }
        }
    }
}

/// A value of a shrink result: new nodes of bounded depth over references into the payload.
pub(super) enum Out<'a> {
    /// A payload value written as is (any depth).
    Ref(&'a JsValue),
    /// A span of `JSON.stringify`-exact text, written verbatim (the single pass, `text.rs`).
    Raw(&'a [u8]),
    /// A boolean.
    Bool(bool),
    /// An integer count (`bytes`, `keysDropped`), exact below 2^53.
    Count(usize),
    /// A string as WTF-8.
    Str(Cow<'a, [u8]>),
    /// An array.
    List(Vec<Out<'a>>),
    /// An object in the order its keys were set.
    Object(Vec<(&'a [u8], Out<'a>)>),
}

/// Sets `key` with JavaScript assignment semantics (§2 P4): an existing key keeps its place.
/// Only marker keys are set this way, and none of them is an array index, so appending a new
/// key is the JavaScript order.
pub(super) fn set<'a>(obj: &mut Vec<(&'a [u8], Out<'a>)>, key: &'a str, value: Out<'a>) {
    match obj.iter_mut().find(|(k, _)| *k == key.as_bytes()) {
        Some(slot) => slot.1 = value,
        None => obj.push((key.as_bytes(), value)),
    }
}

/// Appends `JSON.stringify` of a shrink result.
pub(super) fn write_out(out: &mut Vec<u8>, v: &Out<'_>) {
    match v {
        Out::Ref(v) => write_value(out, v),
        Out::Raw(text) => out.extend_from_slice(text),
        Out::Bool(true) => out.extend_from_slice(b"true"),
        Out::Bool(false) => out.extend_from_slice(b"false"),
        Out::Count(n) => write_f64(out, *n as f64),
        Out::Str(s) => write_str(out, s),
        Out::List(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_out(out, item);
            }
            out.push(b']');
        }
        Out::Object(members) => {
            out.push(b'{');
            for (i, (k, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_str(out, k);
                out.push(b':');
                write_out(out, item);
            }
            out.push(b'}');
        }
    }
}

/// The writer's bytes as a `String`. They are always UTF-8 (every lone surrogate is escaped);
/// the lossy fallback only guards that invariant.
pub(super) fn into_string(out: Vec<u8>) -> String {
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte loop `write_str` had before the eight-byte skip: the reference for the test.
    fn slow(s: &[u8]) -> Vec<u8> {
        let mut out = vec![b'"'];
        let mut i = 0;
        while let Some(&c) = s.get(i) {
            match c {
                b'"' => out.extend_from_slice(b"\\\""),
                b'\\' => out.extend_from_slice(b"\\\\"),
                b'\n' => out.extend_from_slice(b"\\n"),
                b'\r' => out.extend_from_slice(b"\\r"),
                b'\t' => out.extend_from_slice(b"\\t"),
                0x08 => out.extend_from_slice(b"\\b"),
                0x0C => out.extend_from_slice(b"\\f"),
                0..0x20 => out.extend_from_slice(format!("\\u{c:04x}").as_bytes()),
                0xED if s.get(i + 1).is_some_and(|&n| n >= 0xA0) => {
                    let unit = 0xD000 | (u32::from(s[i + 1] & 0x3F) << 6) | u32::from(s.get(i + 2).copied().unwrap_or(0) & 0x3F);
                    out.extend_from_slice(format!("\\u{unit:04x}").as_bytes());
                    i += 2;
                }
                _ => out.push(c),
            }
            i += 1;
        }
        out.push(b'"');
        out
    }

    #[test]
    fn every_special_byte_at_every_offset_of_an_eight_byte_chunk() {
        let specials: [&[u8]; 9] = [b"\"", b"\\", b"\n", b"\x01", b"\x1f", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xed\x9f\xbf", "한😀é".as_bytes()];
        for special in specials {
            for at in 0..20 {
                for len in [at, at + 1, at + 7, at + 8, at + 9, 40] {
                    let mut s = vec![b'a'; at];
                    s.extend_from_slice(special);
                    s.resize(len.max(s.len()), b'b');
                    s.extend_from_slice(special);
                    let mut out = Vec::new();
                    write_str(&mut out, &s);
                    assert_eq!(String::from_utf8_lossy(&out), String::from_utf8_lossy(&slow(&s)), "{special:?} at {at}, len {len}");
                }
            }
        }
    }
}
