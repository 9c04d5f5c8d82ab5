//! Opaque JSON text ⇄ a host tree (`JsonValue`), for hosts without a JSON library at hand.
//! Semantics follow `JSON.parse`: duplicate keys keep the last value at the first position;
//! numbers keep their exact text (`1e400` stays `1e400`; convert with `toDouble()`/`Double(_:)`
//! or a big-decimal type when needed). Lone-surrogate escapes in strings decode to U+FFFD:
//! keep the text when they matter.

// uniffi exports receive owned values from the host.
#![allow(clippy::needless_pass_by_value)]

use std::collections::HashMap;

use wirecontract_json::{self as json, decode_string, write_string, Elements, JsonKind, Members, Val};

use wirecontract::wire::IssuePath;

use crate::{guard, ContractError, HostString, JsonText};

/// Deepest tree [`decode_json`] builds. uniffi copies trees recursively, so deeper values stay
/// text (they are still parsed, kept and serialized exactly; only the tree view refuses).
pub const JSON_VALUE_MAX_DEPTH: u32 = 128;

/// A decoded JSON value. Variant names carry a `Value` suffix so none shadows a standard
/// type (`Array`, `Number`, `Object`) in Kotlin or Swift.
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum JsonValue {
    /// `null`
    NullValue,
    /// `true` / `false`
    BoolValue {
        /// The value.
        value: bool,
    },
    /// A number, as its exact JSON text.
    NumberValue {
        /// The JSON number text (`42`, `-0.5`, `1e400`).
        text: HostString,
    },
    /// A string (lone surrogates decoded to U+FFFD).
    TextValue {
        /// The decoded string.
        value: HostString,
    },
    /// An array.
    ArrayValue {
        /// The elements, in order.
        items: Vec<JsonValue>,
    },
    /// An object.
    ObjectValue {
        /// The members, in first-seen order (duplicate names: the last value wins).
        members: Vec<JsonMember>,
    },
}

/// One member of a [`JsonValue::ObjectValue`].
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct JsonMember {
    /// The decoded member name.
    pub name: HostString,
    /// The value.
    pub value: JsonValue,
}

/// The deepest tree `decodeJson` builds ([`JSON_VALUE_MAX_DEPTH`]).
#[uniffi::export]
pub fn json_value_max_depth() -> i64 {
    i64::from(JSON_VALUE_MAX_DEPTH)
}

/// Decodes JSON text (an opaque field, `extraJson`, a raw payload) into a [`JsonValue`] tree.
///
/// Throws `ContractError.Json` when the text is not one JSON value or nests deeper than
/// [`JSON_VALUE_MAX_DEPTH`].
#[uniffi::export]
pub fn decode_json(text: JsonText) -> Result<JsonValue, ContractError> {
    guard(|| {
        let text = text.text().map_err(|e| ContractError::Json { reason: format!("text: {}", e.message()) })?;
        json::validate(text, json::DEFAULT_MAX_DEPTH).map_err(|e| ContractError::Json { reason: format!("not valid JSON: {e}") })?;
        to_tree(Val::root(text))
    })
}

fn too_deep() -> ContractError {
    ContractError::Json { reason: format!("value nests deeper than {JSON_VALUE_MAX_DEPTH} levels: keep it as JSON text") }
}

/// A container being filled while [`to_tree`] walks the text.
enum Open<'s> {
    Array(Elements<'s>, Vec<JsonValue>),
    /// The members so far, an index of their names, and the name of the member being read.
    Object(Members<'s>, Vec<JsonMember>, HashMap<String, usize>, String),
}

/// Builds the tree iteratively: no recursion, so the caller's stack depth does not matter
/// (hosts call from threads with small stacks).
fn to_tree(root: Val<'_>) -> Result<JsonValue, ContractError> {
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut next = Some(root);
    loop {
        let mut done = None;
        if let Some(v) = next.take() {
            match v.kind() {
                JsonKind::Null => done = Some(JsonValue::NullValue),
                JsonKind::Bool => done = Some(JsonValue::BoolValue { value: v.as_bool() == Some(true) }),
                JsonKind::Number => done = Some(JsonValue::NumberValue { text: HostString::from(v.raw()) }),
                JsonKind::String => {
                    done = Some(JsonValue::TextValue { value: HostString::from(decode_string(v.string_raw().unwrap_or_default()).text.into_owned()) });
                }
                JsonKind::Array | JsonKind::Object if stack.len() >= JSON_VALUE_MAX_DEPTH as usize => return Err(too_deep()),
                JsonKind::Array => stack.push(Open::Array(v.elements(), Vec::new())),
                JsonKind::Object => stack.push(Open::Object(v.members(), Vec::new(), HashMap::new(), String::new())),
            }
        }
        // Attach finished values upwards until some container has another child to read.
        loop {
            if let Some(value) = done.take() {
                match stack.last_mut() {
                    None => return Ok(value),
                    Some(Open::Array(_, items)) => items.push(value),
                    Some(Open::Object(_, members, index, name)) => {
                        let name = std::mem::take(name);
                        if let Some(&i) = index.get(&name) {
                            members[i].value = value;
                        } else {
                            index.insert(name.clone(), members.len());
                            members.push(JsonMember { name: HostString::from(name), value });
                        }
                    }
                }
            }
            let advanced = match stack.last_mut() {
                None => unreachable!("a container is open while values are attached"),
                Some(Open::Array(it, _)) => it.next(),
                Some(Open::Object(it, _, _, name)) => it.next().map(|(k, v)| {
                    *name = decode_string(k).text.into_owned();
                    v
                }),
            };
            if advanced.is_some() {
                next = advanced;
                break;
            }
            done = Some(match stack.pop() {
                Some(Open::Array(_, items)) => JsonValue::ArrayValue { items },
                Some(Open::Object(_, members, _, _)) => JsonValue::ObjectValue { members },
                None => unreachable!("checked above"),
            });
        }
    }
}

/// Encodes a [`JsonValue`] as compact JSON text (what `JSON.stringify` writes), for building
/// opaque fields from host values.
///
/// Throws `ContractError.Json` when a `NumberValue` holds text that is not a JSON number, or
/// (Kotlin) a string or member name holds a lone surrogate, which UTF-8 cannot carry (naming its
/// path in the tree and its UTF-16 index).
#[uniffi::export]
pub fn encode_json(value: JsonValue) -> Result<JsonText, ContractError> {
    guard(|| {
        if let Some((path, message)) = first_lone_surrogate(&value) {
            let at = if path.is_empty() { String::new() } else { format!("{}: ", path.dotted()) };
            return Err(ContractError::Json { reason: format!("{at}{message}") });
        }
        tree_text(&value).map(JsonText::from).map_err(|(path, message)| {
            let at = if path.is_empty() { String::new() } else { format!("{}: ", path.dotted()) };
            ContractError::Json { reason: format!("{at}{message}") }
        })
    })
}

/// A string of the tree as text (a lone surrogate was refused by [`first_lone_surrogate`]
/// before writing; this is the backstop).
fn host_text(s: &HostString) -> Result<&str, ContractError> {
    s.to_str().map_err(|e| ContractError::Json { reason: e.message() })
}

/// The path (from the tree's root) and the rule of the first string or member name holding a
/// lone surrogate (a Kotlin string; UTF-8 cannot carry it), walked without recursion.
pub(crate) fn first_lone_surrogate(root: &JsonValue) -> Option<(IssuePath, String)> {
    first_in_tree(root, |v| match v {
        JsonValue::NumberValue { text: s } | JsonValue::TextValue { value: s } => s.to_str().err().map(crate::host_string::LoneSurrogate::message),
        _ => None,
    })
}

/// The path and rule of the first value `leaf_rule` refuses, or of the first member name
/// holding a lone surrogate, in document order, walked without recursion (trees from hosts may
/// be deeper than the stack). Paths are cloned per member: only callers that run after a
/// failure, or once per host tree, use this.
fn first_in_tree(root: &JsonValue, leaf_rule: impl Fn(&JsonValue) -> Option<String>) -> Option<(IssuePath, String)> {
    let mut stack: Vec<(&JsonValue, IssuePath)> = vec![(root, IssuePath::root())];
    while let Some((v, path)) = stack.pop() {
        match v {
            JsonValue::ArrayValue { items } => {
                for (i, item) in items.iter().enumerate().rev() {
                    let mut p = path.clone();
                    p.push_index(i);
                    stack.push((item, p));
                }
            }
            JsonValue::ObjectValue { members } => {
                for m in members.iter().rev() {
                    let mut p = path.clone();
                    match m.name.to_str() {
                        Ok(name) => p.push_key(name),
                        Err(e) => return Some((path, format!("member name: {}", e.message()))),
                    }
                    stack.push((&m.value, p));
                }
            }
            leaf => {
                if let Some(rule) = leaf_rule(leaf) {
                    return Some((path, rule));
                }
            }
        }
    }
    None
}

/// The tree as JSON text, or the path (empty: the root) and rule of what has no JSON form: a
/// `NumberValue` whose text is not a JSON number, found again by its path only on failure
/// ([`first_bad_number`] clones paths).
pub(crate) fn tree_text(value: &JsonValue) -> Result<String, (IssuePath, String)> {
    let mut out = Vec::new();
    match write_tree(value, &mut out) {
        Ok(()) => Ok(String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())),
        Err(e) => Err(first_bad_number(value).unwrap_or_else(|| (IssuePath::root(), e.to_string()))),
    }
}

/// The path and rule of the first `NumberValue` whose text is not one JSON number (after
/// [`first_lone_surrogate`]: every string of the tree is text), walked without recursion.
pub(crate) fn first_bad_number(root: &JsonValue) -> Option<(IssuePath, String)> {
    first_in_tree(root, |v| match v {
        JsonValue::NumberValue { text } => text.to_str().ok().and_then(number_error),
        _ => None,
    })
}

/// Why `text` is not one JSON number (`not a JSON number: "abc"`), or `None` when it is.
fn number_error(text: &str) -> Option<String> {
    let ok = json::validate(text, 1).is_ok() && Val::root(text).kind() == JsonKind::Number;
    (!ok).then(|| format!("not a JSON number: {text:?}"))
}

/// A container being written by [`write_tree`]: its children and the position reached.
enum Writing<'v> {
    Array(std::slice::Iter<'v, JsonValue>, bool),
    Object(std::slice::Iter<'v, JsonMember>, bool),
}

/// Writes the tree iteratively (no recursion, like [`to_tree`]).
fn write_tree(root: &JsonValue, out: &mut Vec<u8>) -> Result<(), ContractError> {
    let mut stack: Vec<Writing<'_>> = Vec::new();
    let mut next = Some(root);
    loop {
        if let Some(v) = next.take() {
            match v {
                JsonValue::NullValue => out.extend_from_slice(b"null"),
                JsonValue::BoolValue { value } => out.extend_from_slice(if *value { b"true" } else { b"false" }),
                JsonValue::NumberValue { text } => {
                    let text = host_text(text)?;
                    if let Some(reason) = number_error(text) {
                        return Err(ContractError::Json { reason });
                    }
                    out.extend_from_slice(Val::root(text).raw().as_bytes());
                }
                JsonValue::TextValue { value } => write_string(out, host_text(value)?),
                JsonValue::ArrayValue { items } => {
                    out.push(b'[');
                    stack.push(Writing::Array(items.iter(), true));
                }
                JsonValue::ObjectValue { members } => {
                    out.push(b'{');
                    stack.push(Writing::Object(members.iter(), true));
                }
            }
        }
        loop {
            match stack.last_mut() {
                None => return Ok(()),
                Some(Writing::Array(it, first)) => {
                    if let Some(item) = it.next() {
                        if !std::mem::take(first) {
                            out.push(b',');
                        }
                        next = Some(item);
                        break;
                    }
                    out.push(b']');
                }
                Some(Writing::Object(it, first)) => {
                    if let Some(m) = it.next() {
                        if !std::mem::take(first) {
                            out.push(b',');
                        }
                        write_string(out, host_text(&m.name)?);
                        out.push(b':');
                        next = Some(&m.value);
                        break;
                    }
                    out.push(b'}');
                }
            }
            stack.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_keeps_number_text_and_last_duplicate_at_first_position() {
        let v = decode_json(JsonText::from(r#"{"a":1e400,"b":[true,null],"a":"x"}"#)).unwrap();
        let JsonValue::ObjectValue { members } = &v else { panic!("{v:?}") };
        assert_eq!(members.len(), 2);
        assert_eq!(members[0].value, JsonValue::TextValue { value: "x".into() });
        assert_eq!(encode_json(v).unwrap().0, r#"{"a":"x","b":[true,null]}"#);
        assert_eq!(encode_json(JsonValue::NumberValue { text: "1e400".into() }).unwrap().0, "1e400");
    }

    #[test]
    fn deep_values_and_bad_numbers_are_errors_not_crashes() {
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(matches!(decode_json(JsonText(deep)), Err(ContractError::Json { .. })));
        assert!(decode_json(JsonText("[".repeat(128) + &"]".repeat(128))).is_ok());
        assert!(matches!(encode_json(JsonValue::NumberValue { text: "NaN".into() }), Err(ContractError::Json { .. })));
        assert!(matches!(decode_json(JsonText::from("{")), Err(ContractError::Json { .. })));
    }
}
