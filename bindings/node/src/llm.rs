//! `normalizeFinishReason` / `readUsage`: the LLM conventions (reference 0.6.0) for Node.js.
//! Thin: the rules are the contract's [`gm::normalize_finish_reason`] and
//! [`gm::read_usage_json`]; `api.js` checks the arguments and builds the result object.

use napi_derive::napi;
use wirecontract::graphmind as gm;

use crate::{guard, FrameText};

/// The normalized finish reason of a provider's raw string, or `null` when nothing usable
/// was reported.
#[napi(js_name = "gmNormalizeFinishReason")]
pub fn gm_normalize_finish_reason(raw: String, has_tool_calls: bool) -> napi::Result<Option<&'static str>> {
    guard(|| Ok(gm::normalize_finish_reason(&raw, has_tool_calls).map(gm::FinishReason::as_str)))
}

/// The display view of a `usage` value given as JSON text, as JSON text in the reference's
/// key order (`inputTokens, outputTokens, basis`, then the present extras), or `null` when
/// it is not a usage object.
#[napi(js_name = "gmReadUsage")]
pub fn gm_read_usage(text: FrameText) -> napi::Result<Option<String>> {
    guard(|| Ok(gm::read_usage_json(&text.0).map(|v| wirecontract_js_text::js_text::usage_json(&v))))
}
