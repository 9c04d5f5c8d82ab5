//! The protocol-independent core: JSON reading with exact numbers and WTF-16-safe strings
//! ([`json`]), issue paths, raw opaque values, preserved unknown fields, and the field traits
//! that the per-protocol declarations are built from.

pub mod cursor;
pub mod json;
pub(crate) mod schema;
#[macro_use]
mod macros;

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use cursor::Cursor;
use json::{decode_string, JsonKind, Val};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::ser::{Error as _, SerializeMap};
use serde::{Serialize, Serializer};

/// One validation failure: where (`path`) and which rule (`message`).
///
/// `path` is the reference's dotted form counted from the frame root, array indices as
/// numbers (`payload.deltas.0.t`); `""` is the root. Spec graphmind-v1 §2 and §5.2.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Issue {
    /// Dotted path from the frame root, `""` for the root itself.
    pub path: String,
    /// Stable English text naming the rule (expected type, allowed values, bound).
    pub message: String,
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "(root): {}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

wire_enum! {
    /// The stable code of a validation issue: zod's issue codes as the Graphorin contract names
    /// them (spec graphorin-v1 §13 "Parse API"). Protocol-independent; a [`Ctx`] records one per
    /// issue only when built with `Ctx::with_codes`.
    pub enum IssueCode {
        /// Wrong JSON type, a required field that is absent, or a number that is not an integer.
        InvalidType = "invalid_type",
        /// A literal field (`v`, `jsonrpc`) with any other value, or absent.
        InvalidLiteral = "invalid_literal",
        /// A key a strict object does not declare.
        UnrecognizedKeys = "unrecognized_keys",
        /// Below a lower bound: an empty string where `min(1)` applies, a negative count.
        TooSmall = "too_small",
        /// Above an upper bound (an integer outside the Rust type's range).
        TooBig = "too_big",
        /// A string outside a closed enum.
        InvalidEnum = "invalid_enum",
        /// A union discriminator (`kind`, `method`) that is absent or names no variant.
        InvalidDiscriminator = "invalid_discriminator",
        /// Any other rule (refinements).
        Custom = "custom",
    }
}

/// One segment of an issue path: an object key (decoded) or an array index, as zod's
/// `issue.path` holds them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(untagged)]
pub enum PathSegment {
    /// An object member name.
    Key(String),
    /// An array position, 0-based.
    Index(usize),
}

impl fmt::Display for PathSegment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathSegment::Key(k) => f.write_str(k),
            PathSegment::Index(i) => write!(f, "{i}"),
        }
    }
}

/// A path being walked, as a linked list on the stack: no allocation until an issue is made.
#[derive(Clone, Copy)]
#[doc(hidden)]
pub enum Path<'p> {
    Root,
    Key(&'p Path<'p>, &'p str),
    Index(&'p Path<'p>, usize),
}

impl Path<'_> {
    pub(crate) fn render(&self) -> String {
        let mut segs: Vec<String> = Vec::new();
        let mut cur = self;
        loop {
            match cur {
                Path::Root => break,
                Path::Key(p, k) => {
                    segs.push((*k).to_owned());
                    cur = p;
                }
                Path::Index(p, i) => {
                    segs.push(i.to_string());
                    cur = p;
                }
            }
        }
        segs.reverse();
        segs.join(".")
    }

    /// The path as segments from the root (empty for the root).
    pub(crate) fn segments(&self) -> Vec<PathSegment> {
        let mut segs = Vec::new();
        let mut cur = self;
        loop {
            match cur {
                Path::Root => break,
                Path::Key(p, k) => {
                    segs.push(PathSegment::Key((*k).to_owned()));
                    cur = p;
                }
                Path::Index(p, i) => {
                    segs.push(PathSegment::Index(*i));
                    cur = p;
                }
            }
        }
        segs.reverse();
        segs
    }
}

/// Collects issues while a frame is read.
#[doc(hidden)]
pub struct Ctx {
    pub(crate) issues: Vec<Issue>,
    /// Code and path segments of each issue, parallel to `issues`; kept only when built with
    /// [`Ctx::with_codes`], so readers that do not need them pay nothing.
    pub(crate) coded: Option<Vec<(IssueCode, Vec<PathSegment>)>>,
}

impl Ctx {
    pub(crate) fn new() -> Self {
        Ctx { issues: Vec::new(), coded: None }
    }

    /// A context that also records each issue's [`IssueCode`] and path segments.
    pub(crate) fn with_codes() -> Self {
        Ctx { issues: Vec::new(), coded: Some(Vec::new()) }
    }

    /// Records an issue with code [`IssueCode::Custom`].
    pub fn issue(&mut self, path: &Path<'_>, message: impl Into<String>) {
        self.issue_with(path, IssueCode::Custom, message);
    }

    /// Records an issue with its code.
    pub fn issue_with(&mut self, path: &Path<'_>, code: IssueCode, message: impl Into<String>) {
        self.issues.push(Issue { path: path.render(), message: message.into() });
        if let Some(coded) = &mut self.coded {
            coded.push((code, path.segments()));
        }
    }

    /// The issues with their codes and path segments. A context not built with
    /// [`Ctx::with_codes`] reports [`IssueCode::Custom`] and the dotted path split on `.`.
    pub(crate) fn into_coded(self) -> Vec<(Issue, IssueCode, Vec<PathSegment>)> {
        let mut coded = self.coded.unwrap_or_default().into_iter();
        self.issues
            .into_iter()
            .map(|issue| {
                let (code, segs) = coded.next().unwrap_or_else(|| {
                    let segs = if issue.path.is_empty() { Vec::new() } else { issue.path.split('.').map(|s| PathSegment::Key(s.to_owned())).collect() };
                    (IssueCode::Custom, segs)
                });
                (issue, code, segs)
            })
            .collect()
    }

    /// Records "expected X, received Y" and returns `None`.
    pub fn expected<T>(&mut self, path: &Path<'_>, what: &str, got: Option<Val<'_>>) -> Option<T> {
        let received = match got {
            None => "undefined (the field is required)",
            Some(v) => v.kind().name(),
        };
        let suffix = if got.is_some_and(|v| v.kind() == JsonKind::Null) { " (optional fields are not nullable)" } else { "" };
        self.issue_with(path, IssueCode::InvalidType, format!("expected {what}, received {received}{suffix}"));
        None
    }
}

/// An opaque JSON value kept as its exact source text (spec graphmind-v1 §5.7): numbers such
/// as `1e400`, lone-surrogate escapes and any depth survive byte for byte.
///
/// Construct from text with [`RawJson::from_json`] (validated) or from a serde value with
/// [`RawJson::from_value`]; convert with [`RawJson::to_value`] when a host value is wanted.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RawJson(Box<str>);

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawJson({})", self.0)
    }
}

impl fmt::Display for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl RawJson {
    /// The JSON `null`.
    pub fn null() -> Self {
        RawJson("null".into())
    }

    /// Wraps already validated text. Crate-internal: callers outside have to go through
    /// [`RawJson::from_json`].
    /// Whitespace between tokens is dropped here, once, so that the stored text is exactly
    /// what `serialize` writes and a parse → serialize → parse round trip compares equal.
    pub(crate) fn from_validated(raw: &str) -> Self {
        if !raw.as_bytes().iter().any(|c| matches!(c, b' ' | b'\n' | b'\r' | b'\t')) {
            return RawJson(raw.into());
        }
        let mut out = Vec::with_capacity(raw.len());
        json::write_compact(&mut out, raw);
        RawJson(String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()).into_boxed_str())
    }

    /// Wraps validated text known to hold no whitespace between tokens.
    #[inline]
    pub(crate) fn from_compact(raw: &str) -> Self {
        RawJson(raw.into())
    }

    /// Validates `text` as exactly one JSON value (the frame reader's rules, any depth up to
    /// [`json::DEFAULT_MAX_DEPTH`]) and keeps its tokens verbatim, whitespace between them
    /// dropped.
    ///
    /// # Errors
    /// [`json::SyntaxError`] when `text` is not one JSON value.
    pub fn from_json(text: &str) -> Result<Self, json::SyntaxError> {
        json::validate(text, json::DEFAULT_MAX_DEPTH)?;
        Ok(RawJson::from_validated(Val::root(text).raw()))
    }

    /// Serializes a serde value (compact).
    pub fn from_value(value: &serde_json::Value) -> Self {
        RawJson(value.to_string().into())
    }

    /// The exact JSON text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `true` for the JSON `null`.
    pub fn is_null(&self) -> bool {
        &*self.0 == "null"
    }

    /// Decodes into a `serde_json::Value`.
    ///
    /// # Errors
    /// When serde_json cannot represent the value: a lone surrogate, a number outside f64
    /// range (`1e400`), or nesting deeper than 128.
    pub fn to_value(&self) -> serde_json::Result<serde_json::Value> {
        serde_json::from_str(&self.0)
    }

    /// Writes the value (already compact).
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.0.as_bytes());
    }
}

impl Serialize for RawJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match serde_json::value::RawValue::from_string(self.0.to_string()) {
            Ok(raw) => raw.serialize(s),
            Err(e) => Err(S::Error::custom(format!("opaque value not representable by serde_json: {e}"))),
        }
    }
}

impl JsonSchema for RawJson {
    fn schema_name() -> Cow<'static, str> {
        "AnyJson".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        Schema::from(true)
    }
}

/// The empty [`Extras`] that strict objects (which have no unknown members) return from
/// [`Reflect::extra`].
pub(crate) static NO_EXTRAS: Extras = Extras { entries: Vec::new(), index: None };

/// Unknown members of a loose object, in first-seen order, values as raw JSON (spec
/// graphmind-v1 §1 "Every object is loose", §5.4 duplicate keys: last value wins, first
/// position kept, as `JSON.parse` does). Known fields never land here.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Extras {
    /// `(escaped key text, value)`; the key is kept escaped so it round-trips byte for byte.
    entries: Vec<(Box<str>, RawJson)>,
    /// Index of decoded keys, built only for objects with many members (bounded time on a
    /// 1,000,000-key object).
    index: Option<HashMap<String, usize>>,
}

impl fmt::Debug for Extras {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.entries.iter().map(|(k, v)| (k, v))).finish()
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
        self.entries.len()
    }

    /// `true` when there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Looks a member up by its decoded name.
    pub fn get(&self, name: &str) -> Option<&RawJson> {
        self.position(name).map(|i| &self.entries[i].1)
    }

    /// Iterates `(decoded name, value)` in order. Names with lone-surrogate escapes decode
    /// lossily (U+FFFD); [`Extras::iter_raw`] gives the escaped form.
    pub fn iter(&self) -> impl Iterator<Item = (Cow<'_, str>, &RawJson)> {
        self.entries.iter().map(|(k, v)| (decode_string(k).text, v))
    }

    /// Iterates `(escaped name, value)` in order: the name exactly as it sat between the
    /// quotes on the wire.
    pub fn iter_raw(&self) -> impl Iterator<Item = (&str, &RawJson)> {
        self.entries.iter().map(|(k, v)| (&**k, v))
    }

    /// Sets a member by decoded name: replaces the value in place if present, else appends.
    pub fn insert(&mut self, name: &str, value: RawJson) {
        let mut quoted = Vec::with_capacity(name.len() + 2);
        json::write_string(&mut quoted, name);
        let escaped = String::from_utf8_lossy(&quoted[1..quoted.len() - 1]).into_owned();
        self.insert_escaped(&escaped, value);
    }

    fn position(&self, name: &str) -> Option<usize> {
        if let Some(index) = &self.index {
            return index.get(name).copied();
        }
        self.entries.iter().position(|(k, _)| if k.contains('\\') { decode_string(k).text == name } else { &**k == name })
    }

    /// Last-wins insert of an escaped key.
    pub(crate) fn insert_escaped(&mut self, escaped: &str, value: RawJson) {
        let decoded = decode_string(escaped).text;
        if let Some(i) = self.position(&decoded) {
            self.entries[i].1 = value;
            return;
        }
        if let Some(index) = &mut self.index {
            index.insert(decoded.into_owned(), self.entries.len());
        } else if self.entries.len() >= EXTRAS_INDEX_THRESHOLD {
            let mut index: HashMap<String, usize> = self.entries.iter().enumerate().map(|(i, (k, _))| (decode_string(k).text.into_owned(), i)).collect();
            index.insert(decoded.into_owned(), self.entries.len());
            self.index = Some(index);
        }
        self.entries.push((escaped.into(), value));
    }

    pub(crate) fn write_members(&self, out: &mut Vec<u8>, first: &mut bool) {
        self.write_members_except(out, first, &[]);
    }

    /// Writes the members whose name is not one of `known`: a known field is written from its
    /// typed value, so an entry a caller put into the public `extra` under a known name (the
    /// parser never does) must not write the key a second time.
    pub(crate) fn write_members_except(&self, out: &mut Vec<u8>, first: &mut bool, known: &[&str]) {
        for (k, v) in &self.entries {
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
        let mut map = s.serialize_map(Some(self.entries.len()))?;
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

// ---------------------------------------------------------------------------------------------
// Field traits: how one declared field is read from and written to the wire.
// ---------------------------------------------------------------------------------------------

/// A value type that can sit in a contract field: reads itself from validated JSON (recording
/// issues) and writes itself as `JSON.stringify` would.
pub trait WireValue: Sized {
    /// What the value is, for "expected …" messages (`"string"`, `"object (ErrorInfo)"`).
    #[doc(hidden)]
    const EXPECTED: &'static str;
    /// The value's type in the registry (scalar rule, enum, object or list).
    const TY: crate::registry::Ty;
    /// Reads from `v`, recording every issue under `path`. `None` when invalid.
    #[doc(hidden)]
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self>;
    /// Appends the JSON form.
    #[doc(hidden)]
    fn write(&self, out: &mut Vec<u8>);
    /// A borrowed, type-erased view for the bindings' reflection.
    fn field_ref(&self) -> FieldRef<'_>;
    /// The single-pass read (see [`cursor`]): `Some` only for a value the reference
    /// [`WireValue::read`] accepts without any issue, and then the same value; `None` means
    /// "bail to the reference path". The default validates and skips the value, then runs
    /// [`WireValue::read`] on it.
    #[doc(hidden)]
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        let v = cur.val()?;
        let mut ctx = Ctx::new();
        let r = Self::read(&mut ctx, v, &Path::Root);
        if ctx.issues.is_empty() {
            r
        } else {
            None
        }
    }
}

/// How a declared field behaves when absent: required values record an issue, `Option`
/// fields stay `None`. `null` is never "absent" (optional is not nullable, §5.11).
pub trait WireField: Sized {
    /// The value type (for `Option<T>`, `T`'s).
    const TY: crate::registry::Ty;
    /// `false` for `Option<T>`.
    const REQUIRED: bool;
    #[doc(hidden)]
    fn read_field(ctx: &mut Ctx, v: Option<Val<'_>>, path: &Path<'_>) -> Option<Self>;
    #[doc(hidden)]
    fn write_field(&self, key: &str, out: &mut Vec<u8>, first: &mut bool);
    /// `true` for an absent optional field (serde's `skip_serializing_if`).
    fn is_absent(&self) -> bool {
        false
    }
    /// The field's reflection view; `None` when absent.
    fn field_ref_opt(&self) -> Option<FieldRef<'_>>;
    /// Single-pass read of a present member's value (`None`: bail, see [`cursor`]).
    #[doc(hidden)]
    fn read_present_fast(cur: &mut Cursor<'_>) -> Option<Self>;
    /// The field's value when its key is absent; `None` (bail) for a required field.
    #[doc(hidden)]
    fn absent_fast() -> Option<Self>;
}

#[doc(hidden)]
pub(crate) fn write_key(out: &mut Vec<u8>, key: &str, first: &mut bool) {
    if !std::mem::take(first) {
        out.push(b',');
    }
    out.push(b'"');
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\":");
}

impl<T: WireValue> WireField for T {
    const TY: crate::registry::Ty = T::TY;
    const REQUIRED: bool = true;
    fn read_field(ctx: &mut Ctx, v: Option<Val<'_>>, path: &Path<'_>) -> Option<Self> {
        if let Some(v) = v {
            return T::read(ctx, v, path);
        }
        ctx.issue_with(path, IssueCode::InvalidType, format!("expected {}, received undefined (the field is required)", T::EXPECTED));
        None
    }
    fn write_field(&self, key: &str, out: &mut Vec<u8>, first: &mut bool) {
        write_key(out, key, first);
        self.write(out);
    }
    fn field_ref_opt(&self) -> Option<FieldRef<'_>> {
        Some(self.field_ref())
    }
    #[inline]
    fn read_present_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        T::read_fast(cur)
    }
    #[inline]
    fn absent_fast() -> Option<Self> {
        None
    }
}

impl<T: WireValue> WireField for Option<T> {
    const TY: crate::registry::Ty = T::TY;
    const REQUIRED: bool = false;
    fn read_field(ctx: &mut Ctx, v: Option<Val<'_>>, path: &Path<'_>) -> Option<Self> {
        match v {
            None => Some(None),
            Some(v) => T::read(ctx, v, path).map(Some),
        }
    }
    fn write_field(&self, key: &str, out: &mut Vec<u8>, first: &mut bool) {
        if let Some(v) = self {
            write_key(out, key, first);
            v.write(out);
        }
    }
    fn is_absent(&self) -> bool {
        self.is_none()
    }
    fn field_ref_opt(&self) -> Option<FieldRef<'_>> {
        self.as_ref().map(WireValue::field_ref)
    }
    #[inline]
    fn read_present_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        T::read_fast(cur).map(Some)
    }
    #[inline]
    fn absent_fast() -> Option<Self> {
        Some(None)
    }
}

impl WireValue for String {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::String);
    const EXPECTED: &'static str = "string";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        match v.string_raw() {
            Some(raw) => Some(decode_string(raw).text.into_owned()),
            None => ctx.expected(path, "string", Some(v)),
        }
    }
    fn write(&self, out: &mut Vec<u8>) {
        json::write_string(out, self);
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::Str(self)
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        Some(cur.string()?.decoded_lossy().into_owned())
    }
}

impl WireValue for bool {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::Bool);
    const EXPECTED: &'static str = "boolean";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        v.as_bool().or_else(|| ctx.expected(path, "boolean", Some(v)))
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(if *self { b"true" } else { b"false" });
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::Bool(*self)
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        cur.boolean()
    }
}

fn read_safe_int(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<i64> {
    let Some(x) = v.as_f64() else {
        return ctx.expected(path, "integer", Some(v));
    };
    if let Some(i) = json::safe_integer(x) {
        return Some(i);
    }
    if x.is_finite() && x.trunc() == x {
        ctx.issue_with(path, IssueCode::TooBig, format!("too big: expected a safe integer (|x| <= {}), received {}", json::MAX_SAFE_INTEGER, v.raw()));
    } else {
        ctx.issue_with(path, IssueCode::InvalidType, format!("expected integer, received {}", v.raw()));
    }
    None
}

/// `u64` fields hold a nonnegative safe integer: `0 ≤ x ≤ 2^53 − 1`, any spelling (`1e3`,
/// `1.0`, `-0`). Spec graphmind-v1 §5.6.
impl WireValue for u64 {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::SafeUInt);
    const EXPECTED: &'static str = "nonnegative integer";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        let i = read_safe_int(ctx, v, path)?;
        if i < 0 {
            ctx.issue_with(path, IssueCode::TooSmall, format!("too small: expected integer to be >= 0, received {}", v.raw()));
            return None;
        }
        Some(i as u64)
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.to_string().as_bytes());
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::UInt(*self)
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        let i = json::safe_integer(cur.number_value()?)?;
        (i >= 0).then_some(i as u64)
    }
}

/// `i64` fields hold any safe integer, `|x| ≤ 2^53 − 1`.
impl WireValue for i64 {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::SafeInt);
    const EXPECTED: &'static str = "integer";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        read_safe_int(ctx, v, path)
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.to_string().as_bytes());
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::Int(*self)
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        json::safe_integer(cur.number_value()?)
    }
}

/// `NonZeroU64` fields hold a positive safe integer (`> 0`).
impl WireValue for std::num::NonZeroU64 {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::PositiveSafeUInt);
    const EXPECTED: &'static str = "positive integer";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        let i = read_safe_int(ctx, v, path)?;
        if i <= 0 {
            ctx.issue_with(path, IssueCode::TooSmall, format!("too small: expected integer to be > 0, received {}", v.raw()));
            return None;
        }
        std::num::NonZeroU64::new(i as u64)
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.to_string().as_bytes());
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::UInt(self.get())
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        let i = json::safe_integer(cur.number_value()?)?;
        if i <= 0 {
            return None;
        }
        std::num::NonZeroU64::new(i as u64)
    }
}

/// `f64` fields hold any finite double; `1e400` (Infinity in `JSON.parse`) is invalid.
impl WireValue for f64 {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::Finite);
    const EXPECTED: &'static str = "number";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        let Some(x) = v.as_f64() else {
            return ctx.expected(path, "number", Some(v));
        };
        if !x.is_finite() {
            ctx.issue_with(path, IssueCode::InvalidType, format!("expected a finite number, received {} (Infinity)", v.raw()));
            return None;
        }
        Some(x)
    }
    fn write(&self, out: &mut Vec<u8>) {
        json::write_f64(out, *self);
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::Number(*self)
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        let x = cur.number_value()?;
        x.is_finite().then_some(x)
    }
}

/// A nonnegative finite double (`durationMs`, `heldMs`: milliseconds, fractions allowed).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize)]
#[serde(transparent)]
pub struct NonNegativeF64(f64);

impl NonNegativeF64 {
    /// `Some` when `x` is finite and `≥ 0`.
    pub fn new(x: f64) -> Option<Self> {
        (x.is_finite() && x >= 0.0).then_some(NonNegativeF64(x))
    }
    /// The value.
    pub fn get(self) -> f64 {
        self.0
    }
}

impl JsonSchema for NonNegativeF64 {
    fn schema_name() -> Cow<'static, str> {
        "NonNegativeNumber".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "number", "minimum": 0 })
    }
}

impl WireValue for NonNegativeF64 {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::NonNegativeFinite);
    const EXPECTED: &'static str = "nonnegative number";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        let x = f64::read(ctx, v, path)?;
        if x < 0.0 {
            ctx.issue_with(path, IssueCode::TooSmall, format!("too small: expected number to be >= 0, received {}", v.raw()));
            return None;
        }
        Some(NonNegativeF64(x))
    }
    fn write(&self, out: &mut Vec<u8>) {
        json::write_f64(out, self.0);
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::Number(self.0)
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        NonNegativeF64::new(cur.number_value()?)
    }
}

/// Opaque fields accept any JSON value, `null` included, and keep its text.
impl WireValue for RawJson {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::Opaque);
    const EXPECTED: &'static str = "any JSON value";
    fn read(_: &mut Ctx, v: Val<'_>, _: &Path<'_>) -> Option<Self> {
        Some(RawJson::from_validated(v.raw()))
    }
    fn write(&self, out: &mut Vec<u8>) {
        RawJson::write(self, out);
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::Raw(self)
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        cur.raw_json()
    }
}

impl<T: WireValue> WireValue for Vec<T> {
    const TY: crate::registry::Ty = crate::registry::Ty::List(&T::TY);
    const EXPECTED: &'static str = "array";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        if v.kind() != JsonKind::Array {
            return ctx.expected(path, "array", Some(v));
        }
        let mut out = Vec::new();
        let mut ok = true;
        for (i, el) in v.elements().enumerate() {
            match T::read(ctx, el, &Path::Index(path, i)) {
                Some(x) if ok => out.push(x),
                Some(_) => {}
                None => ok = false,
            }
        }
        ok.then_some(out)
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.push(b'[');
        for (i, x) in self.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            x.write(out);
        }
        out.push(b']');
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::List(self.iter().map(WireValue::field_ref).collect())
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        let mut out = Vec::new();
        if cur.array_start()? {
            loop {
                out.push(T::read_fast(cur)?);
                if !cur.more_elements()? {
                    break;
                }
            }
        }
        Some(out)
    }
}

/// A string-keyed record of opaque values (`run.started.meta`): must be an object; members
/// keep their order and raw values.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Record(pub Extras);

impl JsonSchema for Record {
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

impl WireValue for Record {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::OpaqueRecord);
    const EXPECTED: &'static str = "object";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        if v.kind() != JsonKind::Object {
            return ctx.expected(path, "object", Some(v));
        }
        let mut extras = Extras::new();
        for (k, val) in v.members() {
            extras.insert_escaped(k, RawJson::from_validated(val.raw()));
        }
        Some(Record(extras))
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.push(b'{');
        let mut first = true;
        self.0.write_members(out, &mut first);
        out.push(b'}');
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::Record(self)
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        let mut extras = Extras::new();
        if cur.object_start()? {
            loop {
                let key = cur.key()?;
                extras.insert_escaped(key.raw, cur.raw_json()?);
                if !cur.more_members()? {
                    break;
                }
            }
        }
        Some(Record(extras))
    }
}

/// A borrowed view of one field value, for bindings that walk the contract generically
/// (Python attribute access, `to_dict`, the uniffi conversions).
#[derive(Debug)]
pub enum FieldRef<'a> {
    /// A string field (decoded).
    Str(&'a str),
    /// A boolean field.
    Bool(bool),
    /// A nonnegative integer field (`≤ 2^53 − 1`).
    UInt(u64),
    /// A signed integer field (`|x| ≤ 2^53 − 1`).
    Int(i64),
    /// A finite number field.
    Number(f64),
    /// A closed-enum field: its wire string.
    Enum(&'static str),
    /// An opaque field: its raw JSON text.
    Raw(&'a RawJson),
    /// A string-keyed record of opaque values.
    Record(&'a Record),
    /// A nested contract object.
    Object(&'a dyn Reflect),
    /// An array field.
    List(Vec<FieldRef<'a>>),
}

/// The registry entry of a declared object type (`wire_object!`, `wire_strict_object!`).
pub trait Described {
    /// Name, doc, fields with typed descriptions, literals, strictness, reader.
    const DESC: crate::registry::ObjectDesc;
}

/// Object-safe reflection over a contract object.
pub trait Reflect: fmt::Debug + Send + Sync {
    /// The type's registry entry.
    fn desc(&self) -> &'static crate::registry::ObjectDesc;
    /// A known field by wire name; `None` when absent or not a field of this type.
    fn get(&self, wire: &str) -> Option<FieldRef<'_>>;
    /// The unknown members.
    fn extra(&self) -> &Extras;
    /// Appends the object's JSON, exactly as inside a serialized frame.
    fn write_json(&self, out: &mut Vec<u8>);
    /// The type's name (`NodeStarted`).
    fn type_name(&self) -> &'static str {
        self.desc().name
    }
    /// Known fields in spec order.
    fn fields(&self) -> &'static [crate::registry::FieldDesc] {
        self.desc().fields
    }
    /// Constant members `(wire name, string value)` of a strict frame, in wire order.
    fn literals(&self) -> &'static [(&'static str, &'static str)] {
        self.desc().literals
    }
    /// `true` for a strict object: an unknown member makes it invalid, so [`Reflect::extra`]
    /// is always empty.
    fn is_strict(&self) -> bool {
        self.desc().strict
    }
}

/// [`from_json`] boxed as a reflected object: the registry's `read_json` for each type.
#[doc(hidden)]
pub fn read_boxed<T: WireValue + Reflect + 'static>(text: &str) -> Result<Box<dyn Reflect>, Vec<Issue>> {
    from_json::<T>(text).map(|x| Box::new(x) as Box<dyn Reflect>)
}

/// The issue message for a value outside a closed enum.
pub(crate) fn enum_message(values: &[&str], raw: &str) -> String {
    let allowed: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
    format!("invalid option: expected one of {}, received {raw}", allowed.join("|"))
}

/// Reads one contract value (any declared object, enum or field type) from JSON text with the
/// frame reader's rules: the building block bindings use to accept host values.
///
/// # Errors
/// Every issue found (paths relative to the value, `""` for the value itself); a syntax
/// error is one issue at `""`.
pub fn from_json<T: WireValue>(text: &str) -> Result<T, Vec<Issue>> {
    if let Err(e) = json::validate(text, json::DEFAULT_MAX_DEPTH) {
        return Err(vec![Issue { path: String::new(), message: format!("not valid JSON: {e}") }]);
    }
    let mut ctx = Ctx::new();
    T::read(&mut ctx, Val::root(text), &Path::Root).ok_or(ctx.issues)
}

/// Writes one contract value as JSON (`JSON.stringify` rules).
pub fn to_json<T: WireValue>(value: &T) -> String {
    let mut out = Vec::new();
    value.write(&mut out);
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A value as an issue message names it: scalars as their JSON text (long ones cut at 64
/// bytes), containers by type.
pub(crate) fn describe_received(v: Option<Val<'_>>) -> String {
    let Some(v) = v else { return "undefined".to_owned() };
    match v.kind() {
        JsonKind::Object | JsonKind::Array => v.kind().name().to_owned(),
        _ => {
            let raw = v.raw();
            if raw.len() <= 64 {
                return raw.to_owned();
            }
            let mut cut = 64;
            while !raw.is_char_boundary(cut) {
                cut -= 1;
            }
            format!("{}…", &raw[..cut])
        }
    }
}

/// A key as JSON text, for issue messages.
pub(crate) fn quote_key(key: &str) -> String {
    let mut out = Vec::with_capacity(key.len() + 2);
    json::write_string(&mut out, key);
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Checks a string literal member of a strict object (`wire_strict_object!`'s `const`
/// entries): the last occurrence in `seen` must be a string equal to `value` after unescaping.
/// Records an `invalid_literal` issue at `path.wire` otherwise (absent included, as zod 3's
/// `z.literal` does).
pub(crate) fn read_literal(ctx: &mut Ctx, seen: &[(&'static str, Val<'_>)], wire: &str, value: &str, path: &Path<'_>) -> bool {
    let got = seen.iter().rev().find(|(k, _)| *k == wire).map(|(_, v)| *v);
    let ok = got.and_then(|v| v.string_raw()).is_some_and(|raw| decode_string(raw).text == value);
    if !ok {
        ctx.issue_with(
            &Path::Key(path, wire),
            IssueCode::InvalidLiteral,
            format!("invalid literal: expected {}, received {}", quote_key(value), describe_received(got)),
        );
    }
    ok
}
