//! Explicit runs: the `run.started` and `run.finished` a host sends around one run of its
//! work (graphmind-v1 §1 Events; graphmind-session §2.3, §3.7).
//!
//! The payload rules live here once, for every host: `run.started` carries the configured
//! `app` and `sdk` and a `meta` whose first member is `name` (the given meta's members follow;
//! a `name` among them wins, keeping the first position, as `{"name": name, **meta}` does in
//! the reference Python client, REC `basic.jsonl:1`); `run.finished` carries `ok`, `error`
//! with the host's error info, or `aborted`, and a run the viewer aborted (§3.7: the core
//! aborts the run context before the adapter sees the decision) finishes `aborted` whatever
//! the host reports.

use super::app::AppSession;
use super::clock::{held_ms, Millis};
use super::emit::EmitError;
use crate::graphmind::{BuildError, ErrorInfo, Extras, NodeError, NodeFinished, NodeKind, NodeStarted, NonNegativeF64, RunFinished, RunStarted, RunStatus};
use crate::wire::{from_json, Issue, OpaqueObject};
use wirecontract_json as json;
use wirecontract_json::RawJson;

/// The root node id of a run named `name` (the real client's `agent:<name>`).
#[must_use]
pub fn root_node_id(name: &str) -> String {
    format!("agent:{name}")
}

/// `text` as a JSON string value.
fn json_string(text: &str) -> RawJson {
    let mut quoted = Vec::with_capacity(text.len() + 2);
    json::write_string(&mut quoted, text);
    // `write_string` writes one JSON string, which always reads back.
    RawJson::from_json(&String::from_utf8_lossy(&quoted)).unwrap_or_else(|_| RawJson::null())
}

/// How many viewer-aborted runs the core remembers for [`AppSession::finish_run`]: the
/// least recently aborted is forgotten first, like the other per-run state (graphmind-session
/// §1 keeps at most 64 runs per table).
pub(super) const MAX_ABORTED_RUNS: usize = 64;

/// How the host's run ended, for [`AppSession::finish_run`] (graphmind-v1 §1 `RunStatus`).
#[derive(Debug, Clone, PartialEq)]
pub enum RunEnd {
    /// The run's work returned normally: `status: "ok"`.
    Ok,
    /// The run's work failed: `status: "error"` with this `error` (the host's exception:
    /// class name, message, optional stack text).
    Failed(ErrorInfo),
    /// The run was aborted (the host saw the viewer's abort or its task was cancelled):
    /// `status: "aborted"`, no `error`.
    Aborted,
}

impl RunEnd {
    /// [`RunEnd::Failed`] with the error info read from JSON text by the contract's own
    /// `ErrorInfo` reader (`{name, message, stack?}`, loose: other members are kept).
    ///
    /// # Errors
    /// [`EmitError::Build`] with issues under `error` when the text is not a valid
    /// `ErrorInfo` (graphmind-v1 §1).
    pub fn error_json(error_json: &str) -> Result<RunEnd, EmitError> {
        from_json::<ErrorInfo>(error_json)
            .map(RunEnd::Failed)
            .map_err(|issues| bad_argument("error", "invalid error for run.finished: it must be an ErrorInfo object {name, message, stack?}", issues))
    }
}

impl AppSession {
    /// Starts run `run_id`: emits `run.started{app, sdk, meta}` with the configured `app` and
    /// `sdk` and `meta` = `{"name": name}` followed by the members of `meta` (a `name` among
    /// them replaces the value, keeping the first position). Goes through
    /// [`emit`](Self::emit): same seq, ring, buffering while detached, and no-op
    /// (`Ok(None)`) when disabled or disposed.
    ///
    /// # Errors
    /// As [`emit`](Self::emit): [`EmitError::BadRunId`] for a `run_id` with U+0000 or `"*"`.
    pub fn start_run(&mut self, run_id: &str, name: &str, meta: Option<&OpaqueObject>, now: Millis) -> Result<Option<u64>, EmitError> {
        if self.unusable_run(Some(run_id)) {
            return Err(EmitError::BadRunId);
        }
        if !self.config.enabled || self.disposed {
            return Ok(None);
        }
        self.ensure_started(now);
        let mut merged = Extras::new();
        merged.insert("name", json_string(name));
        self.merge_session_meta(&mut merged);
        for (key, value) in meta.map(|m| m.0.iter_raw()).into_iter().flatten() {
            merged.insert_escaped(key, value.clone());
        }
        let started = RunStarted { app: self.config.app.clone(), sdk: self.config.sdk.clone(), meta: Some(OpaqueObject(merged)), extra: Extras::new() };
        let seq = self.emit_event(started.into(), run_id, now);
        if self.config.root_node {
            let root = NodeStarted {
                node_id: root_node_id(name),
                parent_id: None,
                kind: NodeKind::Agent,
                name: name.to_owned(),
                instance_id: run_id.to_owned(),
                input: None,
                collapsed: None,
                redaction: None,
                extra: Extras::new(),
            };
            self.emit_event(root.into(), run_id, now);
            self.open_runs.open(run_id, name, now);
        }
        Ok(Some(seq))
    }

    /// [`start_run`](Self::start_run) with `meta` as JSON text (an object; `None`: no
    /// members beyond `name`).
    ///
    /// # Errors
    /// [`EmitError::Build`] with issues under `meta` when `meta_json` is not a JSON object
    /// (graphmind-v1 §1: `run.started.meta` must be an object), plus the errors of
    /// [`start_run`](Self::start_run). Nothing is sent then and no seq is taken.
    pub fn start_run_json(&mut self, run_id: &str, name: &str, meta_json: Option<&str>, now: Millis) -> Result<Option<u64>, EmitError> {
        let meta = match meta_json.map(from_json::<OpaqueObject>).transpose() {
            Ok(meta) => meta,
            Err(issues) => return Err(bad_argument("meta", "invalid meta for run.started: it must be a JSON object", issues)),
        };
        self.start_run(run_id, name, meta.as_ref(), now)
    }

    /// Finishes run `run_id`: emits `run.finished` with `status` from `end` (and `error` for
    /// [`RunEnd::Failed`]). A run the viewer aborted (an [`Action::AbortRun`] was issued for
    /// it, §3.7) finishes `aborted` without `error`, whatever `end` says: the abort error the
    /// adapter raised, or whatever the app turned it into, is the abort's consequence. Goes
    /// through [`emit`](Self::emit) like any event.
    ///
    /// [`Action::AbortRun`]: super::Action::AbortRun
    ///
    /// # Errors
    /// As [`emit`](Self::emit): [`EmitError::BadRunId`] for a `run_id` with U+0000 or `"*"`.
    pub fn finish_run(&mut self, run_id: &str, end: RunEnd, now: Millis) -> Result<Option<u64>, EmitError> {
        if self.unusable_run(Some(run_id)) {
            return Err(EmitError::BadRunId);
        }
        let aborted = self.aborted_runs.iter().position(|r| r == run_id).and_then(|i| self.aborted_runs.remove(i)).is_some();
        let root = self.open_runs.close(run_id);
        if !self.config.enabled || self.disposed {
            return Ok(None);
        }
        self.ensure_started(now);
        let finished = match end {
            _ if aborted => RunFinished { status: RunStatus::Aborted, error: None, extra: Extras::new() },
            RunEnd::Aborted => RunFinished { status: RunStatus::Aborted, error: None, extra: Extras::new() },
            RunEnd::Ok => RunFinished { status: RunStatus::Ok, error: None, extra: Extras::new() },
            RunEnd::Failed(info) => RunFinished { status: RunStatus::Error, error: Some(info), extra: Extras::new() },
        };
        if let Some((name, started_at)) = root {
            let node_id = root_node_id(&name);
            if let Some(info) = &finished.error {
                let error =
                    NodeError { node_id: node_id.clone(), instance_id: Some(run_id.to_owned()), error: info.clone(), held_ms: None, extra: Extras::new() };
                self.emit_event(error.into(), run_id, now);
            }
            self.flush_tokens(now);
            let duration = NonNegativeF64::new(held_ms(now.since(started_at))).unwrap_or_default();
            let node = NodeFinished {
                node_id,
                instance_id: Some(run_id.to_owned()),
                output: None,
                usage: None,
                duration_ms: duration,
                held_ms: None,
                status: finished.status,
                redaction: None,
                extra: Extras::new(),
            };
            self.emit_event(node.into(), run_id, now);
        }
        Ok(Some(self.emit_event(finished.into(), run_id, now)))
    }

    /// Remembers that the viewer aborted `run_id` (§3.7), for [`finish_run`](Self::finish_run).
    pub(super) fn note_aborted(&mut self, run_id: &str) {
        if self.aborted_runs.iter().any(|r| r == run_id) {
            return;
        }
        if self.aborted_runs.len() >= MAX_ABORTED_RUNS {
            self.aborted_runs.pop_front();
        }
        self.aborted_runs.push_back(run_id.to_owned());
    }
}

/// A [`BuildError`] for argument `arg` whose reader found `issues` (paths relative to the
/// argument), with the paths put under the argument's name.
fn bad_argument(arg: &str, reason: &str, issues: Vec<Issue>) -> EmitError {
    let issues = issues.into_iter().map(|i| Issue::at(&under(arg, &i.dotted_path()), i.message)).collect();
    EmitError::Build(BuildError { reason: reason.to_owned(), issues })
}

/// `path` (dotted, relative to an argument) under the argument's name.
fn under(arg: &str, path: &str) -> String {
    match path {
        "" => arg.to_owned(),
        p if p.starts_with('[') => format!("{arg}{p}"),
        p => format!("{arg}.{p}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graphmind::session::{Action, Millis, SessionConfig};
    use serde_json::{json, Value};

    fn session() -> AppSession {
        let config = SessionConfig { app: "demo".to_owned(), id_base: "abc123".to_owned(), ..SessionConfig::default() };
        AppSession::new(config)
    }

    /// Attaches `s` (open, ack), dropping the handshake's actions.
    fn attach(s: &mut AppSession) {
        s.ready(Millis::from(1), None);
        s.transport_opened(Millis::from(2));
        let ack = r#"{"gm":1,"seq":0,"ts":1,"runId":"*","type":"hello.ack","payload":{"versions":{"protocol":1,"viewer":"t"},"capabilities":[],"breakpoints":[{"nodeId":"tool:x"}],"mode":"run"}}"#;
        s.frame_received(ack.as_bytes(), Millis::from(3));
        while s.poll_action().is_some() {}
    }

    fn sent(s: &mut AppSession) -> Vec<Value> {
        std::iter::from_fn(|| s.poll_action()).filter_map(|a| if let Action::Send(f) = a { serde_json::from_str(&f).ok() } else { None }).collect()
    }

    fn payload(frames: &[Value], ty: &str) -> Value {
        frames.iter().find(|f| f["type"] == ty).map_or(Value::Null, |f| f["payload"].clone())
    }

    #[test]
    fn start_run_carries_app_sdk_and_name_first_in_meta() {
        let mut s = session();
        attach(&mut s);
        let seq = s.start_run_json("run_1", "handle-ticket", Some(r#"{"user":"u1","ticket":42}"#), Millis::from(10)).expect("valid");
        assert_eq!(seq, Some(1), "hello took seq 0");
        let frames = sent(&mut s);
        let p = payload(&frames, "run.started");
        assert_eq!(p["app"], "demo");
        assert_eq!(p["sdk"], json!({"name": "wirecontract", "version": env!("CARGO_PKG_VERSION")}));
        assert_eq!(p["meta"], json!({"name": "handle-ticket", "user": "u1", "ticket": 42}));
        assert_eq!(frames[0]["runId"], "run_1");
    }

    #[test]
    fn start_run_exact_text_and_meta_name_wins_in_first_position() {
        let mut s = session();
        attach(&mut s);
        s.start_run_json("r", "outer", Some(r#"{"a":1,"name":"inner"}"#), Millis::from(10)).expect("valid");
        let frame = std::iter::from_fn(|| s.poll_action()).find_map(|a| if let Action::Send(f) = a { Some(f) } else { None }).unwrap_or_default();
        assert!(frame.contains(r#""meta":{"name":"inner","a":1}"#), "{frame}");
        while s.poll_action().is_some() {}
        s.start_run_json("r2", "only", None, Millis::from(11)).expect("valid");
        let frame = std::iter::from_fn(|| s.poll_action()).find_map(|a| if let Action::Send(f) = a { Some(f) } else { None }).unwrap_or_default();
        assert!(frame.contains(r#""meta":{"name":"only"}"#), "{frame}");
    }

    #[test]
    fn bad_meta_json_names_the_argument_and_takes_no_seq() {
        let mut s = session();
        attach(&mut s);
        let before = s.next_seq();
        for bad in ["[1]", "null", "{", "\"x\""] {
            match s.start_run_json("r", "n", Some(bad), Millis::from(10)) {
                Err(EmitError::Build(e)) => {
                    assert!(e.reason.contains("meta"), "{e}");
                    assert!(e.issues.iter().all(|i| i.dotted_path() == "meta"), "{bad}: {e}");
                    assert!(!e.issues.is_empty(), "{bad}");
                }
                other => panic!("{bad}: expected a build error, got {other:?}"),
            }
        }
        assert_eq!(s.next_seq(), before);
        assert!(sent(&mut s).is_empty());
    }

    #[test]
    fn each_ending_gives_its_status() {
        let mut s = session();
        attach(&mut s);
        s.finish_run("a", RunEnd::Ok, Millis::from(10)).expect("ok");
        let info = ErrorInfo { name: "RuntimeError".to_owned(), message: "boom".to_owned(), stack: Some("trace".to_owned()), extra: Extras::new() };
        s.finish_run("b", RunEnd::Failed(info), Millis::from(11)).expect("ok");
        s.finish_run("c", RunEnd::Aborted, Millis::from(12)).expect("ok");
        let frames = sent(&mut s);
        let payloads: Vec<Value> = frames.iter().map(|f| f["payload"].clone()).collect();
        assert_eq!(
            payloads,
            [
                json!({"status": "ok"}),
                json!({"status": "error", "error": {"name": "RuntimeError", "message": "boom", "stack": "trace"}}),
                json!({"status": "aborted"})
            ]
        );
    }

    #[test]
    fn a_viewer_aborted_run_finishes_aborted_whatever_the_host_reports() {
        let mut s = session();
        attach(&mut s);
        s.start_run("r", "n", None, Millis::from(10)).expect("ok");
        let node = crate::graphmind::session::GateNode::new("tool:x", crate::graphmind::NodeKind::Tool, "x");
        let crate::graphmind::session::GateOutcome::Held(pause) = s.gate(crate::graphmind::PausePoint::Before, &node, Some("r"), Millis::from(11)) else {
            panic!("the breakpoint on tool:x holds");
        };
        let resume = format!(r#"{{"gm":1,"seq":1,"ts":1,"runId":"r","type":"exec.resume","payload":{{"pauseId":"{pause}","action":"abort"}}}}"#);
        s.frame_received(resume.as_bytes(), Millis::from(12));
        while s.poll_action().is_some() {}
        let info = ErrorInfo { name: "E".to_owned(), message: "m".to_owned(), stack: None, extra: Extras::new() };
        s.finish_run("r", RunEnd::Failed(info), Millis::from(13)).expect("ok");
        assert_eq!(payload(&sent(&mut s), "run.finished"), json!({"status": "aborted"}));
        // Remembered once: the next run with that id is a new run.
        s.finish_run("r", RunEnd::Ok, Millis::from(14)).expect("ok");
        assert_eq!(payload(&sent(&mut s), "run.finished"), json!({"status": "ok"}));
    }

    #[test]
    fn detached_runs_are_buffered_and_disposed_ones_are_no_ops() {
        let mut s = session();
        // Not attached: the first emit starts the connection, the frame waits in the ring.
        // run.started 0, the root node.started 1, its node.finished 2, run.finished 3.
        assert_eq!(s.start_run("r", "n", None, Millis::from(10)), Ok(Some(0)));
        assert_eq!(s.finish_run("r", RunEnd::Ok, Millis::from(11)), Ok(Some(3)));
        assert!(sent(&mut s).is_empty(), "nothing goes out before the ack");
        assert_eq!(s.buffered_frames().count(), 4);
        s.dispose(Millis::from(12));
        assert_eq!(s.start_run("r2", "n", None, Millis::from(13)), Ok(None));
        assert_eq!(s.finish_run("r2", RunEnd::Aborted, Millis::from(14)), Ok(None));
        // A bad meta is an error even then: the argument is wrong whatever the state.
        assert!(matches!(s.start_run_json("r3", "n", Some("[]"), Millis::from(15)), Err(EmitError::Build(_))));
    }

    #[test]
    fn error_json_reads_error_info_and_names_the_argument() {
        let end = RunEnd::error_json(r#"{"name":"E","message":"m","stack":"s"}"#).expect("valid");
        let RunEnd::Failed(info) = end else { panic!("an error end") };
        assert_eq!((info.name.as_str(), info.message.as_str(), info.stack.as_deref()), ("E", "m", Some("s")));
        let Err(EmitError::Build(e)) = RunEnd::error_json(r#"{"name":"E","stack":1}"#) else { panic!("message is required") };
        let paths: Vec<String> = e.issues.iter().map(Issue::dotted_path).collect();
        assert!(paths.contains(&"error.message".to_owned()) && paths.contains(&"error.stack".to_owned()), "{paths:?}");
        let Err(EmitError::Build(e)) = RunEnd::error_json("[") else { panic!("not JSON") };
        assert_eq!(e.issues.iter().map(Issue::dotted_path).collect::<Vec<_>>(), ["error"]);
    }

    #[test]
    fn bad_run_ids_are_refused() {
        let mut s = session();
        assert_eq!(s.start_run("*", "n", None, Millis::from(1)), Err(EmitError::BadRunId));
        assert_eq!(s.finish_run("a\0b", RunEnd::Ok, Millis::from(1)), Err(EmitError::BadRunId));
        assert_eq!(s.next_seq(), 0);
    }

    #[test]
    fn disabled_sessions_send_nothing() {
        let mut s = AppSession::new(SessionConfig { enabled: false, ..SessionConfig::default() });
        assert_eq!(s.start_run("r", "n", None, Millis::from(1)), Ok(None));
        assert_eq!(s.finish_run("r", RunEnd::Ok, Millis::from(2)), Ok(None));
        assert!(s.poll_action().is_none());
    }

    fn stripped(frames: &[Value]) -> Vec<Value> {
        frames.iter().map(|f| json!({"type": f["type"], "runId": f["runId"], "payload": f["payload"]})).collect()
    }

    #[test]
    fn a_run_has_its_root_agent_node_as_the_real_client_sends_it() {
        let mut s = session();
        attach(&mut s);
        s.start_run("r", "triage", None, Millis::new(10.0).expect("finite")).expect("ok");
        s.finish_run("r", RunEnd::Ok, Millis::new(12.345).expect("finite")).expect("ok");
        assert_eq!(
            stripped(&sent(&mut s)),
            [
                json!({"type": "run.started", "runId": "r", "payload": {"app": "demo", "sdk": {"name": "wirecontract", "version": env!("CARGO_PKG_VERSION")}, "meta": {"name": "triage"}}}),
                json!({"type": "node.started", "runId": "r", "payload": {"nodeId": "agent:triage", "kind": "agent", "name": "triage", "instanceId": "r"}}),
                json!({"type": "node.finished", "runId": "r", "payload": {"nodeId": "agent:triage", "instanceId": "r", "durationMs": 2.35, "heldMs": 0, "status": "ok"}}),
                json!({"type": "run.finished", "runId": "r", "payload": {"status": "ok"}}),
            ]
        );
        // A failed run: node.error on the root first, then its node.finished with status error.
        s.start_run("r2", "t", None, Millis::from(20)).expect("ok");
        let info = ErrorInfo { name: "E".to_owned(), message: "m".to_owned(), stack: None, extra: Extras::new() };
        s.finish_run("r2", RunEnd::Failed(info), Millis::from(21)).expect("ok");
        let types: Vec<Value> = sent(&mut s).iter().map(|f| json!([f["type"], f["payload"]["status"]])).collect();
        assert_eq!(
            types,
            [
                json!(["run.started", null]),
                json!(["node.started", null]),
                json!(["node.error", null]),
                json!(["node.finished", "error"]),
                json!(["run.finished", "error"])
            ]
        );
        // Off by configuration: only the run frames.
        let mut off = AppSession::new(SessionConfig { root_node: false, ..SessionConfig::default() });
        attach(&mut off);
        off.start_run("r", "t", None, Millis::from(1)).expect("ok");
        off.finish_run("r", RunEnd::Ok, Millis::from(2)).expect("ok");
        let types: Vec<Value> = sent(&mut off).iter().map(|f| f["type"].clone()).collect();
        assert_eq!(types, [json!("run.started"), json!("run.finished")]);
    }

    #[test]
    fn a_hold_on_a_child_counts_in_the_root_held_ms() {
        let mut s = session();
        attach(&mut s);
        s.start_run("r", "n", None, Millis::from(10)).expect("ok");
        s.emit_json("node.started", r#"{"nodeId":"tool:x","kind":"tool","name":"x","instanceId":"c1","parentId":"agent:n"}"#, Some("r"), Millis::from(11))
            .expect("ok");
        let node = crate::graphmind::session::GateNode::new("tool:x", crate::graphmind::NodeKind::Tool, "x");
        let crate::graphmind::session::GateOutcome::Held(pause) = s.gate(crate::graphmind::PausePoint::Before, &node, Some("r"), Millis::from(12)) else {
            panic!("the breakpoint on tool:x holds");
        };
        let resume = format!(r#"{{"gm":1,"seq":1,"ts":1,"runId":"r","type":"exec.resume","payload":{{"pauseId":"{pause}","action":"continue"}}}}"#);
        s.frame_received(resume.as_bytes(), Millis::new(12.5).expect("finite"));
        s.finish_run("r", RunEnd::Ok, Millis::from(20)).expect("ok");
        let root = sent(&mut s).into_iter().find(|f| f["type"] == "node.finished" && f["payload"]["nodeId"] == "agent:n").unwrap_or_default();
        assert_eq!(root["payload"]["heldMs"], json!(0.5));
        assert_eq!(root["payload"]["durationMs"], json!(10));
    }

    #[test]
    fn session_meta_goes_into_every_run_and_the_implicit_run_says_so() {
        let meta = crate::wire::from_json::<OpaqueObject>(r#"{"team":"a","name":"from-session"}"#).expect("object");
        let mut s = AppSession::new(SessionConfig { meta: Some(meta), id_base: "abc123".to_owned(), ..SessionConfig::default() });
        attach(&mut s);
        s.emit_json("graph.hint", r#"{"nodes":[]}"#, None, Millis::from(5)).expect("ok");
        s.start_run_json("r", "job", Some(r#"{"user":"u"}"#), Millis::from(6)).expect("ok");
        let frames = sent(&mut s);
        assert_eq!(frames[0]["runId"], "run_abc123");
        assert_eq!(frames[0]["payload"]["meta"], json!({"name": "from-session", "implicit": true, "team": "a"}));
        let started: Vec<&Value> = frames.iter().filter(|f| f["type"] == "run.started").collect();
        assert_eq!(started[1]["payload"]["meta"], json!({"name": "from-session", "team": "a", "user": "u"}));
        let mut plain = session();
        attach(&mut plain);
        plain.emit_json("graph.hint", r#"{"nodes":[]}"#, None, Millis::from(5)).expect("ok");
        assert_eq!(sent(&mut plain)[0]["payload"]["meta"], json!({"name": "implicit", "implicit": true}));
    }

    #[test]
    fn aborted_runs_are_bounded() {
        let mut s = session();
        for i in 0..=MAX_ABORTED_RUNS {
            s.note_aborted(&format!("r{i}"));
        }
        assert_eq!(s.aborted_runs.len(), MAX_ABORTED_RUNS);
        assert!(!s.aborted_runs.iter().any(|r| r == "r0"), "the oldest is forgotten first");
    }
}
