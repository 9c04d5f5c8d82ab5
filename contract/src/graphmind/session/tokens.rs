//! Token batching (graphmind-session §1 "token batch"): deltas pushed with
//! [`AppSession::push_token`] wait per node and go out as one `node.token` per node when the
//! window (`SessionConfig::token_batch_ms`, 34 ms) closes, before that node's
//! `node.finished` (not before `node.error`), before a run's root `node.finished`, and at
//! dispose. The window starts at the first delta after a flush, as in the reference client.

use super::app::AppSession;
use super::app_state::Pending;
use super::clock::Millis;
use super::emit::EmitError;
use crate::graphmind::{Extras, NodeToken, TokenChannel, TokenDelta};

impl AppSession {
    /// Queues one streamed delta of node `node_id` (`channel` `text`, `reasoning` or
    /// `tool-args`). With batching on, it goes out in the node's next `node.token`; with
    /// `token_batch_ms: None` a `node.token` with this one delta is emitted now. An empty
    /// `value` is dropped, as the reference drops it. A no-op when disabled or disposed.
    /// `run: None` uses the implicit run.
    ///
    /// # Errors
    /// [`EmitError::BadRunId`] for a run id (given or implicit) with U+0000 or `"*"`.
    pub fn push_token(&mut self, node_id: &str, channel: TokenChannel, value: &str, run: Option<&str>, now: Millis) -> Result<(), EmitError> {
        if self.unusable_run(run) {
            return Err(EmitError::BadRunId);
        }
        if !self.config.enabled || self.disposed || value.is_empty() {
            return Ok(());
        }
        self.ensure_started(now);
        let run_id = self.resolve_run(run, now);
        let delta = TokenDelta { t: channel, v: value.to_owned(), extra: Extras::new() };
        let Some(window) = self.config.token_batch_ms.filter(|w| *w > 0) else {
            let token = NodeToken { node_id: node_id.to_owned(), deltas: vec![delta], redaction: None, extra: Extras::new() };
            self.emit_event(token.into(), &run_id, now);
            return Ok(());
        };
        match self.batches.pending.iter_mut().find(|p| p.run_id == run_id && p.node_id == node_id) {
            Some(p) => p.deltas.push(delta),
            None => self.batches.pending.push(Pending { run_id, node_id: node_id.to_owned(), deltas: vec![delta] }),
        }
        if self.batches.flush_at.is_none() {
            self.batches.flush_at = Some(now.plus(window));
        }
        Ok(())
    }

    /// [`push_token`](Self::push_token) with the channel as its wire string.
    ///
    /// # Errors
    /// [`EmitError::Build`] for a channel that is not a `TokenChannel`, plus those of
    /// [`push_token`](Self::push_token).
    pub fn push_token_str(&mut self, node_id: &str, channel: &str, value: &str, run: Option<&str>, now: Millis) -> Result<(), EmitError> {
        let quoted = serde_json::Value::String(channel.to_owned()).to_string();
        let channel = crate::wire::from_json::<TokenChannel>(&quoted).map_err(|issues| {
            let issues = issues.into_iter().map(|i| crate::wire::Issue::at("channel", i.message)).collect();
            EmitError::Build(crate::graphmind::BuildError { reason: "invalid token channel: expected text, reasoning or tool-args".to_owned(), issues })
        })?;
        self.push_token(node_id, channel, value, run, now)
    }

    /// Sends every pending batch now (in order of their first delta).
    pub fn flush_tokens(&mut self, now: Millis) {
        self.batches.flush_at = None;
        for p in std::mem::take(&mut self.batches.pending) {
            self.send_batch(p, now);
        }
    }

    /// Sends the pending batch of `node_id` in `run_id`, if any (before its `node.finished`).
    pub(super) fn flush_node(&mut self, run_id: &str, node_id: &str, now: Millis) {
        if let Some(i) = self.batches.pending.iter().position(|p| p.run_id == run_id && p.node_id == node_id) {
            let p = self.batches.pending.remove(i);
            if self.batches.pending.is_empty() {
                self.batches.flush_at = None;
            }
            self.send_batch(p, now);
        }
    }

    /// Fires the window when it is due.
    pub(super) fn flush_due(&mut self, now: Millis) {
        if self.batches.flush_at.is_some_and(|t| t <= now) {
            self.flush_tokens(now);
        }
    }

    fn send_batch(&mut self, p: Pending, now: Millis) {
        let token = NodeToken { node_id: p.node_id, deltas: p.deltas, redaction: None, extra: Extras::new() };
        self.emit_event(token.into(), &p.run_id, now);
    }
}

#[cfg(test)]
mod tests {
    use crate::graphmind::session::{Action, AppSession, Millis, RedactionConfig, SessionConfig};
    use crate::graphmind::TokenChannel;
    use serde_json::{json, Value};

    fn attached(config: SessionConfig) -> AppSession {
        let mut s = AppSession::new(config);
        s.ready(Millis::from(1), None);
        s.transport_opened(Millis::from(2));
        let ack = r#"{"gm":1,"seq":0,"ts":1,"runId":"*","type":"hello.ack","payload":{"versions":{"protocol":1,"viewer":"t"},"capabilities":[],"breakpoints":[],"mode":"run"}}"#;
        s.frame_received(ack.as_bytes(), Millis::from(3));
        while s.poll_action().is_some() {}
        s
    }

    fn sent(s: &mut AppSession) -> Vec<Value> {
        std::iter::from_fn(|| s.poll_action()).filter_map(|a| if let Action::Send(f) = a { serde_json::from_str(&f).ok() } else { None }).collect()
    }

    fn ms(v: f64) -> Millis {
        Millis::new(v).expect("finite")
    }

    #[test]
    fn deltas_wait_for_the_34_ms_window_then_go_out_per_node() {
        let mut s = attached(SessionConfig::default());
        s.push_token("llm:a", TokenChannel::Text, "Hel", Some("r"), ms(100.0)).expect("ok");
        s.push_token("llm:b", TokenChannel::Reasoning, "hm", Some("r"), ms(110.0)).expect("ok");
        s.push_token("llm:a", TokenChannel::Text, "lo", Some("r"), ms(120.0)).expect("ok");
        s.push_token("llm:a", TokenChannel::Text, "", Some("r"), ms(121.0)).expect("empty is dropped");
        assert!(sent(&mut s).is_empty(), "nothing before the window closes");
        assert_eq!(s.poll_timeout(), Some(ms(134.0)));
        s.handle_timeout(ms(133.9));
        assert!(sent(&mut s).is_empty());
        s.handle_timeout(ms(134.0));
        let payloads: Vec<Value> = sent(&mut s).iter().map(|f| f["payload"].clone()).collect();
        assert_eq!(
            payloads,
            [
                json!({"nodeId": "llm:a", "deltas": [{"t": "text", "v": "Hel"}, {"t": "text", "v": "lo"}]}),
                json!({"nodeId": "llm:b", "deltas": [{"t": "reasoning", "v": "hm"}]})
            ]
        );
        assert_eq!(s.poll_timeout(), None, "the window restarts with the next delta");
    }

    #[test]
    fn a_node_finished_flushes_its_node_first_but_a_node_error_does_not() {
        let mut s = attached(SessionConfig::default());
        s.push_token("llm:a", TokenChannel::Text, "x", Some("r"), ms(10.0)).expect("ok");
        s.push_token("llm:b", TokenChannel::Text, "y", Some("r"), ms(10.0)).expect("ok");
        s.emit_json("node.error", r#"{"nodeId":"llm:a","error":{"name":"E","message":"m"}}"#, Some("r"), ms(11.0)).expect("ok");
        s.emit_json("node.finished", r#"{"nodeId":"llm:a","durationMs":1,"status":"ok"}"#, Some("r"), ms(12.0)).expect("ok");
        let order: Vec<Value> = sent(&mut s).iter().map(|f| json!([f["type"], f["payload"]["nodeId"]])).collect();
        assert_eq!(order, [json!(["node.error", "llm:a"]), json!(["node.token", "llm:a"]), json!(["node.finished", "llm:a"])]);
        // llm:b still waits for its window, then the run's end flushes everything.
        s.dispose(ms(13.0));
        let order: Vec<Value> = sent(&mut s).iter().map(|f| json!([f["type"], f["payload"]["nodeId"]])).collect();
        assert_eq!(order[0], json!(["node.token", "llm:b"]));
    }

    #[test]
    fn batching_off_sends_each_delta_and_redaction_applies_to_batches() {
        let mut s = attached(SessionConfig { token_batch_ms: None, ..SessionConfig::default() });
        s.push_token("llm:a", TokenChannel::Text, "x", Some("r"), ms(10.0)).expect("ok");
        assert_eq!(sent(&mut s)[0]["payload"]["deltas"], json!([{"t": "text", "v": "x"}]));
        let mut r = attached(SessionConfig { redaction: RedactionConfig { hide_outputs: true, ..RedactionConfig::default() }, ..SessionConfig::default() });
        r.push_token("llm:a", TokenChannel::Text, "secret", Some("r"), ms(10.0)).expect("ok");
        r.push_token("llm:a", TokenChannel::ToolArgs, "{}", Some("r"), ms(11.0)).expect("ok");
        r.flush_tokens(ms(12.0));
        assert_eq!(
            sent(&mut r)[0]["payload"],
            json!({"nodeId": "llm:a", "deltas": [{"t": "text", "v": "", "chars": 6}, {"t": "tool-args", "v": "", "chars": 2}], "redaction": {"count": 2, "keys": ["deltas"]}})
        );
        assert!(r.push_token_str("llm:a", "bogus", "x", None, ms(13.0)).is_err());
    }

    #[test]
    fn a_deep_value_goes_out_as_the_unserializable_marker() {
        let mut s = attached(SessionConfig::default());
        let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
        let payload = format!(r#"{{"nodeId":"tool:x","kind":"tool","name":"x","instanceId":"i","input":{deep}}}"#);
        s.emit_json("node.started", &payload, Some("r"), ms(10.0)).expect("ok");
        let frames = sent(&mut s);
        assert_eq!(
            frames[0]["payload"],
            json!({"nodeId": "tool:x", "kind": "tool", "name": "x", "instanceId": "i", "input": [], "__graphmindTruncated": true, "fields": ["input"], "_graphmindSerializationError": true})
        );
        let mut uncapped = attached(SessionConfig { max_value_depth: None, ..SessionConfig::default() });
        uncapped.emit_json("node.started", &payload, Some("r"), ms(10.0)).expect("ok");
        let frame = std::iter::from_fn(|| uncapped.poll_action()).find_map(|a| if let Action::Send(f) = a { Some(f) } else { None }).unwrap_or_default();
        assert!(frame.contains(&deep), "no cap: the value goes out whole");
    }

    #[test]
    fn redaction_and_the_inject_guard_through_the_session() {
        let env = [("GRAPHMIND_HIDE_TOOL_ARGS", "1")];
        let mut s = attached(SessionConfig::from_env(env));
        s.emit_json("node.started", r#"{"nodeId":"tool:x","kind":"tool","name":"x","instanceId":"i","input":{"key":"sk-1"}}"#, Some("r"), ms(10.0))
            .expect("ok");
        let frames = sent(&mut s);
        assert_eq!(frames[0]["payload"]["input"], "__REDACTED__");
        assert!(!s.buffered_frames().any(|f| f.contains("sk-1")), "the ring holds only the redacted frame");
        // The env floor: an explicit config cannot turn the switch off.
        let mut c = SessionConfig::from_env(env);
        c.redaction = RedactionConfig::default();
        let mut s2 = attached(c);
        s2.emit_json("node.started", r#"{"nodeId":"tool:x","kind":"tool","name":"x","instanceId":"i","input":1}"#, Some("r"), ms(10.0)).expect("ok");
        assert_eq!(sent(&mut s2)[0]["payload"]["input"], "__REDACTED__");
    }
}
