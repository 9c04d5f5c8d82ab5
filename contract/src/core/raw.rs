//! [`RawJson`]: an opaque JSON value kept as its exact source text.

use std::borrow::Cow;
use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::ser::Error as _;
use serde::{Serialize, Serializer};

use super::json::{self, Val};

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
