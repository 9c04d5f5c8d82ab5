//! LLM-step conventions shared by every sender and reader (reference 0.6.0, `llm.ts`): the
//! closed set of normalized finish reasons, the normalization of a provider's own spelling,
//! and how a reader displays a `TokenUsage`.
//!
//! Senders write the normalized value as an LLM node's `output.finishReason` and the
//! provider's own string as `output.rawFinishReason`; readers normalize older events (which
//! carried the raw string) with the same function. Neither field is checked by the parser:
//! `output` is opaque on the wire. The cases every binding runs are in
//! `vectors/graphmind/llm.jsonl`.

use wirecontract_json::{self as json, decode_string, JsonKind, Val};

wire_enum! {
    /// A normalized finish reason: why an LLM step stopped, as `output.finishReason` carries it
    /// (reference 0.6.0). Closed: normalizing maps any other spelling to `other`.
    #[constant = "FINISH_REASONS"]
    pub enum FinishReason {
        /// The model finished its turn (or hit a stop sequence).
        Stop = "stop",
        /// A token limit or the context window cut the output short.
        Length = "length",
        /// The model stopped to call tools.
        ToolCalls = "tool-calls",
        /// A provider's content filter or safety system stopped it.
        ContentFilter = "content-filter",
        /// The provider reported an error.
        Error = "error",
        /// Any other reason.
        Other = "other",
    }
}

/// Provider spellings, lower-cased with `-` and whitespace runs folded to `_`; anything else
/// is [`FinishReason::Other`]. Sources (as the reference lists them): Anthropic
/// `stop_reason`, OpenAI chat `finish_reason` and Responses `status`/`incomplete_details.reason`,
/// Gemini `finishReason`, Bedrock `stopReason`, the AI SDK's unified values, ruby_llm.
const FINISH_REASON_SPELLINGS: &[(&str, FinishReason)] = {
    use FinishReason::{ContentFilter, Error, Length, Other, Stop, ToolCalls};
    &[
        ("stop", Stop),
        ("end_turn", Stop),
        ("stop_sequence", Stop),
        ("pause_turn", Stop),
        ("eos", Stop),
        ("eos_token", Stop),
        ("complete", Stop),
        ("completed", Stop),
        ("finished", Stop),
        ("length", Length),
        ("max_tokens", Length),
        ("max_output_tokens", Length),
        ("max_completion_tokens", Length),
        ("model_context_window_exceeded", Length),
        ("model_length", Length),
        ("tool_calls", ToolCalls),
        ("tool_call", ToolCalls),
        ("tool_use", ToolCalls),
        ("function_call", ToolCalls),
        ("content_filter", ContentFilter),
        ("content_filtered", ContentFilter),
        ("refusal", ContentFilter),
        ("safety", ContentFilter),
        ("recitation", ContentFilter),
        ("blocklist", ContentFilter),
        ("prohibited_content", ContentFilter),
        ("spii", ContentFilter),
        ("image_safety", ContentFilter),
        ("guardrail_intervened", ContentFilter),
        ("error", Error),
        ("failed", Error),
        ("malformed_function_call", Error),
        ("other", Other),
        ("unknown", Other),
    ]
};

/// Whitespace as JavaScript's `String.prototype.trim` and `\s` see it: Unicode `White_Space`
/// plus U+FEFF.
fn js_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// The normalized finish reason for a provider's raw value, or `None` when nothing usable was
/// reported (an empty or all-whitespace string). The raw value is trimmed, lower-cased, and
/// every run of `-` and whitespace becomes `_` before the lookup; an unknown spelling is
/// [`FinishReason::Other`]. A plain stop on a step that requested tool calls
/// (`has_tool_calls`) is [`FinishReason::ToolCalls`]: Gemini reports `STOP` there, and OpenAI
/// does when `tool_choice` names a function.
pub fn normalize_finish_reason(raw: &str, has_tool_calls: bool) -> Option<FinishReason> {
    let lowered = raw.trim_matches(js_space).to_lowercase();
    let mut key = String::with_capacity(lowered.len());
    let mut in_run = false;
    for c in lowered.chars() {
        if c == '-' || js_space(c) {
            if !in_run {
                key.push('_');
            }
            in_run = true;
        } else {
            key.push(c);
            in_run = false;
        }
    }
    if key.is_empty() {
        return None;
    }
    let mapped = FINISH_REASON_SPELLINGS.iter().find(|(s, _)| *s == key).map_or(FinishReason::Other, |(_, r)| *r);
    Some(if mapped == FinishReason::Stop && has_tool_calls { FinishReason::ToolCalls } else { mapped })
}

/// How [`UsageView::input_tokens`] was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UsageBasis {
    /// The sender stamped `inclusive: true`: the total prompt, cache included.
    Inclusive,
    /// An event of the 0.5 Anthropic TypeScript adapter (recognised by `cacheCreationTokens`):
    /// `inputTokens + cacheReadTokens + cacheCreationTokens`.
    Recomputed,
    /// No marker: whatever the sender's provider reported (may exclude the cache).
    Reported,
}

impl UsageBasis {
    /// Every value, in the reference's order.
    pub const ALL: &'static [UsageBasis] = &[UsageBasis::Inclusive, UsageBasis::Recomputed, UsageBasis::Reported];

    /// The reference's string for this basis (`inclusive`, `recomputed`, `reported`).
    pub fn as_str(self) -> &'static str {
        match self {
            UsageBasis::Inclusive => "inclusive",
            UsageBasis::Recomputed => "recomputed",
            UsageBasis::Reported => "reported",
        }
    }
}

impl std::fmt::Display for UsageBasis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a reader displays for one `TokenUsage` ([`read_usage_json`]). Counts are JavaScript
/// numbers (doubles), as the reference reads them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UsageView {
    /// Prompt tokens: the total, cache included, unless [`UsageView::basis`] is `Reported`.
    pub input_tokens: f64,
    /// Output tokens as reported.
    pub output_tokens: f64,
    /// How `input_tokens` was obtained.
    pub basis: UsageBasis,
    /// `cacheReadTokens`, else the 0.5 OpenAI alias `cachedInputTokens`.
    pub cache_read_tokens: Option<f64>,
    /// `cacheWriteTokens`, else the 0.5 Anthropic alias `cacheCreationTokens`.
    pub cache_write_tokens: Option<f64>,
    /// `reasoningTokens`.
    pub reasoning_tokens: Option<f64>,
}

/// A count: a finite number ≥ 0 (`-0` included, as `-0 >= 0` in JavaScript).
fn count(v: Option<Val<'_>>) -> Option<f64> {
    let x = v?.as_f64()?;
    (x.is_finite() && x >= 0.0).then_some(x)
}

/// The `TokenUsage` members [`read_usage_json`] reads.
const KEYS: [&str; 8] =
    ["inputTokens", "outputTokens", "cacheReadTokens", "cachedInputTokens", "cacheCreationTokens", "cacheWriteTokens", "reasoningTokens", "inclusive"];

/// Reads a stored `usage` value for display, given as JSON text read with `JSON.parse`
/// semantics (a later duplicate key wins, `1e400` is an infinite, so no count). `None` when it
/// is not a usage object: not JSON, not an object, or without both `inputTokens` and
/// `outputTokens` as finite numbers ≥ 0 (as the wire schema requires).
///
/// With `inclusive: true` the numbers are trusted as they are; without it they are as
/// reported, except for events of the 0.5 Anthropic TypeScript adapter, recognised by
/// `cacheCreationTokens`, whose `inputTokens` was the uncached tail and is recomputed.
pub fn read_usage_json(text: &str) -> Option<UsageView> {
    json::validate(text, json::DEFAULT_MAX_DEPTH).ok()?;
    let root = Val::root(text);
    if root.kind() != JsonKind::Object {
        return None;
    }
    let mut found: [Option<Val<'_>>; 8] = [None; 8];
    for (key, value) in root.members() {
        let key = decode_string(key).text;
        if let Some(i) = KEYS.iter().position(|k| *k == key) {
            found[i] = Some(value);
        }
    }
    let [input, output, cache_read, cached_input, cache_creation, cache_write, reasoning, inclusive] = found;
    let input_tokens = count(input)?;
    let output_tokens = count(output)?;
    // The new names first, then the 0.5 aliases.
    let cache_read_tokens = count(cache_read).or_else(|| count(cached_input));
    let legacy_write = count(cache_creation);
    let cache_write_tokens = count(cache_write).or(legacy_write);
    let reasoning_tokens = count(reasoning);
    let view = |input_tokens, basis| UsageView { input_tokens, output_tokens, basis, cache_read_tokens, cache_write_tokens, reasoning_tokens };
    if inclusive.and_then(|v| v.as_bool()) == Some(true) {
        return Some(view(input_tokens, UsageBasis::Inclusive));
    }
    if let Some(write) = legacy_write {
        // 0.5 Anthropic TS: `inputTokens` was Anthropic's uncached tail.
        let total = input_tokens + count(cache_read).unwrap_or(0.0) + write;
        return Some(view(total, UsageBasis::Recomputed));
    }
    Some(view(input_tokens, UsageBasis::Reported))
}
