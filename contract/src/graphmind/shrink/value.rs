//! The JavaScript value model the shrink works on (graphmind-shrink §2, §14 A5): what
//! `JSON.parse` produces, with JavaScript's semantics kept where they change the output.
//!
//! - Numbers are doubles ([`JsValue::Number`]); `Infinity` (from `1e400`) is kept and written
//!   `null`.
//! - Strings are sequences of UTF-16 code units, stored as WTF-8 ([`JsString`]) so lone
//!   surrogates survive and plain text costs one byte a character.
//! - Objects enumerate in JavaScript own-key order (§2 P4, [`JsObject`]): canonical array-index
//!   keys first, ascending, then the other keys in insertion order; setting an existing key
//!   keeps its position.
//!
//! Dropping a value is iterative, so a 100,000-level nesting cannot overflow the stack.

use std::collections::HashMap;
use std::fmt;

/// A JavaScript string: UTF-16 code units held as WTF-8 bytes (UTF-8, with a lone surrogate
/// as its 3-byte generalized UTF-8 sequence; a surrogate pair is always the 4-byte character).
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct JsString(Vec<u8>);

impl JsString {
    /// From WTF-8 bytes the caller vouches for (the reader and the shrink only).
    pub(super) fn from_wtf8_unchecked(bytes: Vec<u8>) -> Self {
        JsString(bytes)
    }

    /// From UTF-16 code units, lone surrogates kept.
    pub fn from_utf16(units: &[u16]) -> Self {
        let mut out = Vec::with_capacity(units.len());
        for r in char::decode_utf16(units.iter().copied()) {
            match r {
                Ok(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
                Err(e) => out.extend_from_slice(&super::units::wtf8_unit(u32::from(e.unpaired_surrogate()))),
            }
        }
        JsString(out)
    }

    /// The WTF-8 bytes.
    pub fn as_wtf8(&self) -> &[u8] {
        &self.0
    }

    /// Length in UTF-16 code units (JavaScript's `length`).
    pub fn len_utf16(&self) -> usize {
        super::units::len16(&self.0)
    }

    /// The text with each lone surrogate replaced by U+FFFD.
    pub fn to_string_lossy(&self) -> String {
        String::from_utf8_lossy(&self.0).into_owned()
    }
}

impl From<&str> for JsString {
    fn from(s: &str) -> Self {
        JsString(s.as_bytes().to_vec())
    }
}

impl From<String> for JsString {
    fn from(s: String) -> Self {
        JsString(s.into_bytes())
    }
}

impl fmt::Debug for JsString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string_lossy(), f)
    }
}

/// A JSON value with JavaScript semantics (what `JSON.parse` returns).
///
/// Build one with [`super::parse_js_value`], or by hand; [`fmt::Debug`] prints its
/// `JSON.stringify` text.
pub enum JsValue {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A double; NaN and ±Infinity are written `null`, `-0` is written `0`.
    Number(f64),
    /// A string.
    String(JsString),
    /// An array.
    Array(Vec<JsValue>),
    /// An object.
    Object(JsObject),
}

/// A JavaScript object's own enumerable properties in own-key order (§2 P4).
#[derive(Default)]
pub struct JsObject {
    entries: Vec<(JsString, JsValue)>,
}

/// `Some(i)` when `key` is a canonical array index (`0` … `2^32 − 2`, no leading zero), which
/// JavaScript enumerates before every other key.
fn array_index(key: &[u8]) -> Option<u32> {
    if key.is_empty() || key.len() > 10 || (key.len() > 1 && key[0] == b'0') || !key.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = key.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'));
    (n <= u64::from(u32::MAX - 1)).then_some(n as u32)
}

impl JsObject {
    /// An empty object.
    pub fn new() -> Self {
        JsObject::default()
    }

    /// An object built as `JSON.parse` builds one from members in text order: a duplicate key
    /// keeps its first position and takes the last value; index keys are then moved first.
    pub fn from_entries(entries: Vec<(JsString, JsValue)>) -> Self {
        let mut entries = dedupe(entries);
        if entries.iter().any(|(k, _)| array_index(&k.0).is_some()) {
            // Stable: non-index keys keep insertion order; index keys are unique after dedupe.
            entries.sort_by_key(|(k, _)| array_index(&k.0).map_or(u64::MAX, u64::from));
        }
        JsObject { entries }
    }

    /// Sets a property with JavaScript assignment semantics: an existing key keeps its place.
    pub fn insert(&mut self, key: JsString, value: JsValue) {
        if let Some(slot) = self.entries.iter_mut().find(|(k, _)| *k == key) {
            slot.1 = value;
            return;
        }
        let at = match array_index(&key.0) {
            Some(i) => self.entries.iter().position(|(k, _)| array_index(&k.0).is_none_or(|j| j > i)).unwrap_or(self.entries.len()),
            None => self.entries.len(),
        };
        self.entries.insert(at, (key, value));
    }

    /// The properties in own-key order.
    pub fn entries(&self) -> &[(JsString, JsValue)] {
        &self.entries
    }

    /// The value of own key `key`.
    pub fn get(&self, key: &str) -> Option<&JsValue> {
        self.entries.iter().find(|(k, _)| k.0 == key.as_bytes()).map(|(_, v)| v)
    }

    /// The number of own keys.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the object has no own keys.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Last value wins, first position kept. Linear: small objects scan, larger ones hash.
fn dedupe(entries: Vec<(JsString, JsValue)>) -> Vec<(JsString, JsValue)> {
    let n = entries.len();
    let dup_of: Vec<Option<usize>> = if n <= 8 {
        (0..n).map(|i| (0..i).find(|&j| entries[j].0 == entries[i].0)).collect()
    } else {
        let mut seen: HashMap<&[u8], usize> = HashMap::with_capacity(n);
        entries
            .iter()
            .enumerate()
            .map(|(i, (k, _))| {
                seen.get(k.0.as_slice()).copied().or_else(|| {
                    seen.insert(&k.0, i);
                    None
                })
            })
            .collect()
    };
    if dup_of.iter().all(Option::is_none) {
        return entries;
    }
    let mut out: Vec<(JsString, JsValue)> = Vec::with_capacity(n);
    let mut slot_of = vec![0usize; n];
    for (i, (k, v)) in entries.into_iter().enumerate() {
        if let Some(first) = dup_of[i] {
            out[slot_of[first]].1 = v;
        } else {
            slot_of[i] = out.len();
            out.push((k, v));
        }
    }
    out
}

impl Drop for JsValue {
    /// Iterative: children are moved onto a heap stack and dropped one level at a time.
    fn drop(&mut self) {
        fn take(v: &mut JsValue, stack: &mut Vec<JsValue>) {
            match v {
                JsValue::Array(items) => stack.append(items),
                JsValue::Object(o) => stack.extend(std::mem::take(&mut o.entries).into_iter().map(|(_, v)| v)),
                _ => {}
            }
        }
        let nested = match self {
            JsValue::Array(items) => items.iter().any(JsValue::is_nonempty_container),
            JsValue::Object(o) => o.entries.iter().any(|(_, v)| v.is_nonempty_container()),
            _ => false,
        };
        if !nested {
            return;
        }
        let mut stack = Vec::new();
        take(self, &mut stack);
        while let Some(mut v) = stack.pop() {
            take(&mut v, &mut stack);
        }
    }
}

impl JsValue {
    fn is_nonempty_container(&self) -> bool {
        match self {
            JsValue::Array(a) => !a.is_empty(),
            JsValue::Object(o) => !o.is_empty(),
            _ => false,
        }
    }

    /// The object, when this is one.
    pub fn as_object(&self) -> Option<&JsObject> {
        match self {
            JsValue::Object(o) => Some(o),
            _ => None,
        }
    }
}

// `JsValue::to_json` and its `Debug` (the JSON text) live in `write.rs`, which imports this
// file; this file imports no other shrink file.

impl fmt::Debug for JsObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JsObject({} keys)", self.entries.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_key_order() {
        let o = JsObject::from_entries(vec![
            ("b".into(), JsValue::Null),
            ("1".into(), JsValue::Null),
            ("01".into(), JsValue::Null),
            ("0".into(), JsValue::Null),
            ("b".into(), JsValue::Bool(true)),
        ]);
        let keys: Vec<_> = o.entries().iter().map(|(k, _)| k.to_string_lossy()).collect();
        assert_eq!(keys, ["0", "1", "b", "01"]);
        assert!(matches!(o.get("b"), Some(JsValue::Bool(true))));
        assert_eq!(array_index(b"4294967294"), Some(4_294_967_294));
        assert_eq!(array_index(b"4294967295"), None);
    }
}
