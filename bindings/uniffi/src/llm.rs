//! The LLM conventions (reference 0.6.0) for Kotlin and Swift: `normalizeFinishReason`,
//! `readUsage`. Thin, like the Python binding's: the rules are the contract's
//! [`gm::normalize_finish_reason`] and [`gm::read_usage_json`]; `FinishReason` is the host
//! enum generated from the registry.

// uniffi exports receive owned values from the host.
#![allow(clippy::needless_pass_by_value)]

use wirecontract::graphmind as gm;

use crate::convert::Convert;
use crate::{guard, ContractError, FinishReason, HostString, JsonText};

/// How `UsageView.inputTokens` was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum UsageBasis {
    /// The sender stamped `inclusive: true`: the total prompt, cache included.
    Inclusive,
    /// A 0.5 Anthropic TypeScript event: `inputTokens + cacheReadTokens + cacheCreationTokens`.
    Recomputed,
    /// No marker: whatever the sender's provider reported (may exclude the cache).
    Reported,
}

/// What a reader displays for one `TokenUsage` (`readUsage`); counts are JavaScript numbers.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct UsageView {
    /// Prompt tokens: the total, cache included, unless `basis` is `Reported`.
    pub input_tokens: f64,
    /// Output tokens as reported.
    pub output_tokens: f64,
    /// How `input_tokens` was obtained.
    pub basis: UsageBasis,
    /// Cache reads, when reported.
    pub cache_read_tokens: Option<f64>,
    /// Cache writes, when reported.
    pub cache_write_tokens: Option<f64>,
    /// Reasoning tokens, when reported.
    pub reasoning_tokens: Option<f64>,
}

/// The normalized finish reason of a provider's raw value (`end_turn`, `MAX_TOKENS`,
/// `tool_calls`, …), or `null`/`nil` when nothing usable was reported (blank). A plain stop on
/// a step that requested tool calls (`hasToolCalls`) is `TOOL_CALLS`. A lone surrogate
/// (Kotlin) is read as U+FFFD: no provider spelling has one.
#[uniffi::export(default(has_tool_calls = false))]
pub fn normalize_finish_reason(raw: HostString, has_tool_calls: bool) -> Result<Option<FinishReason>, ContractError> {
    let raw = raw.into_string_lossy();
    guard(|| Ok(gm::normalize_finish_reason(&raw, has_tool_calls).map(|r| r.to_host())))
}

/// What a reader displays for a stored `usage` given as JSON text (`JSON.parse` semantics), or
/// `null`/`nil` when it is not a usage object (not JSON, not an object, or without both counts
/// as finite numbers ≥ 0).
#[uniffi::export]
pub fn read_usage(usage_json: JsonText) -> Result<Option<UsageView>, ContractError> {
    let Ok(text) = usage_json.text() else { return Ok(None) };
    let text = text.to_owned();
    guard(|| {
        Ok(gm::read_usage_json(&text).map(|v| UsageView {
            input_tokens: v.input_tokens,
            output_tokens: v.output_tokens,
            basis: match v.basis {
                gm::UsageBasis::Inclusive => UsageBasis::Inclusive,
                gm::UsageBasis::Recomputed => UsageBasis::Recomputed,
                gm::UsageBasis::Reported => UsageBasis::Reported,
            },
            cache_read_tokens: v.cache_read_tokens,
            cache_write_tokens: v.cache_write_tokens,
            reasoning_tokens: v.reasoning_tokens,
        }))
    })
}
