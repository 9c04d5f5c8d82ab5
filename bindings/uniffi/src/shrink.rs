//! Payload shrinking for Kotlin and Swift (spec graphmind-shrink): `shrinkPayloadJson`,
//! `shrinkPayload`, `defaultMaxPayloadBytes`. Thin, like the Python binding's
//! `shrink_payload*`: the algorithm is the contract's [`gm::shrink_payload_json`]; this
//! converts host values and shapes the result.

// uniffi exports receive owned values from the host.
#![allow(clippy::needless_pass_by_value)]

use wirecontract::graphmind as gm;

use crate::{encode_json, guard, host_int, opt_arg, size_arg, ContractError, HostString, JsonText, JsonValue};

/// A shrunk payload (graphmind-shrink §3): the text to send and the tier that produced it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Shrunk {
    /// The payload's JSON text, exactly as the reference's `serializePayload` returns it
    /// (`JSON.stringify`-exact, compact; lone surrogates as `\udxxx` escapes).
    pub json: String,
    /// 1 unchanged (within budget), 2 field trim (§4), 3 skeleton (§7), 4 whole-payload
    /// marker `{"__graphmindTruncated":true,"bytes":…,"preview":…}` (§8).
    pub tier: i64,
}

/// Shrinks one payload given as JSON text to at most `maxBytes` UTF-8 bytes of JSON, byte for
/// byte as the reference's `serializePayload(payload, maxBytes, type)` (graphmind-shrink §3).
///
/// The text is read with `JSON.parse` semantics (§15): numbers are doubles (`1e400` is
/// Infinity, written `null`; `1.0` is written `1`), lone-surrogate escapes are kept, any depth
/// is accepted; the budget is measured on the re-serialized text. Within budget the result is
/// that text, tier 1. `messageType` (an event type such as `"node.finished"`) selects the
/// skeleton plan and the validation of tiers 2–3; `null`/`nil`, an unknown or a non-event type
/// skip both. Tiers 1–3 fit `maxBytes`; a tier-4 marker can exceed a budget below about 6 KB
/// (§8, at most 6,080 bytes). Default budget 524,288 (512 KiB, §1).
///
/// Throws `ContractError.Json` when the text is not one JSON value (Kotlin: also when it holds
/// a lone surrogate, which no UTF-8 text can), `ContractError.Build` naming `messageType` when
/// that holds one.
#[uniffi::export(default(max_bytes = 524_288, message_type = None))]
pub fn shrink_payload_json(payload_json: JsonText, max_bytes: i64, message_type: Option<HostString>) -> Result<Shrunk, ContractError> {
    guard(|| {
        let message_type = opt_arg(message_type, "messageType")?;
        let max_bytes = size_arg(max_bytes, "maxBytes")?;
        let payload_json = payload_json.text().map_err(|e| ContractError::Json { reason: format!("payloadJson: {}", e.message()) })?;
        let s = gm::shrink_payload_json(payload_json, max_bytes, message_type.as_deref())
            .map_err(|e| ContractError::Json { reason: format!("payload is not valid JSON: {e}") })?;
        Ok(Shrunk { json: s.json, tier: i64::from(s.tier) })
    })
}

/// [`shrink_payload_json`] over a payload given as a `JsonValue` tree (numbers keep their JSON
/// text, so `1e400` is Infinity here too). Trees are copied recursively across the boundary:
/// for deeply nested payloads pass the text to `shrinkPayloadJson` instead.
///
/// Throws `ContractError.Json` when a `NumberValue` is not a JSON number (Kotlin: also for a
/// lone surrogate in any string of the tree).
#[uniffi::export(default(max_bytes = 524_288, message_type = None))]
pub fn shrink_payload(value: JsonValue, max_bytes: i64, message_type: Option<HostString>) -> Result<Shrunk, ContractError> {
    let text = encode_json(value)?;
    shrink_payload_json(text, max_bytes, message_type)
}

/// The reference's payload budget, 524,288 UTF-8 bytes of payload JSON (512 KiB,
/// graphmind-shrink §1 MAX_PAYLOAD_BYTES): the default of `shrinkPayload*` and of the
/// session runtime.
#[uniffi::export]
pub fn default_max_payload_bytes() -> i64 {
    host_int(gm::DEFAULT_MAX_PAYLOAD_BYTES as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_vector_through_the_exported_functions() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let shared = std::env::var("WIRECONTRACT_SHARED").unwrap_or_else(|_| format!("{root}/../shared"));
        let path = format!("{shared}/vectors/graphmind/shrink.jsonl");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e} (set WIRECONTRACT_SHARED)"));
        let mut n = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let JsonValue::ObjectValue { members } = crate::decode_json(JsonText::from(line)).expect("vector line") else { panic!("{line}") };
            let get = |k: &str| members.iter().find(|m| m.name.to_str() == Ok(k)).map(|m| m.value.clone());
            let text = |k: &str| match get(k) {
                Some(JsonValue::TextValue { value }) => value.into_string().ok(),
                _ => None,
            };
            let Some(JsonValue::NumberValue { text: max }) = get("max_bytes") else { panic!("max_bytes") };
            let Some(JsonValue::NumberValue { text: tier }) = get("tier") else { panic!("tier") };
            let (max, tier): (i64, i64) = (max.to_str().unwrap().parse().expect("integer"), tier.to_str().unwrap().parse().expect("integer"));
            let (payload, expect, ty) = (text("payload_json").expect("payload_json"), text("expect_json").expect("expect_json"), text("type"));
            let got = shrink_payload_json(JsonText(payload), max, ty.map(|t| HostString::from(t.as_str()))).expect("shrinks");
            assert_eq!(got, Shrunk { json: expect, tier }, "{line:.120}");
            n += 1;
        }
        assert_eq!(n, 233);
    }

    #[test]
    fn bad_input_is_a_json_error() {
        assert!(
            matches!(shrink_payload_json(JsonText::from("{"), 10, None), Err(ContractError::Json { reason }) if reason.starts_with("payload is not valid JSON"))
        );
        let nan = JsonValue::ArrayValue { items: vec![JsonValue::NumberValue { text: "NaN".into() }] };
        assert!(matches!(shrink_payload(nan, 10, None), Err(ContractError::Json { .. })));
        assert_eq!(default_max_payload_bytes(), 524_288);
    }
}
