//! Ordered records of raw JSON members: [`Extras`], the unknown members of a loose object,
//! kept in order with their raw values, and [`OpaqueObject`], a field holding such a record
//! (its wire rule, `impl WireValue`, is in `scalars.rs` with the other value types').

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use wirecontract_json::RawJson;
use wirecontract_json::{self as json, decode_string};

/// The empty [`Extras`] that strict objects (which have no unknown members) return from
/// [`Reflect::extra`](super::Reflect::extra).
pub(crate) static NO_EXTRAS: Extras = Extras { members: None };

/// Unknown members of a loose object, in first-seen order, values as raw JSON (spec
/// graphmind-v1 §1 "Every object is loose", §5.4 duplicate keys: last value wins, first
/// position kept, as `JSON.parse` does). Known fields never land here.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Extras {
    /// `None` while there are none (always, for almost every object): every declared object
    /// holds an `Extras` and parsed values are moved whole, so its size is paid on every
    /// frame (8 bytes boxed, 72 inline). Never `Some` with no entries, so the derived
    /// equality holds.
    members: Option<Box<ExtraMembers>>,
}

/// The members of a non-empty [`Extras`].
#[derive(Clone, PartialEq, Eq)]
struct ExtraMembers {
    /// `(escaped key text, value)`; the key is kept escaped so it round-trips byte for byte.
    entries: Vec<(Box<str>, RawJson)>,
    /// Index of decoded keys, built only for objects with many members (bounded time on a
    /// 1,000,000-key object).
    index: Option<HashMap<String, usize>>,
}

impl fmt::Debug for Extras {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.entries().iter().map(|(k, v)| (k, v))).finish()
    }
}

const EXTRAS_INDEX_THRESHOLD: usize = 16;

impl Extras {
    /// No unknown members.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of unknown members.
    pub fn len(&self) -> usize {
        self.entries().len()
    }

    /// `true` when there are none.
    pub fn is_empty(&self) -> bool {
        self.members.is_none()
    }

    /// `(escaped key text, value)` in order.
    fn entries(&self) -> &[(Box<str>, RawJson)] {
        self.members.as_deref().map_or(&[], |m| &m.entries)
    }

    /// Looks a member up by its decoded name.
    pub fn get(&self, name: &str) -> Option<&RawJson> {
        self.position(name).map(|i| &self.entries()[i].1)
    }

    /// Iterates `(decoded name, value)` in order. Names with lone-surrogate escapes decode
    /// lossily (U+FFFD); [`Extras::iter_raw`] gives the escaped form.
    pub fn iter(&self) -> impl Iterator<Item = (Cow<'_, str>, &RawJson)> {
        self.entries().iter().map(|(k, v)| (decode_string(k).text, v))
    }

    /// Iterates `(escaped name, value)` in order: the name exactly as it sat between the
    /// quotes on the wire.
    pub fn iter_raw(&self) -> impl Iterator<Item = (&str, &RawJson)> {
        self.entries().iter().map(|(k, v)| (&**k, v))
    }

    /// Sets a member by decoded name: replaces the value in place if present, else appends.
    pub fn insert(&mut self, name: &str, value: RawJson) {
        let mut quoted = Vec::with_capacity(name.len() + 2);
        json::write_string(&mut quoted, name);
        let escaped = String::from_utf8_lossy(&quoted[1..quoted.len() - 1]).into_owned();
        self.insert_escaped(&escaped, value);
    }

    fn position(&self, name: &str) -> Option<usize> {
        let members = self.members.as_deref()?;
        if let Some(index) = &members.index {
            return index.get(name).copied();
        }
        members.entries.iter().position(|(k, _)| if k.contains('\\') { decode_string(k).text == name } else { &**k == name })
    }

    /// Last-wins insert of an escaped key.
    pub(crate) fn insert_escaped(&mut self, escaped: &str, value: RawJson) {
        let decoded = decode_string(escaped).text;
        if let Some(i) = self.position(&decoded) {
            if let Some(members) = &mut self.members {
                members.entries[i].1 = value;
            }
            return;
        }
        let members = self.members.get_or_insert_with(|| Box::new(ExtraMembers { entries: Vec::new(), index: None }));
        if let Some(index) = &mut members.index {
            index.insert(decoded.into_owned(), members.entries.len());
        } else if members.entries.len() >= EXTRAS_INDEX_THRESHOLD {
            let mut index: HashMap<String, usize> = members.entries.iter().enumerate().map(|(i, (k, _))| (decode_string(k).text.into_owned(), i)).collect();
            index.insert(decoded.into_owned(), members.entries.len());
            members.index = Some(index);
        }
        members.entries.push((escaped.into(), value));
    }

    pub(crate) fn write_members(&self, out: &mut Vec<u8>, first: &mut bool) {
        self.write_members_except(out, first, &[]);
    }

    /// Writes the members whose name is not one of `known`: a known field is written from its
    /// typed value, so an entry a caller put into the public `extra` under a known name (the
    /// parser never does) must not write the key a second time.
    pub(crate) fn write_members_except(&self, out: &mut Vec<u8>, first: &mut bool, known: &[&str]) {
        for (k, v) in self.entries() {
            if !known.is_empty() && known.iter().any(|name| if k.contains('\\') { decode_string(k).text == *name } else { &**k == *name }) {
                continue;
            }
            if !std::mem::take(first) {
                out.push(b',');
            }
            out.push(b'"');
            out.extend_from_slice(k.as_bytes());
            out.extend_from_slice(b"\":");
            v.write(out);
        }
    }
}

impl Serialize for Extras {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(&k, v)?;
        }
        map.end()
    }
}

impl JsonSchema for Extras {
    fn schema_name() -> Cow<'static, str> {
        "Extras".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        // Flattened into every object: says "open", never `additionalProperties: false`.
        json_schema!({ "type": "object", "additionalProperties": true })
    }
}

/// A string-keyed record of opaque values (`run.started.meta`): must be an object; members
/// keep their order and raw values.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct OpaqueObject(pub Extras);

impl JsonSchema for OpaqueObject {
    fn schema_name() -> Cow<'static, str> {
        "Record".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "object", "additionalProperties": true })
    }
}
