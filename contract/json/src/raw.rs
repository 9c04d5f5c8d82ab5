//! [`RawJson`]: an opaque JSON value kept as its exact source text, owned or as a span of a
//! [`SharedText`] frame.

use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::ser::Error as _;
use serde::{Serialize, Serializer};

use crate::{reference as json, Val};

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
pub struct SharedText(Arc<dyn AsRef<[u8]> + Send + Sync>);

/// Adapts an owner of text to the byte view [`SharedText`] keeps.
struct StrOwner<T>(T);

impl<T: AsRef<str>> AsRef<[u8]> for StrOwner<T> {
    #[inline]
    fn as_ref(&self) -> &[u8] {
        self.0.as_ref().as_bytes()
    }
}

impl SharedText {
    /// Shares `text` (any owner of immutable text: `String`, `Box<str>`, a binding's buffer).
    pub fn new(text: impl AsRef<str> + Send + Sync + 'static) -> Self {
        SharedText(Arc::new(StrOwner(text)))
    }

    /// `bytes`' buffer as a [`SharedText`] *before* it is known to be UTF-8: for the reader
    /// that checks the bytes as it goes ([`crate::cursor::Cursor::read_shared_bytes`]).
    ///
    /// # Safety
    /// Unless every byte has been checked, nothing may call [`SharedText::as_str`] on the
    /// result or on a clone (clones may leave inside [`RawJson`] spans, which read their own
    /// bytes alone). A span's own bytes must be UTF-8 when the span is made
    /// ([`RawJson::from_span`]).
    #[allow(unsafe_code)]
    pub(crate) unsafe fn unchecked(bytes: &SharedBytes) -> Self {
        SharedText(bytes.0.clone())
    }

    /// The whole text.
    #[inline]
    #[allow(unsafe_code)]
    pub fn as_str(&self) -> &str {
        // SAFETY: a `SharedText` that reaches this holds UTF-8 (made from text by `new`, from
        // checked bytes by `SharedBytes::into_text`; one made by `unchecked` never reaches it,
        // see there); its owner never changes it (type contract above).
        unsafe { std::str::from_utf8_unchecked(self.as_bytes()) }
    }

    /// The whole text as bytes; callable before the bytes are checked.
    #[inline]
    pub(crate) fn as_bytes(&self) -> &[u8] {
        (*self.0).as_ref()
    }
}

/// A frame given as bytes that the values parsed from it may share (a binding's immutable
/// input buffer, e.g. a Python `bytes` object held by reference), not yet known to be UTF-8.
/// A parse checks the bytes while it reads them
/// ([`crate::cursor::Cursor::read_shared_bytes`]); cloning is a reference count.
#[derive(Clone)]
pub struct SharedBytes(Arc<dyn AsRef<[u8]> + Send + Sync>);

impl SharedBytes {
    /// Shares `bytes` (any owner of immutable bytes: `Vec<u8>`, `Box<[u8]>`, a binding's
    /// buffer). The bytes must not change while the value or anything parsed from it is
    /// alive.
    pub fn new(bytes: impl AsRef<[u8]> + Send + Sync + 'static) -> Self {
        SharedBytes(Arc::new(bytes))
    }

    /// The bytes.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        (*self.0).as_ref()
    }

    /// The same buffer as [`SharedText`] (no copy) when it is UTF-8, for readers that need the
    /// whole text up front; `Err(self)` when it is not.
    ///
    /// # Errors
    /// `self` back when the bytes are not UTF-8.
    pub fn into_text(self) -> Result<SharedText, SharedBytes> {
        if simdutf8::basic::from_utf8(self.as_bytes()).is_ok() {
            Ok(SharedText(self.0))
        } else {
            Err(self)
        }
    }
}

impl fmt::Debug for SharedBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SharedBytes({} bytes)", self.as_bytes().len())
    }
}

impl fmt::Debug for SharedText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SharedText({} bytes)", self.as_bytes().len())
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

    /// Wraps text the caller has validated as one JSON value (a [`Val`]'s text); nothing is
    /// checked again, so text from anywhere else goes through [`RawJson::from_json`].
    /// Whitespace between tokens is dropped here, once, so that the stored text is exactly
    /// what `serialize` writes and a parse → serialize → parse round trip compares equal.
    pub fn from_validated(raw: &str) -> Self {
        if !raw.as_bytes().iter().any(|c| matches!(c, b' ' | b'\n' | b'\r' | b'\t')) {
            return RawJson(Repr::Owned(raw.into()));
        }
        let mut out = Vec::with_capacity(raw.len());
        crate::write_compact(&mut out, raw);
        RawJson(Repr::Owned(String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()).into_boxed_str()))
    }

    /// [`RawJson::from_validated`] for `raw` read out of a frame that may be shared: a span of
    /// `shared` when `raw` lies inside its text and holds no whitespace between tokens (the
    /// two-pass reader's counterpart of `Cursor::raw_of`), else a copy.
    pub fn from_validated_in(raw: &str, shared: Option<&SharedText>) -> Self {
        if let Some(text) = shared {
            let (base, at) = (text.as_str().as_ptr() as usize, raw.as_ptr() as usize);
            if at >= base && at + raw.len() <= base + text.as_str().len() && is_compact(raw.as_bytes()) {
                return RawJson::from_span(text, at - base, at - base + raw.len());
            }
        }
        RawJson::from_validated(raw)
    }

    /// Wraps validated text known to hold no whitespace between tokens (a [`Val`]'s text, or
    /// what this crate's writers wrote); nothing is checked again.
    #[inline]
    pub fn from_compact(raw: &str) -> Self {
        RawJson(Repr::Owned(raw.into()))
    }

    /// The compact validated value `text.as_str()[start..end]`, shared rather than copied.
    /// Those bytes must be UTF-8 (the rest of `text` may still be unchecked, see
    /// [`SharedText::unchecked`]): [`RawJson::as_str`] reads the span alone.
    #[inline]
    pub(crate) fn from_span(text: &SharedText, start: usize, end: usize) -> Self {
        debug_assert!(text.as_bytes().get(start..end).is_some_and(|b| std::str::from_utf8(b).is_ok()));
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
            Repr::Span { text, start, end } => span_str(text, *start, *end),
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

    /// Appends the value's text (already compact).
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.as_str().as_bytes());
    }
}

/// `text`'s bytes `start..end` as text. Reads the span alone, so a span made while a reader
/// was still checking the rest of its frame ([`SharedText::unchecked`]) never depends on
/// bytes outside it.
#[inline]
#[allow(unsafe_code)]
fn span_str(text: &SharedText, start: usize, end: usize) -> &str {
    let bytes = &text.as_bytes()[start..end];
    // SAFETY: `from_span` is only given ranges that are UTF-8 (checked by the reader that
    // made the span, or part of a `SharedText` made from text), and the owner of the bytes
    // never changes them (`SharedText`'s contract).
    unsafe { std::str::from_utf8_unchecked(bytes) }
}

/// Whether validated JSON text holds no whitespace outside its strings.
fn is_compact(b: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => i = crate::scan::validated_string_end(b, i).0,
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
