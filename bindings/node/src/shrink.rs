//! `shrinkPayloadJson` / `shrinkPayload`: payload shrinking (spec graphmind-shrink §3) for
//! Node.js. Thin: the algorithm is the contract's [`gm::shrink_payload_json`]; `index.js`
//! turns values into text (`JSON.stringify`) and checks the arguments.

use napi_derive::napi;
use wirecontract::graphmind as gm;

use crate::{guard, invalid_arg, FrameText};

/// A shrink result as `index.js` receives it.
#[napi(object)]
pub struct GmShrunk {
    /// The payload's JSON text to send (`JSON.stringify`-exact, compact).
    pub json: String,
    /// 1 unchanged, 2 field trim, 3 skeleton, 4 whole-payload marker.
    pub tier: u32,
}

/// Shrinks one payload given as JSON text (read with `JSON.parse` semantics, lone surrogates
/// included) to at most `max_bytes` UTF-8 bytes of its `JSON.stringify` text, exactly as the
/// reference's `serializePayload` (graphmind-shrink §3). `message_type` (an event type)
/// enables the skeleton tier. `max_bytes` is checked by the caller (a safe integer ≥ 0).
/// An `InvalidArg` error naming the position when the text is not JSON.
#[napi(js_name = "gmShrinkPayloadJson")]
pub fn gm_shrink_payload_json(text: FrameText, max_bytes: f64, message_type: Option<String>) -> napi::Result<GmShrunk> {
    guard(|| {
        // A safe integer (checked in index.js): exact as usize. NaN and negatives refused.
        let max = if max_bytes >= 0.0 { max_bytes as usize } else { return Err(invalid_arg("maxBytes must be >= 0")) };
        match gm::shrink_payload_json(&text.0, max, message_type.as_deref()) {
            Ok(s) => Ok(GmShrunk { json: s.json, tier: u32::from(s.tier) }),
            Err(e) => Err(invalid_arg(format!("payload is not valid JSON: {e}"))),
        }
    })
}

/// `serializePayload`'s unserializable path (graphmind-shrink §9) for a payload
/// `JSON.stringify` refused: `projection` is its JSON text with each refused value replaced by
/// a stand-in (`null` when the payload is not a plain object), `refused_keys` the top-level
/// keys whose values were refused and `refused_arrays` whether each was an array. The rules
/// are the contract's [`gm::shrink::shrink_unserializable_json`].
#[napi(js_name = "gmShrinkUnserializable")]
pub fn gm_shrink_unserializable(
    projection: Option<FrameText>,
    refused_keys: Vec<String>,
    refused_arrays: Vec<bool>,
    max_bytes: f64,
    message_type: Option<String>,
) -> napi::Result<GmShrunk> {
    guard(|| {
        let max = if max_bytes >= 0.0 { max_bytes as usize } else { return Err(invalid_arg("maxBytes must be >= 0")) };
        if refused_keys.len() != refused_arrays.len() {
            return Err(invalid_arg("refusedKeys and refusedArrays differ in length"));
        }
        let refused: Vec<gm::shrink::RefusedField> =
            refused_keys.into_iter().zip(refused_arrays).map(|(key, is_array)| gm::shrink::RefusedField { key, is_array }).collect();
        match gm::shrink::shrink_unserializable_json(projection.as_ref().map(|p| p.0.as_str()), &refused, max, message_type.as_deref()) {
            Ok(s) => Ok(GmShrunk { json: s.json, tier: u32::from(s.tier) }),
            Err(e) => Err(invalid_arg(format!("projection is not valid JSON: {e}"))),
        }
    })
}
