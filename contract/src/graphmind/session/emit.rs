//! Emitting: run resolution, `heldMs` stamping, the payload budget, seq, ring, live send or
//! buffering, and the attach-time gap markers and replay (graphmind-session §2.3, §2.4, T2, T7(d)–(e)).

use super::action::Action;
use super::app::{AppSession, ConnState};
use super::clock::{held_ms, Millis};
use super::depth::{cap_depth, exceeds};
use super::ring::{Pushed, RingItem};
use crate::graphmind::shrink::shrink_message_payload;
use crate::graphmind::{
    create_envelope_json, message_group, serialize_envelope_unchecked, write_envelope_with_payload, BuildError, ClientVersions, Envelope, Extras, GraphHint,
    Hello, Message, MessageGroup, NonNegativeF64, RawJson, RunFinished, RunStarted, RunStatus, WILDCARD_RUN_ID,
};

/// Why [`AppSession::emit`] refused an event. Nothing was sent and no seq was taken.
#[derive(Debug, Clone, PartialEq)]
pub enum EmitError {
    /// The payload JSON did not validate against the type (graphmind-v1 §5.13).
    Build(BuildError),
    /// A control or handshake type: the app never sends those.
    NotAnEvent(String),
    /// `exec.paused`, `exec.resumed` and `exec.refused` are the session's own (§3.5, §3.6).
    Reserved(String),
    /// The run id (given, or the implicit one from `implicit_run_id`/`id_base`) contains
    /// U+0000, which no frame may carry (graphmind-v1 §2 Stage 1), or is `"*"`, for which the
    /// viewer stores nothing (graphmind-v1 §1: an event with `*` parses but belongs to no run).
    BadRunId,
}

impl std::fmt::Display for EmitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EmitError::Build(e) => write!(f, "{e}"),
            EmitError::NotAnEvent(t) => {
                write!(f, "\"{t}\" is not an event type: the app sends only events")
            }
            EmitError::Reserved(t) => write!(f, "\"{t}\" is emitted by the session itself (gates)"),
            EmitError::BadRunId => f.write_str("runId must not contain U+0000 or be \"*\" (events belong to a run; the viewer stores nothing for \"*\")"),
        }
    }
}

impl std::error::Error for EmitError {}

impl AppSession {
    /// T19, §2.3: emits an event. `run: None` uses the implicit run, created on first use
    /// with its `run.started` taking the earlier seq. Stamps `heldMs` on `node.finished` and
    /// `node.error` unless set (§3.9), shrinks a payload over `config.max_payload_bytes`
    /// (§2.3 step 4, default 512 KiB; graphmind-shrink §3: the frame then carries the
    /// reference's shrunk text, tier 2–4), takes the next seq, buffers the frame and sends it
    /// when attached (otherwise the next replay delivers it). `ts` is `now`'s whole milliseconds
    /// (epoch ms); `heldMs` keeps its fractions, rounded to two decimals (§3.9).
    ///
    /// Returns the seq taken, or `Ok(None)` when the session is disabled or disposed (a
    /// no-op). Starts the connection on first use (T1).
    ///
    /// # Errors
    /// [`EmitError`] for a non-event or session-owned type, or a run id (given or implicit)
    /// with U+0000 or equal to `"*"`.
    pub fn emit(&mut self, message: impl Into<Message>, run: Option<&str>, now: Millis) -> Result<Option<u64>, EmitError> {
        let message = message.into();
        let ty = message.message_type();
        match message_group(ty) {
            Some(MessageGroup::Control | MessageGroup::Handshake) => return Err(EmitError::NotAnEvent(ty.to_owned())),
            _ if matches!(ty, "exec.paused" | "exec.resumed" | "exec.refused") => return Err(EmitError::Reserved(ty.to_owned())),
            _ => {}
        }
        if self.unusable_run(run) {
            return Err(EmitError::BadRunId);
        }
        if !self.config.enabled || self.disposed {
            return Ok(None);
        }
        self.ensure_started(now);
        let run_id = self.resolve_run(run, now);
        Ok(Some(self.emit_event(message, &run_id, now)))
    }

    /// §2.3 steps 2–7 for an adapter's event in a resolved run: a `node.finished` first
    /// flushes its node's token batch, then redaction (`config.redaction`), `heldMs`, and
    /// [`emit_internal`](Self::emit_internal). Returns the seq taken.
    pub(super) fn emit_event(&mut self, mut message: Message, run_id: &str, now: Millis) -> u64 {
        if let Message::NodeFinished(p) = &message {
            let node = p.node_id.clone();
            self.flush_node(run_id, &node, now);
        }
        self.redactor.apply(&mut message, run_id);
        let message = self.stamp_held(message, run_id, now);
        self.emit_internal(message, run_id, now)
    }

    /// [`emit`](Self::emit) with the payload as JSON text, validated against `message_type`
    /// (graphmind-v1 §5.13).
    ///
    /// # Errors
    /// [`EmitError::Build`] naming path and rule when the payload is not valid for the type
    /// (or the type is unknown), plus the errors of [`emit`](Self::emit).
    pub fn emit_json(&mut self, message_type: &str, payload_json: &str, run: Option<&str>, now: Millis) -> Result<Option<u64>, EmitError> {
        let env = create_envelope_json(message_type, payload_json, 0, WILDCARD_RUN_ID, Some(0)).map_err(EmitError::Build)?;
        self.emit(env.message, run, now)
    }

    /// `true` when events of `run` (`None`: the implicit run) cannot reach a viewer's run
    /// tree: the id contains U+0000 (no frame may carry it) or is `"*"` (stored nowhere).
    /// The implicit id comes from the host's configuration, so it is checked here too.
    pub(super) fn unusable_run(&self, run: Option<&str>) -> bool {
        let unusable = |id: &str| id.contains('\0') || id == WILDCARD_RUN_ID;
        match (run, self.implicit_run.as_deref(), self.config.implicit_run_id.as_deref()) {
            (Some(r), _, _) | (None, Some(r), _) | (None, None, Some(r)) => unusable(r),
            (None, None, None) => unusable(&format!("run_{}", self.config.id_base)),
        }
    }

    /// The run an input belongs to: the given one, or the implicit run (created now).
    pub(super) fn resolve_run(&mut self, run: Option<&str>, now: Millis) -> String {
        if let Some(r) = run {
            return r.to_owned();
        }
        if let Some(r) = &self.implicit_run {
            return r.clone();
        }
        let id = self.config.implicit_run_id.clone().unwrap_or_else(|| format!("run_{}", self.config.id_base));
        self.implicit_run = Some(id.clone());
        // The real client's implicit meta: `{"name":"implicit","implicit":true}`, then the
        // session meta's members.
        let mut meta = Extras::new();
        if let (Ok(name), Ok(flag)) = (RawJson::from_json(r#""implicit""#), RawJson::from_json("true")) {
            meta.insert("name", name);
            meta.insert("implicit", flag);
        }
        self.merge_session_meta(&mut meta);
        let started = RunStarted { meta: Some(crate::wire::OpaqueObject(meta)), ..RunStarted::from_required(self.config.app.clone(), self.config.sdk.clone()) };
        self.emit_internal(started.into(), &id, now);
        id
    }

    /// §2.5 step 4: the implicit run's `run.finished{status:ok}`, sent only at dispose.
    pub(super) fn finish_implicit_run(&mut self, now: Millis) {
        if let Some(id) = self.implicit_run.take() {
            let finished = RunFinished::from_required(RunStatus::Ok);
            self.emit_internal(finished.into(), &id, now);
        }
    }

    /// §3.9: the ledger stamps `node.finished` (final total) and `node.error` (so far); a
    /// `heldMs` set by the adapter wins. Also records `node.started` instances.
    fn stamp_held(&mut self, mut message: Message, run_id: &str, now: Millis) -> Message {
        let ms = |v: Option<f64>| v.and_then(|v| NonNegativeF64::new(held_ms(v)));
        match &mut message {
            Message::NodeStarted(p) => {
                self.ledger.started(run_id, &p.node_id, &p.instance_id, p.parent_id.as_deref());
            }
            Message::NodeFinished(p) => {
                let v = ms(self.ledger.finished(run_id, &p.node_id, p.instance_id.as_deref(), now));
                p.held_ms = p.held_ms.or(v);
            }
            Message::NodeError(p) => {
                let v = ms(self.ledger.errored(run_id, &p.node_id, p.instance_id.as_deref(), now));
                p.held_ms = p.held_ms.or(v);
            }
            _ => {}
        }
        message
    }

    /// §2.3 steps 4–7 without any guard (the session's own frames, also during dispose): the
    /// payload budget (`config.max_payload_bytes`), next seq, exact text, ring, send when
    /// attached. The loop guard sees the payload as emitted, before shrinking.
    pub(super) fn emit_internal(&mut self, message: Message, run_id: &str, now: Millis) -> u64 {
        let seq = self.take_seq();
        if let Message::NodeStarted(p) = &message {
            self.loop_guard.record(run_id, p, seq);
        }
        let shrunk = self.config.max_payload_bytes.and_then(|max| shrink_message_payload(&message, max));
        let env = Envelope { seq, ts: now.whole(), run_id: run_id.to_owned(), message, extra: Extras::new() };
        let spliced = |payload: &str| {
            let mut out = Vec::with_capacity(payload.len() + 128);
            write_envelope_with_payload(&env, payload, &mut out);
            String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
        };
        // A shrunk payload is the reference's text verbatim, whatever the tier
        // (graphmind-shrink §12).
        let frame = if let Some(s) = shrunk {
            spliced(&s.json)
        } else {
            let frame = serialize_envelope_unchecked(&env);
            // The depth cap: the frame nests one level above its payload.
            let capped = self.config.max_value_depth.filter(|m| *m > 0).and_then(|max| capped_payload(&frame, &env, max));
            if let Some(payload) = capped {
                let ty = env.message.message_type();
                let max = self.config.max_value_depth.unwrap_or_default();
                self.warn("unserializable", format!("a {ty} payload member nests deeper than {max} levels: sent as the unserializable-value marker"));
                spliced(&payload)
            } else {
                frame
            }
        };
        self.buffer_and_send(seq, run_id, frame, now);
        seq
    }

    /// Appends the session meta's members (`config.meta`) to a run's `meta`.
    pub(super) fn merge_session_meta(&self, meta: &mut Extras) {
        for (key, value) in self.config.meta.iter().flat_map(|m| m.0.iter_raw()) {
            meta.insert_escaped(key, value.clone());
        }
    }

    fn buffer_and_send(&mut self, seq: u64, run_id: &str, frame: String, now: Millis) {
        let attached = self.conn == ConnState::Attached;
        let lost_before = self.gaps.lost;
        let item = RingItem { frame, seq, run_id: run_id.to_owned(), sent: attached };
        let live = attached.then(|| item.frame.clone());
        match self.ring.push(item) {
            Pushed::Kept(evicted) => {
                for old in evicted.iter().filter(|i| !i.sent) {
                    self.gaps.record(&old.run_id, old.seq);
                }
            }
            // §2.3: an oversize item goes out live when attached, else it is lost.
            Pushed::Refused(item) if !attached => self.gaps.record(&item.run_id, item.seq),
            Pushed::Refused(_) => {}
        }
        if let Some(frame) = live {
            self.actions.push_back(Action::Send(frame));
        }
        if self.gaps.lost > lost_before && self.last_loss_warn.is_none_or(|t| now >= t.plus(self.config.loss_warn_interval_ms)) {
            self.last_loss_warn = Some(now);
            let lost = self.gaps.lost;
            self.warn("buffer-overflow", format!("{lost} unsent frames lost to the replay buffer bound"));
        }
    }

    /// T2: `hello` with the next seq, `runId "*"`, and the session token as `resumeToken`.
    pub(super) fn send_hello(&mut self, now: Millis) {
        let hello = Hello {
            app: Some(self.config.app.clone()),
            sdk: Some(self.config.sdk.clone()),
            resume_token: self.session_token.clone(),
            ..Hello::from_required(
                ClientVersions::from_required(crate::graphmind::PROTOCOL_VERSION_FIELD, self.config.client_version.clone()),
                self.config.capabilities.clone(),
            )
        };
        let seq = self.take_seq();
        let env = Envelope { seq, ts: now.whole(), run_id: WILDCARD_RUN_ID.to_owned(), message: hello.into(), extra: Extras::new() };
        self.actions.push_back(Action::Send(serialize_envelope_unchecked(&env)));
    }

    /// T7(d)–(e): one unbuffered `graph.hint` gap marker per run with losses (fresh seqs),
    /// then the whole ring oldest-first, byte-identical, each item marked sent.
    pub(super) fn send_gaps_and_replay(&mut self, now: Millis) {
        for (run_id, gap) in self.gaps.take() {
            let text = format!(r#"{{"droppedCount":{},"fromSeq":{},"toSeq":{},"reason":"buffer-overflow"}}"#, gap.dropped_count, gap.from_seq, gap.to_seq);
            let mut hint = GraphHint::from_required(Vec::new());
            if let Ok(raw) = RawJson::from_json(&text) {
                hint.extra.insert("gap", raw);
            }
            let seq = self.take_seq();
            let env = Envelope { seq, ts: now.whole(), run_id, message: hint.into(), extra: Extras::new() };
            self.actions.push_back(Action::Send(serialize_envelope_unchecked(&env)));
        }
        for item in self.ring.iter_mut() {
            item.sent = true;
            self.actions.push_back(Action::Send(item.frame.clone()));
        }
    }
}

/// The depth-capped payload of `frame` (the envelope `env` serialized), or `None` when no
/// payload member nests deeper than `max` levels (the payload object being level 1).
fn capped_payload(frame: &str, env: &Envelope, max: usize) -> Option<String> {
    if !exceeds(frame.as_bytes(), max.saturating_add(1)) {
        return None;
    }
    let mut payload = Vec::new();
    if !env.message.write_payload(&mut payload) {
        return None;
    }
    cap_depth(std::str::from_utf8(&payload).ok()?, max)
}
