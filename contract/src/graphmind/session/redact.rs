//! Coarse redaction (graphmind-session §1 Redaction, §2.3 step 2): the four
//! `GRAPHMIND_HIDE_*` switches, applied to every event before `heldMs`, the payload budget,
//! the seq and the ring, so a replay and the socket only ever see the redacted event.
//!
//! The reference clients' rules: whole-field replacement of `node.started.input` and
//! `node.finished.output` with [`REDACTED_PLACEHOLDER`], chosen by node kind, and of the text
//! of `node.token` deltas (`v:""` plus `chars`, the text's length in UTF-16 units). Every
//! affected event carries `redaction: {count, keys}`, merged into one the adapter set. A
//! field that is absent, or already the placeholder, is left alone and not counted.
//! `node.error` is never redacted. Typed events are always inspectable here, so the
//! reference's fail-closed forms never arise.

use std::collections::VecDeque;

use super::config::{RedactionConfig, REDACTED_PLACEHOLDER};
use crate::graphmind::{Message, NodeKind, RawJson, RedactionSummary, TokenChannel};
use crate::wire::SafeUInt;

/// Instances and nodes whose kind is remembered (oldest forgotten first), as the reference.
const MAX_TRACKED: usize = 10_000;

#[derive(Debug)]
pub(super) struct Redactor {
    switches: RedactionConfig,
    /// `(run, node, instance)` → kind of the open instances.
    instances: VecDeque<(String, String, String, NodeKind)>,
    /// `(run, node)` → kind of the latest start.
    nodes: VecDeque<(String, String, NodeKind)>,
}

/// The placeholder as a JSON value.
fn placeholder() -> RawJson {
    RawJson::from_value(&serde_json::Value::String(REDACTED_PLACEHOLDER.to_owned()))
}

fn is_placeholder(v: &RawJson) -> bool {
    v.as_str() == placeholder().as_str()
}

/// `existing` with `count` more values redacted under `key`.
fn merge(existing: Option<RedactionSummary>, count: u64, key: &str) -> RedactionSummary {
    match existing {
        Some(mut s) => {
            if !s.keys.iter().any(|k| k == key) {
                s.keys.push(key.to_owned());
            }
            s.count = SafeUInt::new(s.count.get().saturating_add(count)).unwrap_or(SafeUInt::new(count).unwrap_or(SafeUInt::MAX));
            s
        }
        None => RedactionSummary::from_required(SafeUInt::new(count).unwrap_or(SafeUInt::MAX), vec![key.to_owned()]),
    }
}

impl Redactor {
    pub fn new(switches: RedactionConfig) -> Self {
        Redactor { switches, instances: VecDeque::new(), nodes: VecDeque::new() }
    }

    pub fn active(&self) -> bool {
        self.switches.any()
    }

    fn remember(&mut self, run: &str, node: &str, instance: &str, kind: NodeKind) {
        self.nodes.retain(|(r, n, _)| !(r == run && n == node));
        self.nodes.push_back((run.to_owned(), node.to_owned(), kind));
        if self.nodes.len() > MAX_TRACKED {
            self.nodes.pop_front();
        }
        self.instances.push_back((run.to_owned(), node.to_owned(), instance.to_owned(), kind));
        if self.instances.len() > MAX_TRACKED {
            self.instances.pop_front();
        }
    }

    fn kind_of(&self, run: &str, node: &str, instance: Option<&str>) -> Option<NodeKind> {
        let by_instance = instance.and_then(|i| self.instances.iter().rev().find(|(r, n, id, _)| r == run && n == node && id == i).map(|e| e.3));
        by_instance
            .or_else(|| self.nodes.iter().rev().find(|(r, n, _)| r == run && n == node).map(|e| e.2))
            // Last resort: the node id convention every adapter follows.
            .or_else(|| node.starts_with("tool:").then_some(NodeKind::Tool))
    }

    fn forget(&mut self, run: &str, node: &str, instance: &str) {
        if let Some(i) = self.instances.iter().rposition(|(r, n, id, _)| r == run && n == node && id == instance) {
            self.instances.remove(i);
        }
    }

    /// Redacts one event of run `run` in place. A no-op with every switch off.
    pub fn apply(&mut self, message: &mut Message, run: &str) {
        if !self.active() {
            return;
        }
        let s = self.switches;
        match message {
            Message::NodeStarted(p) => {
                self.remember(run, &p.node_id, &p.instance_id, p.kind);
                let hide = s.hide_inputs || (s.hide_tool_args && p.kind == NodeKind::Tool);
                if hide && p.input.as_ref().is_some_and(|v| !is_placeholder(v)) {
                    p.input = Some(placeholder());
                    p.redaction = Some(merge(p.redaction.take(), 1, "input"));
                }
            }
            Message::NodeFinished(p) => {
                let kind = self.kind_of(run, &p.node_id, p.instance_id.as_deref());
                if let Some(i) = &p.instance_id {
                    self.forget(run, &p.node_id, i);
                }
                let hide = s.hide_outputs || (s.hide_tool_results && kind == Some(NodeKind::Tool));
                if hide && p.output.as_ref().is_some_and(|v| !is_placeholder(v)) {
                    p.output = Some(placeholder());
                    p.redaction = Some(merge(p.redaction.take(), 1, "output"));
                }
            }
            Message::NodeToken(p) => {
                let hide_all = s.hide_outputs || (s.hide_tool_results && self.kind_of(run, &p.node_id, None) == Some(NodeKind::Tool));
                let hide_args = s.hide_tool_args || s.hide_inputs;
                let mut count = 0u64;
                for d in &mut p.deltas {
                    let hide = hide_all || (hide_args && d.t == TokenChannel::ToolArgs);
                    if !hide || d.v.is_empty() {
                        continue;
                    }
                    let chars = d.v.encode_utf16().count();
                    d.v.clear();
                    d.extra.insert("chars", RawJson::from_value(&serde_json::Value::from(chars)));
                    count += 1;
                }
                if count > 0 {
                    p.redaction = Some(merge(p.redaction.take(), count, "deltas"));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graphmind::{create_envelope_json, Message, WILDCARD_RUN_ID};

    fn msg(ty: &str, payload: &str) -> Message {
        create_envelope_json(ty, payload, 0, WILDCARD_RUN_ID, Some(0)).expect("valid").message
    }

    fn payload(m: &Message) -> serde_json::Value {
        let env = crate::graphmind::Envelope { seq: 0, ts: 0, run_id: "r".to_owned(), message: m.clone(), extra: crate::graphmind::Extras::new() };
        let v: serde_json::Value = serde_json::from_str(&crate::graphmind::serialize_envelope_unchecked(&env)).expect("json");
        v["payload"].clone()
    }

    #[test]
    fn tool_args_hides_tool_inputs_only() {
        let mut r = Redactor::new(RedactionConfig { hide_tool_args: true, ..RedactionConfig::default() });
        let mut tool = msg("node.started", r#"{"nodeId":"tool:a","kind":"tool","name":"a","instanceId":"i1","input":{"k":"secret"}}"#);
        let mut llm = msg("node.started", r#"{"nodeId":"llm:m","kind":"llm","name":"m","instanceId":"i2","input":"prompt"}"#);
        r.apply(&mut tool, "r");
        r.apply(&mut llm, "r");
        assert_eq!(payload(&tool)["input"], "__REDACTED__");
        assert_eq!(payload(&tool)["redaction"], serde_json::json!({"count": 1, "keys": ["input"]}));
        assert_eq!(payload(&llm)["input"], "prompt");
        assert!(payload(&llm).get("redaction").is_none());
    }

    #[test]
    fn tool_results_follow_the_instance_kind_and_merge_summaries() {
        let mut r = Redactor::new(RedactionConfig { hide_tool_results: true, ..RedactionConfig::default() });
        let mut start = msg("node.started", r#"{"nodeId":"lookup","kind":"tool","name":"a","instanceId":"i1"}"#);
        r.apply(&mut start, "r");
        let mut fin =
            msg("node.finished", r#"{"nodeId":"lookup","instanceId":"i1","durationMs":1,"status":"ok","output":[1],"redaction":{"count":2,"keys":["x"]}}"#);
        r.apply(&mut fin, "r");
        assert_eq!(payload(&fin)["output"], "__REDACTED__");
        assert_eq!(payload(&fin)["redaction"], serde_json::json!({"count": 3, "keys": ["x", "output"]}));
        // Already the placeholder, or absent: untouched and not counted.
        let mut again = msg("node.finished", r#"{"nodeId":"tool:z","durationMs":1,"status":"ok","output":"__REDACTED__"}"#);
        r.apply(&mut again, "r");
        assert!(payload(&again).get("redaction").is_none());
        let mut err = msg("node.error", r#"{"nodeId":"tool:z","error":{"name":"E","message":"secret"}}"#);
        r.apply(&mut err, "r");
        assert_eq!(payload(&err)["error"]["message"], "secret", "node.error is never redacted");
    }

    #[test]
    fn token_deltas_keep_their_length_in_utf16_units() {
        let mut r = Redactor::new(RedactionConfig { hide_inputs: true, ..RedactionConfig::default() });
        let mut t = msg("node.token", r#"{"nodeId":"llm:m","deltas":[{"t":"text","v":"hi"},{"t":"tool-args","v":"{\"a\":\"😀\"}"},{"t":"tool-args","v":""}]}"#);
        r.apply(&mut t, "r");
        assert_eq!(payload(&t)["deltas"], serde_json::json!([{"t":"text","v":"hi"},{"t":"tool-args","v":"","chars":10},{"t":"tool-args","v":""}]));
        assert_eq!(payload(&t)["redaction"], serde_json::json!({"count": 1, "keys": ["deltas"]}));
        let mut off = Redactor::new(RedactionConfig::default());
        let mut t2 = msg("node.token", r#"{"nodeId":"llm:m","deltas":[{"t":"tool-args","v":"x"}]}"#);
        off.apply(&mut t2, "r");
        assert_eq!(payload(&t2)["deltas"][0]["v"], "x");
    }
}
