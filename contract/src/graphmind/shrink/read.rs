//! Reading JSON text into a [`JsValue`] with `JSON.parse` semantics (graphmind-shrink §15
//! "Running a vector"): lone-surrogate escapes kept, numbers rounded to the nearest double
//! (`1e400` is Infinity), duplicate keys last-wins at the first position, any depth.
//!
//! Two passes, neither recursive: the contract's validator checks the grammar, then an
//! explicit container stack builds the value.

use super::value::{JsObject, JsString, JsValue};
use wirecontract_json::{self as json, unescape_body, LoneSurrogate, SyntaxError};

/// An open container while building.
enum Frame {
    Array(Vec<JsValue>),
    Object(Vec<(JsString, JsValue)>, JsString),
}

fn skip_ws(b: &[u8], mut pos: usize) -> usize {
    while matches!(b.get(pos), Some(b' ' | b'\n' | b'\r' | b'\t')) {
        pos += 1;
    }
    pos
}

/// Decodes the string whose opening quote is at `start` into WTF-8 (the engine's one decoder,
/// lone surrogates kept); returns it and the offset after the closing quote.
fn read_string(text: &str, start: usize) -> (JsString, usize) {
    let mut out = Vec::new();
    // `Keep` into bytes never rejects.
    let close = unescape_body(text, start + 1, &mut out, LoneSurrogate::Keep).map_or(text.len(), |body| body.close);
    (JsString::from_wtf8_unchecked(out), close + 1)
}

fn broken(pos: usize) -> SyntaxError {
    // Unreachable on validated text; reported rather than panicking.
    SyntaxError { offset: pos, message: "internal reader error".into(), too_deep: false }
}

/// Reads a key and its colon at `pos`; returns the key and the offset of its value.
fn read_key(text: &str, pos: usize) -> Result<(JsString, usize), SyntaxError> {
    let b = text.as_bytes();
    if b.get(pos) != Some(&b'"') {
        return Err(broken(pos));
    }
    let (key, p) = read_string(text, pos);
    let p = skip_ws(b, p);
    if b.get(p) != Some(&b':') {
        return Err(broken(p));
    }
    Ok((key, skip_ws(b, p + 1)))
}

/// Parses JSON text as `JSON.parse` does into a [`JsValue`] (graphmind-shrink §15).
///
/// Any depth is accepted (no recursion); memory is about 2–3× the text for typical payloads
/// (one heap node per value, strings copied).
///
/// # Errors
/// [`SyntaxError`] (byte offset and reason) when the text is not one JSON value.
pub fn parse_js_value(text: &str) -> Result<JsValue, SyntaxError> {
    json::validate(text, usize::MAX)?;
    let b = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut pos = skip_ws(b, 0);
    loop {
        let mut value = match b.get(pos) {
            Some(b'{') => {
                pos = skip_ws(b, pos + 1);
                if b.get(pos) == Some(&b'}') {
                    pos += 1;
                    JsValue::Object(JsObject::new())
                } else {
                    let (key, p) = read_key(text, pos)?;
                    pos = p;
                    stack.push(Frame::Object(Vec::new(), key));
                    continue;
                }
            }
            Some(b'[') => {
                pos = skip_ws(b, pos + 1);
                if b.get(pos) == Some(&b']') {
                    pos += 1;
                    JsValue::Array(Vec::new())
                } else {
                    stack.push(Frame::Array(Vec::new()));
                    continue;
                }
            }
            Some(b'"') => {
                let (s, p) = read_string(text, pos);
                pos = p;
                JsValue::String(s)
            }
            Some(b't') => {
                pos += 4;
                JsValue::Bool(true)
            }
            Some(b'f') => {
                pos += 5;
                JsValue::Bool(false)
            }
            Some(b'n') => {
                pos += 4;
                JsValue::Null
            }
            Some(_) => {
                let end = json::scan_number(b, pos)?;
                let x = json::number_value(text.get(pos..end).ok_or_else(|| broken(pos))?);
                pos = end;
                JsValue::Number(x)
            }
            None => return Err(broken(pos)),
        };
        // Attach the value to its container, closing every container that ends here.
        loop {
            pos = skip_ws(b, pos);
            let Some(top) = stack.last_mut() else { return Ok(value) };
            let more = b.get(pos) == Some(&b',');
            pos = skip_ws(b, pos + 1);
            match top {
                Frame::Array(items) => {
                    items.push(value);
                    if more {
                        break;
                    }
                }
                Frame::Object(members, key) => {
                    members.push((std::mem::take(key), value));
                    if more {
                        let (k, p) = read_key(text, pos)?;
                        *key = k;
                        pos = p;
                        break;
                    }
                }
            }
            // The container closed (`]` or `}` consumed above).
            value = match stack.pop() {
                Some(Frame::Array(items)) => JsValue::Array(items),
                Some(Frame::Object(members, _)) => JsValue::Object(JsObject::from_entries(members)),
                None => return Err(broken(pos)),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_at_every_offset_of_an_eight_byte_chunk() {
        for esc in [r#"\""#, r"\\", r"\n", r"\u00e9", r"\ud83d\ude00", r"\/"] {
            let decoded: String = serde_json::from_str(&format!("\"{esc}\"")).expect("JSON");
            for at in 0..20 {
                for tail in [0, 1, 7, 8, 9, 30] {
                    let text = format!("\"{}{esc}{}{esc}\"", "a".repeat(at), "b".repeat(tail));
                    let want = format!("{}{decoded}{}{decoded}", "a".repeat(at), "b".repeat(tail));
                    let v = parse_js_value(&text).expect("JSON");
                    let JsValue::String(s) = &v else { panic!("{text}") };
                    assert_eq!(s.as_wtf8(), want.as_bytes(), "{text}");
                }
            }
        }
    }
}
