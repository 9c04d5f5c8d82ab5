//! [`RawJson`]: an opaque JSON value kept as its exact source text, owned or as a span of a
//! [`SharedText`] frame.

use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::ser::Error as _;
use serde::{Serialize, Serializer};

use super::json::{self, Val};

/// An opaque JSON value kept as its exact source text (spec graphmind-v1 §5.7): numbers such
/// as `1e400`, lone-surrogate escapes and any depth survive byte for byte.
///
/// Construct from text with [`RawJson::from_json`] (validated) or from a serde value with
/// [`RawJson::from_value`]; convert with [`RawJson::to_value`] when a host value is wanted.
/// A frame parsed from a [`SharedText`] keeps its compact opaque values as spans of that text
/// (no copy); equality, hashing and every accessor see only the text.
#[derive(Clone)]
pub struct RawJson(Repr);

#[derive(Clone)]
enum Repr {
    Owned(Box<str>),
    /// `text.as_str()[start..end]`, a whole compact JSON value.
    Span {
        text: SharedText,
        start: usize,
        end: usize,
    },
}

/// Frame text that the values parsed from it may share instead of copying (a binding's input
/// buffer, e.g. a Python `bytes` object held by reference). Cloning is a reference count.
///
/// The text must not change while any clone is alive: [`SharedText::as_str`] is read again
/// on every access to a span.
#[derive(Clone)]
pub struct SharedText(Arc<dyn AsRef<str> + Send + Sync>);

impl SharedText {
    /// Shares `text` (any owner of immutable text: `String`, `Box<str>`, a binding's buffer).
    pub fn new(text: impl AsRef<str> + Send + Sync + 'static) -> Self {
        SharedText(Arc::new(text))
    }

    /// The whole text.
    #[inline]
    pub fn as_str(&self) -> &str {
        (*self.0).as_ref()
    }
}

impl fmt::Debug for SharedText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SharedText({} bytes)", self.as_str().len())
    }
}

impl PartialEq for RawJson {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for RawJson {}

impl Hash for RawJson {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.as_str().hash(h);
    }
}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawJson({})", self.as_str())
    }
}

impl fmt::Display for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl RawJson {
    /// The JSON `null`.
    pub fn null() -> Self {
        RawJson(Repr::Owned("null".into()))
    }

    /// Wraps already validated text. Crate-internal: callers outside have to go through
    /// [`RawJson::from_json`].
    /// Whitespace between tokens is dropped here, once, so that the stored text is exactly
    /// what `serialize` writes and a parse → serialize → parse round trip compares equal.
    pub(crate) fn from_validated(raw: &str) -> Self {
        if !raw.as_bytes().iter().any(|c| matches!(c, b' ' | b'\n' | b'\r' | b'\t')) {
            return RawJson(Repr::Owned(raw.into()));
        }
        let mut out = Vec::with_capacity(raw.len());
        json::write_compact(&mut out, raw);
        RawJson(Repr::Owned(String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()).into_boxed_str()))
    }

    /// [`RawJson::from_validated`] for `raw` read out of a frame that may be shared: a span of
    /// `shared` when `raw` lies inside its text and holds no whitespace between tokens (the
    /// two-pass reader's counterpart of `Cursor::raw_of`), else a copy.
    pub(crate) fn from_validated_in(raw: &str, shared: Option<&SharedText>) -> Self {
        if let Some(text) = shared {
            let (base, at) = (text.as_str().as_ptr() as usize, raw.as_ptr() as usize);
            if at >= base && at + raw.len() <= base + text.as_str().len() && is_compact(raw.as_bytes()) {
                return RawJson::from_span(text, at - base, at - base + raw.len());
            }
        }
        RawJson::from_validated(raw)
    }

    /// Wraps validated text known to hold no whitespace between tokens.
    #[inline]
    pub(crate) fn from_compact(raw: &str) -> Self {
        RawJson(Repr::Owned(raw.into()))
    }

    /// The compact validated value `text.as_str()[start..end]`, shared rather than copied.
    #[inline]
    pub(crate) fn from_span(text: &SharedText, start: usize, end: usize) -> Self {
        debug_assert!(text.as_str().get(start..end).is_some());
        RawJson(Repr::Span { text: text.clone(), start, end })
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
        RawJson(Repr::Owned(value.to_string().into()))
    }

    /// The exact JSON text.
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Owned(s) => s,
            Repr::Span { text, start, end } => &text.as_str()[*start..*end],
        }
    }

    /// Whether the value is a span of a [`SharedText`] (no copy of its own).
    pub fn is_shared(&self) -> bool {
        matches!(self.0, Repr::Span { .. })
    }

    /// `true` for the JSON `null`.
    pub fn is_null(&self) -> bool {
        self.as_str() == "null"
    }

    /// Decodes into a `serde_json::Value`.
    ///
    /// # Errors
    /// When serde_json cannot represent the value: a lone surrogate, a number outside f64
    /// range (`1e400`), or nesting deeper than 128.
    pub fn to_value(&self) -> serde_json::Result<serde_json::Value> {
        serde_json::from_str(self.as_str())
    }

    /// Writes the value (already compact).
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.as_str().as_bytes());
    }
}

/// Whether validated JSON text holds no whitespace outside its strings.
fn is_compact(b: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => i = super::cursor::validated_string_end(b, i).0,
            b' ' | b'\n' | b'\r' | b'\t' => return false,
            _ => i += 1,
        }
    }
    true
}

impl Serialize for RawJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match serde_json::value::RawValue::from_string(self.as_str().to_owned()) {
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
