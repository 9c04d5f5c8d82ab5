//! The unserializable path (§9): what `serializePayload` returns when the host's
//! `JSON.stringify` refuses the payload (a cycle, a BigInt, a throwing `toJSON` or getter,
//! nesting past the engine's stack). No JSON text can hold such a value, so the host, which
//! alone can tell which of its values stringify, hands over a *projection*: the payload as
//! JSON text with every refused value replaced by a stand-in, and the top-level keys whose
//! values were refused. The rules (U1–U5) are applied here.

use std::borrow::Cow;

use super::value::{JsString, JsValue};
use super::{parse_js_value, skeleton, stringify_with_spans, trim, write, Shrunk, MARKER_KEY, MAX_TRIM_FIELDS};
use wirecontract_json::SyntaxError;

/// The `preview` of the whole-payload marker (U5) and of the skeleton (U4).
pub const UNSERIALIZABLE_PAYLOAD: &str = "[unserializable payload]";
/// The `preview` of the marker that replaces a refused top-level field (U1).
pub const UNSERIALIZABLE_VALUE: &str = "[unserializable value]";

/// A top-level field whose value the host's `JSON.stringify` refused (§9 U1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefusedField {
    /// The field's key.
    pub key: String,
    /// Whether the refused value is an array (it is then replaced by `[]`, else by the
    /// `[unserializable value]` marker).
    pub is_array: bool,
}

/// `truncateUnserializableFields` (U1) over the projection: every field in place, a refused
/// one replaced, then `__graphmindTruncated: true` and `fields` (set semantics). `None` when
/// no field was refused.
fn trim_refused(o: &super::value::JsObject, refused: &[RefusedField]) -> Option<String> {
    if refused.is_empty() {
        return None;
    }
    let is_refused = |k: &JsString| refused.iter().find(|r| r.key.as_bytes() == k.as_wtf8());
    let mut fields = Vec::new();
    let mut out = vec![b'{'];
    let mut first = true;
    let mut member = |out: &mut Vec<u8>, key: &[u8]| {
        if !first {
            out.push(b',');
        }
        first = false;
        write::write_str(out, key);
        out.push(b':');
    };
    let write_fields = |out: &mut Vec<u8>, fields: &[&[u8]]| {
        out.push(b'[');
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write::write_str(out, f);
        }
        out.push(b']');
    };
    for (k, _) in o.entries() {
        if is_refused(k).is_some() {
            fields.push(k.as_wtf8());
        }
    }
    if fields.is_empty() {
        return None;
    }
    let (mut has_marker, mut has_fields) = (false, false);
    for (k, v) in o.entries() {
        member(&mut out, k.as_wtf8());
        if k.as_wtf8() == MARKER_KEY.as_bytes() {
            has_marker = true;
            out.extend_from_slice(b"true");
        } else if k.as_wtf8() == b"fields" {
            has_fields = true;
            write_fields(&mut out, &fields);
        } else if let Some(r) = is_refused(k) {
            if r.is_array {
                out.extend_from_slice(b"[]");
            } else {
                write::write_out(&mut out, &trim::marker(0, Cow::Borrowed(UNSERIALIZABLE_VALUE.as_bytes())));
            }
        } else {
            write::write_value(&mut out, v);
        }
    }
    if !has_marker {
        member(&mut out, MARKER_KEY.as_bytes());
        out.extend_from_slice(b"true");
    }
    if !has_fields {
        member(&mut out, b"fields");
        write_fields(&mut out, &fields);
    }
    out.push(b'}');
    Some(write::into_string(out))
}

/// `serializePayload`'s unserializable path (§9 U1–U5) for a payload the host's
/// `JSON.stringify` refused.
///
/// `projection` is the payload as JSON text (read with `JSON.parse` semantics) with each
/// refused value replaced by a stand-in the skeleton treats alike (an object the host could
/// walk is walked, so its stringifying fields are kept); `None` when the payload is not a
/// plain object. `refused` lists the top-level fields whose values the host refused.
///
/// The result's tier is 2 for the field trim of U1–U3, 3 for the skeleton (U4), 4 for the
/// marker (U5); it is always truncated. Without an event type the U1 result is returned
/// without a budget check (U2), as in the reference.
///
/// # Errors
/// [`SyntaxError`] when `projection` is not one JSON value.
pub fn shrink_unserializable_json(
    projection: Option<&str>,
    refused: &[RefusedField],
    max_bytes: usize,
    message_type: Option<&str>,
) -> Result<Shrunk, SyntaxError> {
    let event = skeleton::event(message_type);
    let value = projection.map(parse_js_value).transpose()?;
    if let Some(JsValue::Object(o)) = &value {
        // U1.
        if let Some(t) = trim_refused(o, refused) {
            let Some(event) = event else {
                // U2.
                return Ok(Shrunk { json: t, tier: 2 });
            };
            // U3.
            let tv = parse_js_value(&t)?;
            let (text, spans) = stringify_with_spans(&tv);
            if text.len() <= max_bytes {
                if skeleton::valid_or_unchecked(Some(event), &t) {
                    return Ok(Shrunk { json: t, tier: 2 });
                }
            } else if let JsValue::Object(to) = &tv {
                if to.len() <= MAX_TRIM_FIELDS {
                    if let Some(json) = trim::trim(to, &spans, &text, max_bytes) {
                        if skeleton::valid_or_unchecked(Some(event), &json) {
                            return Ok(Shrunk { json, tier: 2 });
                        }
                    }
                }
            }
        }
        // U4: the skeleton of the original payload (here its projection).
        if let Some(event) = event {
            if let Some(json) = skeleton::skeleton(o, event, max_bytes, 0, UNSERIALIZABLE_PAYLOAD.as_bytes()) {
                return Ok(Shrunk { json, tier: 3 });
            }
        }
    }
    // U5.
    let mut json = Vec::new();
    write::write_out(&mut json, &trim::marker(0, Cow::Borrowed(UNSERIALIZABLE_PAYLOAD.as_bytes())));
    Ok(Shrunk { json: write::into_string(json), tier: 4 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(key: &str, is_array: bool) -> Vec<RefusedField> {
        vec![RefusedField { key: key.into(), is_array }]
    }

    #[test]
    fn a_refused_field_is_marked_and_the_event_stays_valid() {
        // graphmind-shrink §9's checked example (a cyclic `output` of node.finished).
        let p = r#"{"nodeId":"n","durationMs":1,"status":"ok","output":{"self":null}}"#;
        let s = shrink_unserializable_json(Some(p), &refused("output", false), 524_288, Some("node.finished")).unwrap();
        assert_eq!(
            s.json,
            r#"{"nodeId":"n","durationMs":1,"status":"ok","output":{"__graphmindTruncated":true,"bytes":0,"preview":"[unserializable value]"},"__graphmindTruncated":true,"fields":["output"]}"#
        );
        assert_eq!(s.tier, 2);
    }

    #[test]
    fn an_array_becomes_empty_and_existing_marker_keys_keep_their_place() {
        let p = r#"{"fields":1,"a":[1],"b":2}"#;
        let s = shrink_unserializable_json(Some(p), &refused("a", true), 524_288, None).unwrap();
        assert_eq!(s.json, r#"{"fields":["a"],"a":[],"b":2,"__graphmindTruncated":true}"#);
    }

    #[test]
    fn an_invalid_trim_falls_back_to_the_skeleton_then_the_marker() {
        // node.error needs error.{name,message}: the U1 marker in `error` is invalid, the
        // skeleton of the projection keeps them.
        let p = r#"{"nodeId":"n","error":{"name":"E","message":"m","cause":{}}}"#;
        let s = shrink_unserializable_json(Some(p), &refused("error", false), 524_288, Some("node.error")).unwrap();
        assert_eq!(s.tier, 3, "{}", s.json);
        assert!(s.json.contains(r#""preview":"[unserializable payload]""#), "{}", s.json);
        // Not a plain object: the marker.
        let s = shrink_unserializable_json(None, &[], 524_288, Some("node.error")).unwrap();
        assert_eq!(s.json, r#"{"__graphmindTruncated":true,"bytes":0,"preview":"[unserializable payload]"}"#);
        assert_eq!(s.tier, 4);
    }
}
