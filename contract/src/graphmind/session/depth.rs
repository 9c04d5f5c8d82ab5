//! The emit depth cap (`SessionConfig::max_value_depth`): a top-level payload member nested
//! deeper than the cap is replaced by the reference clients' unserializable-value marker, and
//! the payload is marked as the real Python client marks a payload it could not serialize
//! (`protocol.py` `_degraded_payload`): the member becomes
//! `{"__graphmindTruncated":true,"bytes":0,"preview":"[unserializable value]"}` (`[]` when it
//! was an array) in place, and `"__graphmindTruncated":true`, `"fields":[names]` and
//! `"_graphmindSerializationError":true` follow the members.
//!
//! Works on the payload's compact JSON text with an iterative byte scan, so any depth is
//! measured without recursion.

use wirecontract_json as json;

/// The marker of an unserializable object member.
const MARKER: &str = r#"{"__graphmindTruncated":true,"bytes":0,"preview":"[unserializable value]"}"#;

/// The deepest nesting in compact JSON `text` (a scalar is 0, `[]` is 1).
fn max_depth(text: &[u8]) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in text {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                max = max.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// Whether compact JSON `text` nests deeper than `max` levels.
pub(super) fn exceeds(text: &[u8], max: usize) -> bool {
    max_depth(text) > max
}

/// The end (exclusive) of the JSON value starting at `start` in compact `text`.
fn value_end(text: &[u8], start: usize) -> usize {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    let mut i = start;
    while i < text.len() {
        let b = text[i];
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => {
                    in_string = false;
                    if depth == 0 {
                        return i + 1;
                    }
                }
                _ => {}
            }
        } else {
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => depth += 1,
                // The end of the enclosing container, or of this member.
                b'}' | b']' | b',' if depth == 0 => return i,
                b'}' | b']' => {
                    depth -= 1;
                    if depth == 0 {
                        return i + 1;
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    text.len()
}

/// `payload` (compact JSON text of an object) with every top-level member deeper than
/// `max_depth` (the payload object being level 1) replaced and the payload marked, or `None`
/// when no member is that deep.
pub(super) fn cap_depth(payload: &str, max_depth_allowed: usize) -> Option<String> {
    let bytes = payload.as_bytes();
    if max_depth(bytes) <= max_depth_allowed || bytes.first() != Some(&b'{') {
        return None;
    }
    let mut out = String::with_capacity(256);
    let mut fields: Vec<&str> = Vec::new();
    out.push('{');
    let mut i = 1;
    while i < bytes.len() && bytes[i] != b'}' {
        let key_end = value_end(bytes, i);
        let key = &payload[i..key_end];
        let value_start = key_end + 1; // the ':'
        let end = value_end(bytes, value_start);
        let value = &payload[value_start..end];
        if out.len() > 1 {
            out.push(',');
        }
        out.push_str(key);
        out.push(':');
        // The member's value counts from level 2 (inside the payload object).
        if 1 + max_depth(value.as_bytes()) > max_depth_allowed {
            out.push_str(if value.starts_with('[') { "[]" } else { MARKER });
            fields.push(key);
        } else {
            out.push_str(value);
        }
        i = if bytes.get(end) == Some(&b',') { end + 1 } else { end };
    }
    if out.len() > 1 {
        out.push(',');
    }
    out.push_str(r#""__graphmindTruncated":true,"fields":["#);
    for (n, key) in fields.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        // `key` is the member name exactly as it was written: a JSON string.
        out.push_str(key);
    }
    out.push_str(r#"],"_graphmindSerializationError":true}"#);
    debug_assert!(json::validate(&out, json::DEFAULT_MAX_DEPTH).is_ok());
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(open: &str, close: &str, n: usize) -> String {
        format!("{}1{}", open.repeat(n), close.repeat(n))
    }

    #[test]
    fn shallow_payloads_are_untouched() {
        assert_eq!(cap_depth(r#"{"a":[[1]],"b":"[[[[[["}"#, 3), None);
        assert_eq!(max_depth(br#"{"a":"\"[{"}"#), 1);
    }

    #[test]
    fn deep_members_become_markers_in_place() {
        let deep_list = nested("[", "]", 10);
        let deep_obj = format!(r#"{{"x":{}}}"#, nested("{\"y\":", "}", 9));
        let payload = format!(r#"{{"nodeId":"n","input":{deep_list},"output":{deep_obj},"k\"ey":"s"}}"#);
        let out = cap_depth(&payload, 5).expect("capped");
        assert_eq!(
            out,
            r#"{"nodeId":"n","input":[],"output":{"__graphmindTruncated":true,"bytes":0,"preview":"[unserializable value]"},"k\"ey":"s","__graphmindTruncated":true,"fields":["input","output"],"_graphmindSerializationError":true}"#
        );
        // 5,000 deep, as in the issue: measured without recursion.
        let very = format!(r#"{{"input":{}}}"#, nested("[", "]", 5000));
        assert!(cap_depth(&very, 1000).is_some_and(|o| o.starts_with(r#"{"input":[],"#)));
        assert_eq!(cap_depth(&format!(r#"{{"input":{}}}"#, nested("[", "]", 999)), 1000), None);
        assert!(cap_depth(&format!(r#"{{"input":{}}}"#, nested("[", "]", 1000)), 1000).is_some());
    }
}
