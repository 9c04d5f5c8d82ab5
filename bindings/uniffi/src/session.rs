//! The GraphMind session runtime for Kotlin and Swift: the contract's sans-IO cores
//! (`graphmind::session`, spec graphmind-session.md) as uniffi objects, their inputs and
//! polled actions as records and enums. Thin: every rule stays in the core; this converts.
//!
//! Objects are thread-safe (one lock each), so a host may feed inputs from its socket's and
//! its timer's threads. Clock readings (`nowMs`) are milliseconds as a `Double`, fractions
//! kept (a sub-millisecond hold counts in `heldMs`): the host's clock, epoch milliseconds read
//! from a monotonic clock, whose whole part is also the frames' `ts`. Durations stay `Long`. The hosts over them are
//! hand-written: `bindings/uniffi/kotlin/src/main/kotlin/.../SessionHost.kt` (JDK
//! `java.net.http.WebSocket`) and `bindings/uniffi/swift/Sources/WirecontractGraphmind/
//! SessionHost.swift` (`URLSessionWebSocketTask`).

// uniffi exports receive owned values from the host.
#![allow(clippy::needless_pass_by_value)]

use std::sync::{Arc, Mutex, MutexGuard};

use wirecontract::graphmind as gm;
use wirecontract::graphmind::session as s;
use wirecontract::wire::SafeUInt;
use wirecontract_json::RawJson;

use crate::convert::{Convert, HostPath, Issues};
use crate::graphmind::{build_error, envelope_to_host, from_build_error, host_strings, matcher, matcher_at};
use crate::{
    arg, guard, host_int, int_arg, ms_arg, opt_arg, size_arg, BreakpointMatcher, ContractError, Envelope, Hello, HostString, JsonText, Message, NodeKind,
    PausePoint, RefusalCode, ResumeAction, RunMode,
};

// ---- app side: values ------------------------------------------------------------------------

/// Configuration of an `AppSession` (spec §1). Every field is optional: `null`/`nil` takes the
/// core's default (TS values, Decision 1 and 5): `url` `ws://127.0.0.1:4747/ingest`, `app`
/// `"app"`, capabilities `pause, step, inject, retry, abort, run-claim`, ring 5000 frames and
/// 8 MiB (UTF-8 bytes), pause timeout none (hold forever), connect 300 ms, handshake 1000 ms,
/// retry 10000 ms after a fast burst of 200/400/800 ms, ready 2000 ms, loop guard 3 repeats on
/// tools, payload budget 512 KiB, 1024 breakpoints.
#[derive(Debug, Clone, Default, PartialEq, Eq, uniffi::Record)]
pub struct AppSessionConfig {
    /// Endpoint for `SessionAction.Connect`.
    #[uniffi(default)]
    pub url: Option<HostString>,
    /// `hello.app` and the implicit run's `run.started.app`.
    #[uniffi(default)]
    pub app: Option<HostString>,
    /// `hello.sdk.name` (with `sdk_version`).
    #[uniffi(default)]
    pub sdk_name: Option<HostString>,
    /// `hello.sdk.version`.
    #[uniffi(default)]
    pub sdk_version: Option<HostString>,
    /// `hello.versions.client`.
    #[uniffi(default)]
    pub client_version: Option<HostString>,
    /// `hello.capabilities` (announce only what the adapter implements, Decision 3).
    #[uniffi(default)]
    pub capabilities: Option<Vec<HostString>>,
    /// `false`: never connect, gates continue, `ready` settles false (kill switch).
    #[uniffi(default)]
    pub enabled: Option<bool>,
    /// Replay ring bound in frames.
    #[uniffi(default)]
    pub ring_max_frames: Option<i64>,
    /// Replay ring bound in UTF-8 bytes of frame text.
    #[uniffi(default)]
    pub ring_max_bytes: Option<i64>,
    /// Hold limit in ms after which a gate continues (`exec.resumed` sent live).
    #[uniffi(default)]
    pub pause_timeout_ms: Option<i64>,
    /// Socket-open deadline in ms.
    #[uniffi(default)]
    pub connect_timeout_ms: Option<i64>,
    /// `hello` → `hello.ack` deadline in ms.
    #[uniffi(default)]
    pub handshake_timeout_ms: Option<i64>,
    /// Delay between attempts in ms.
    #[uniffi(default)]
    pub retry_interval_ms: Option<i64>,
    /// Fast reconnect delays in ms after an established attachment drops (`[]`: none).
    #[uniffi(default)]
    pub fast_retry_ms: Option<Vec<i64>>,
    /// Default `ready` deadline in ms.
    #[uniffi(default)]
    pub ready_timeout_ms: Option<i64>,
    /// Six hex digits making pause ids `pause_<base>_<n>` (hosts pass random hex).
    #[uniffi(default)]
    pub id_base: Option<HostString>,
    /// Run id of the implicit run (default `run_<idBase>`).
    #[uniffi(default)]
    pub implicit_run_id: Option<HostString>,
    /// The host redactor's placeholder; an inject still holding it is refused.
    #[uniffi(default)]
    pub redaction_placeholder: Option<HostString>,
    /// Payload budget in bytes (default 512 KiB).
    #[uniffi(default)]
    pub max_payload_bytes: Option<i64>,
    /// Breakpoints armed at once (default 1024); a new matcher past it is ignored with one
    /// `breakpoint-limit` warning.
    #[uniffi(default)]
    pub max_breakpoints: Option<i64>,
    /// The environment the core reads first (`GRAPHMIND_URL`, `GRAPHMIND_DISABLED`, production
    /// detection, `GRAPHMIND_LOOP_*`, `GRAPHMIND_HIDE_*`; docs/session.md "The adapter core").
    /// The hosts pass the process environment; every other field beats it, except the kill
    /// switch and a hide switch turned on there. An entry that is not Unicode is skipped.
    #[uniffi(default)]
    pub env: Option<std::collections::HashMap<HostString, HostString>>,
    /// Identical back-to-back tool calls that hold (default 3; 0: the guard is off).
    #[uniffi(default)]
    pub loop_threshold: Option<i64>,
    /// Node ids or names the loop guard never holds (`GRAPHMIND_LOOP_ALLOW`).
    #[uniffi(default)]
    pub loop_allow: Option<Vec<HostString>>,
    /// `GRAPHMIND_HIDE_INPUTS`: every `node.started.input` becomes `"__REDACTED__"`.
    #[uniffi(default)]
    pub hide_inputs: Option<bool>,
    /// `GRAPHMIND_HIDE_OUTPUTS`: every `node.finished.output` and every token delta.
    #[uniffi(default)]
    pub hide_outputs: Option<bool>,
    /// `GRAPHMIND_HIDE_TOOL_ARGS`: tool inputs and `tool-args` deltas.
    #[uniffi(default)]
    pub hide_tool_args: Option<bool>,
    /// `GRAPHMIND_HIDE_TOOL_RESULTS`: tool outputs and a tool node's deltas.
    #[uniffi(default)]
    pub hide_tool_results: Option<bool>,
    /// Token batch window in ms for `pushToken` (default 34; 0: each delta at once).
    #[uniffi(default)]
    pub token_batch_ms: Option<i64>,
    /// The run's root node `agent:<name>` around each run (default true).
    #[uniffi(default)]
    pub root_node: Option<bool>,
    /// Session metadata (a JSON object text) merged into every `run.started.meta`.
    #[uniffi(default)]
    pub meta_json: Option<JsonText>,
    /// Deepest nesting of a payload member before it is sent as the unserializable-value
    /// marker (default 1000; 0: no cap).
    #[uniffi(default)]
    pub max_value_depth: Option<i64>,
}

impl AppSessionConfig {
    fn to_core(&self) -> Result<s::SessionConfig, ContractError> {
        let mut c = match &self.env {
            Some(env) => s::SessionConfig::from_env(env.iter().filter_map(|(k, v)| Some((k.clone().into_string().ok()?, v.clone().into_string().ok()?)))),
            None => s::SessionConfig::default(),
        };
        let text = |v: &Option<HostString>, name: &str| opt_arg(v.clone(), &format!("config.{name}"));
        let url = text(&self.url, "url")?;
        let app = text(&self.app, "app")?;
        let client_version = text(&self.client_version, "clientVersion")?;
        let capabilities = self.capabilities.clone().map(|v| host_strings(v, "config.capabilities")).transpose()?;
        let id_base = text(&self.id_base, "idBase")?;
        let sdk_name = text(&self.sdk_name, "sdkName")?;
        let sdk_version = text(&self.sdk_version, "sdkVersion")?;
        let implicit_run_id = text(&self.implicit_run_id, "implicitRunId")?;
        let redaction_placeholder = text(&self.redaction_placeholder, "redactionPlaceholder")?;
        for (v, field) in [(url, &mut c.url), (app, &mut c.app), (client_version, &mut c.client_version), (id_base, &mut c.id_base)] {
            if let Some(v) = v {
                *field = v;
            }
        }
        if let Some(v) = capabilities {
            c.capabilities = v;
        }
        if let Some(v) = self.enabled {
            c.enabled = v;
        }
        let ms = |v: Option<i64>, name: &str| v.map(|x| ms_arg(x, &format!("config.{name}"))).transpose();
        let size = |v: Option<i64>, name: &str| v.map(|x| size_arg(x, &format!("config.{name}"))).transpose();
        for (v, field) in [
            (ms(self.connect_timeout_ms, "connectTimeoutMs")?, &mut c.connect_timeout_ms),
            (ms(self.handshake_timeout_ms, "handshakeTimeoutMs")?, &mut c.handshake_timeout_ms),
            (ms(self.retry_interval_ms, "retryIntervalMs")?, &mut c.retry_interval_ms),
            (ms(self.ready_timeout_ms, "readyTimeoutMs")?, &mut c.ready_timeout_ms),
        ] {
            if let Some(v) = v {
                *field = v;
            }
        }
        if let Some(list) = &self.fast_retry_ms {
            c.fast_retry_ms = list.iter().enumerate().map(|(i, x)| ms_arg(*x, &format!("config.fastRetryMs.{i}"))).collect::<Result<_, _>>()?;
        }
        for (v, field) in [
            (size(self.ring_max_frames, "ringMaxFrames")?, &mut c.ring_max_frames),
            (size(self.ring_max_bytes, "ringMaxBytes")?, &mut c.ring_max_bytes),
            (size(self.max_breakpoints, "maxBreakpoints")?, &mut c.max_breakpoints),
        ] {
            if let Some(v) = v {
                *field = v;
            }
        }
        if let Some(v) = sdk_name {
            c.sdk.name = v;
        }
        if let Some(v) = sdk_version {
            c.sdk.version = v;
        }
        c.pause_timeout_ms = ms(self.pause_timeout_ms, "pauseTimeoutMs")?;
        c.implicit_run_id = implicit_run_id;
        if let Some(v) = redaction_placeholder {
            c.redaction_placeholder = Some(v);
        }
        if let Some(v) = size(self.max_payload_bytes, "maxPayloadBytes")? {
            c.max_payload_bytes = Some(v);
        }
        if let Some(v) = self.loop_threshold {
            c.loop_guard.threshold = ms_arg(v, "config.loopThreshold")?;
        }
        if let Some(list) = &self.loop_allow {
            c.loop_guard.allow = host_strings(list.clone(), "config.loopAllow")?;
        }
        for (v, field) in [
            (self.hide_inputs, &mut c.redaction.hide_inputs),
            (self.hide_outputs, &mut c.redaction.hide_outputs),
            (self.hide_tool_args, &mut c.redaction.hide_tool_args),
            (self.hide_tool_results, &mut c.redaction.hide_tool_results),
        ] {
            if let Some(v) = v {
                *field = v;
            }
        }
        if let Some(v) = ms(self.token_batch_ms, "tokenBatchMs")? {
            c.token_batch_ms = Some(v);
        }
        if let Some(v) = self.root_node {
            c.root_node = v;
        }
        if let Some(meta) = &self.meta_json {
            let text = crate::json_arg(meta, "config.metaJson")?;
            let record = wirecontract::wire::from_json::<wirecontract::wire::OpaqueObject>(text)
                .map_err(|issues| from_build_error(gm::BuildError { reason: "invalid config.metaJson: it must be a JSON object".to_owned(), issues }))?;
            c.meta = Some(record);
        }
        if let Some(v) = size(self.max_value_depth, "maxValueDepth")? {
            c.max_value_depth = Some(v);
        }
        Ok(c)
    }
}

/// The node a gate sits on (spec §3.1, §3.9). `instance_id` pins the hold exactly and is
/// copied into `exec.paused.instanceId`.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct GateNode {
    /// `nodeId`, as in `node.started`.
    pub node_id: HostString,
    /// Node kind, for matchers and the loop guard.
    pub kind: NodeKind,
    /// Node name, for matchers.
    pub name: HostString,
    /// The instance this gate belongs to.
    #[uniffi(default)]
    pub instance_id: Option<HostString>,
}

/// How a host's run ended, for `AppSession.finishRun` (spec graphmind-v1 §1 `RunStatus`).
/// The core writes the `run.finished` payload; a run the viewer aborted finishes `aborted`
/// whatever the host reports (spec §3.7).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum RunEnd {
    /// The run's work returned normally: `status: "ok"`.
    Ok,
    /// The run's work failed: `status: "error"` with `error: {name, message, stack?}`. The
    /// three strings are the host's exception, diagnostic text the app did not choose: a lone
    /// surrogate in them (a Kotlin string can hold one) is sent as U+FFFD rather than refused,
    /// as the Python host's error info reads, so a failing run never loses its `run.finished`.
    Failed {
        /// The exception's class name.
        name: HostString,
        /// The exception's message (empty when it has none).
        message: HostString,
        /// The stack trace text, when the host has one.
        stack: Option<HostString>,
    },
    /// Aborted (the viewer's abort, or the host's task was cancelled): `status: "aborted"`.
    Aborted,
}

/// What a released gate tells the adapter to do (spec §3.7).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum Decision {
    /// Run the body / return the real result / rethrow the original error.
    Continue,
    /// Re-run from the top at `after`/`error`; same as continue at `before`.
    Retry,
    /// Use `output_json` instead (`null`/`nil`: an inject of "no value", not JSON null).
    Inject {
        /// The `exec.resume.output`, verbatim JSON text.
        output_json: Option<JsonText>,
    },
    /// Finish `aborted` and throw; `SessionAction.AbortRun` came first.
    Abort,
}

fn decision_to_host(d: &s::Decision) -> Decision {
    match d {
        s::Decision::Continue => Decision::Continue,
        s::Decision::Retry => Decision::Retry,
        s::Decision::Inject { output } => Decision::Inject { output_json: output.as_ref().map(|r| JsonText::from(r.as_str())) },
        s::Decision::Abort => Decision::Abort,
    }
}

/// Why a held gate was released (spec §3.8); each release is answered by one `exec.resumed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum ReleaseCause {
    /// A valid `exec.resume` from the viewer.
    Resume,
    /// The configured pause timeout expired.
    Timeout,
    /// The connection was lost while held (fail-open).
    Disconnect,
    /// `dispose`.
    Dispose,
    /// The host cancelled the waiter (`cancel`).
    Cancel,
}

/// Connection state (spec §1 `conn`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum ConnState {
    /// No socket (not started, or waiting for a retry).
    Idle,
    /// `Connect` issued, waiting for `transportOpened`.
    Connecting,
    /// `hello` sent, waiting for a valid `hello.ack`.
    AwaitingAck,
    /// Attached: frames go out live, gates can hold.
    Attached,
    /// Disposed (one-way).
    Disposed,
}

/// One thing the app's host must do, polled in order (spec §2.1).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum SessionAction {
    /// Open a WebSocket to `url`; answer with `transportOpened` or `transportFailed`.
    Connect {
        /// Endpoint.
        url: String,
    },
    /// Send this text frame on the open socket.
    Send {
        /// The frame text.
        frame: String,
    },
    /// Close the socket or abandon the attempt (1000 normal and timeouts, 1002 protocol
    /// error); ignore that socket from now on.
    Close {
        /// WebSocket close code.
        code: i64,
        /// Close reason.
        reason: String,
    },
    /// Wake the gate `pause_id` with `decision`; its `exec.resumed` is already emitted.
    Release {
        /// The pause id `gate` returned.
        pause_id: String,
        /// What the adapter must do.
        decision: Decision,
        /// Why.
        cause: ReleaseCause,
    },
    /// Abort the run's context before the `Abort` decision reaches the adapter (§3.7).
    AbortRun {
        /// The run.
        run_id: String,
    },
    /// The `ready` call `waiter` settled: attached or not.
    ReadySettled {
        /// The id `ready` returned.
        waiter: i64,
        /// Attached (true) or timed out, disabled or disposed (false).
        attached: bool,
    },
    /// Log this: `rule` is a stable key (`invalid-frame`, `version-mismatch`, `ack-protocol`,
    /// `handshake-timeout`, `connect-timeout`, `buffer-overflow`, `loop-detected`, `bad-run-id`,
    /// `breakpoint-limit`).
    Warn {
        /// Stable rule key.
        rule: String,
        /// Detail.
        text: String,
    },
}

fn action_to_host(a: s::Action) -> SessionAction {
    match a {
        s::Action::Connect { url } => SessionAction::Connect { url },
        s::Action::Send(frame) => SessionAction::Send { frame },
        s::Action::Close { code, reason } => SessionAction::Close { code: i64::from(code), reason },
        s::Action::Release { pause_id, decision, cause } => SessionAction::Release {
            pause_id,
            decision: decision_to_host(&decision),
            cause: match cause {
                s::ReleaseCause::Resume => ReleaseCause::Resume,
                s::ReleaseCause::Timeout => ReleaseCause::Timeout,
                s::ReleaseCause::Disconnect => ReleaseCause::Disconnect,
                s::ReleaseCause::Dispose => ReleaseCause::Dispose,
                s::ReleaseCause::Cancel => ReleaseCause::Cancel,
            },
        },
        s::Action::AbortRun { run_id } => SessionAction::AbortRun { run_id },
        s::Action::ReadySettled { waiter, attached } => SessionAction::ReadySettled { waiter: host_int(waiter.0), attached },
        s::Action::Warn(w) => SessionAction::Warn { rule: w.rule.to_owned(), text: w.text },
    }
}

/// The host's clock reading (`nowMs`): finite, `0 ≤ x ≤ 2^53 − 1`, fractions kept;
/// `ContractError.Build` naming `nowMs` and the rule otherwise (NaN, ±∞, negative).
fn now(now_ms: f64) -> Result<s::Millis, ContractError> {
    s::Millis::new(now_ms).map_err(|e| {
        let mut issues = Issues::new();
        issues.push(wirecontract::wire::Issue::at("nowMs", e.to_string()));
        build_error(format!("nowMs: {e}"), issues)
    })
}

/// A deadline for the host: milliseconds on its clock, fractions kept.
fn deadline(at: s::Millis) -> f64 {
    at.get()
}

/// A host-chosen connection id: `0 ≤ x ≤ 2^53 − 1`.
fn connection(conn: i64) -> Result<s::ConnectionId, ContractError> {
    int_arg::<SafeUInt>(conn, "conn").map(|c| s::ConnectionId(c.get()))
}

fn emit_error(e: s::EmitError) -> ContractError {
    match e {
        s::EmitError::Build(b) => from_build_error(b),
        other => build_error(other.to_string(), Issues::new()),
    }
}

// ---- app side: the object --------------------------------------------------------------------

/// The app side of a GraphMind session as a sans-IO state machine (spec §2.1): one seq
/// counter (hello included), the handshake, the replay ring with gap markers, controls, gates
/// with their `exec.resumed` obligations, and `heldMs`. Feed it inputs stamped with `nowMs`,
/// carry out what `pollActions()` returns, call `handleTimeout(now)` at `pollTimeout()`.
#[derive(uniffi::Object)]
pub struct AppSession {
    inner: Mutex<s::AppSession>,
}

/// The core's default replay-ring bound in UTF-8 bytes of frame text (`ringMaxBytes` when the
/// config leaves it `null`/`nil`: 8 MiB). The hosts check their outbound queue bound against it,
/// because a replay queues the whole ring at once.
#[uniffi::export]
pub fn default_ring_max_bytes() -> i64 {
    host_int(s::SessionConfig::default().ring_max_bytes as u64)
}

impl AppSession {
    fn core(&self) -> MutexGuard<'_, s::AppSession> {
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[uniffi::export]
impl AppSession {
    /// A new, not yet started session (spec §1): nothing happens until the first `emit`,
    /// `gate` or `ready`.
    /// Throws `ContractError.Build` for a config string holding a lone surrogate.
    #[uniffi::constructor(default(config = None))]
    pub fn new(config: Option<AppSessionConfig>) -> Result<Arc<Self>, ContractError> {
        let core = config.unwrap_or_default().to_core()?;
        Ok(Arc::new(AppSession { inner: Mutex::new(s::AppSession::new(core)) }))
    }

    /// T2: the socket opened; `hello` goes out with the next seq.
    pub fn transport_opened(&self, now_ms: f64) -> Result<(), ContractError> {
        self.core().transport_opened(now(now_ms)?);
        Ok(())
    }

    /// T3: the connect attempt failed.
    pub fn transport_failed(&self, now_ms: f64) -> Result<(), ContractError> {
        self.core().transport_failed(now(now_ms)?);
        Ok(())
    }

    /// T16/T3: the current socket closed (attached: disarm, release every held gate with
    /// `exec.resumed{continue}`, schedule the reconnect). Report only the current attempt.
    pub fn transport_closed(&self, now_ms: f64) -> Result<(), ContractError> {
        self.core().transport_closed(now(now_ms)?);
        Ok(())
    }

    /// One text frame from the viewer. Never throws: bad frames (a Kotlin string holding a
    /// lone surrogate among them: not UTF-8) become `Warn` actions.
    pub fn frame_received(&self, frame: HostString, now_ms: f64) -> Result<(), ContractError> {
        self.core().frame_received(&frame.0, now(now_ms)?);
        Ok(())
    }

    /// Fires every deadline `<= nowMs` (connect, handshake, retry, pause timeouts, ready).
    pub fn handle_timeout(&self, now_ms: f64) -> Result<(), ContractError> {
        self.core().handle_timeout(now(now_ms)?);
        Ok(())
    }

    /// T19, §2.3: emits a typed event in `run` (`null`/`nil`: the implicit run). Returns the
    /// seq taken, or `null`/`nil` when disabled or disposed. Throws `ContractError.Build` for
    /// a payload breaking a rule, a control/handshake type or a session-owned one
    /// (`exec.paused`, `exec.resumed`, `exec.refused`).
    #[uniffi::method(default(run = None))]
    pub fn emit(&self, message: Message, run: Option<HostString>, now_ms: f64) -> Result<Option<i64>, ContractError> {
        guard(|| {
            let (run, now_ms) = (opt_arg(run, "run")?, now(now_ms)?);
            let mut issues = Issues::new();
            let Some(converted) = <gm::Message as Convert>::from_host(&message, &mut issues, &HostPath::root("payload")) else {
                return Err(build_error(format!("invalid payload for message type \"{}\"", message.wire_type()), issues));
            };
            self.core().emit(converted, run.as_deref(), now_ms).map(|seq| seq.map(host_int)).map_err(emit_error)
        })
    }

    /// Queues one streamed delta of `nodeId` (`channel` `text`, `reasoning` or `tool-args`):
    /// sent in the node's next `node.token` when the batch window (`tokenBatchMs`, 34) closes
    /// (`handleTimeout`), before the node's `node.finished`, at a run's end or at dispose. An
    /// empty `value` is dropped. Throws `ContractError.Build` for another channel.
    #[uniffi::method(default(run = None))]
    pub fn push_token(&self, node_id: HostString, channel: HostString, value: HostString, run: Option<HostString>, now_ms: f64) -> Result<(), ContractError> {
        guard(|| {
            let (node_id, channel, value) = (arg(node_id, "nodeId")?, arg(channel, "channel")?, arg(value, "value")?);
            let (run, now_ms) = (opt_arg(run, "run")?, now(now_ms)?);
            self.core().push_token_str(&node_id, &channel, &value, run.as_deref(), now_ms).map_err(emit_error)
        })
    }

    /// Sends every pending token batch now.
    pub fn flush_tokens(&self, now_ms: f64) -> Result<(), ContractError> {
        self.core().flush_tokens(now(now_ms)?);
        Ok(())
    }

    /// `emit` with the payload as JSON text, validated against `messageType` (spec §5.13).
    #[uniffi::method(default(run = None))]
    pub fn emit_json(&self, message_type: HostString, payload_json: JsonText, run: Option<HostString>, now_ms: f64) -> Result<Option<i64>, ContractError> {
        guard(|| {
            let (message_type, run, now_ms) = (arg(message_type, "messageType")?, opt_arg(run, "run")?, now(now_ms)?);
            let payload_json = crate::json_arg(&payload_json, "payloadJson")?;
            self.core().emit_json(&message_type, payload_json, run.as_deref(), now_ms).map(|seq| seq.map(host_int)).map_err(emit_error)
        })
    }

    /// Starts run `runId`: emits `run.started` with the config's `app` and `sdk` and `meta` =
    /// `{"name": name}` followed by the members of `metaJson` (a JSON object text; its own
    /// `name` wins, keeping the first position). Same seq, buffering and no-op rules as
    /// `emit`: returns the seq taken, or `null`/`nil` when disabled or disposed. Throws
    /// `ContractError.Build` with issues under `meta` when `metaJson` is not a JSON object, or
    /// for a run id with U+0000 or `"*"`.
    #[uniffi::method(default(meta_json = None))]
    pub fn start_run(&self, run_id: HostString, name: HostString, meta_json: Option<JsonText>, now_ms: f64) -> Result<Option<i64>, ContractError> {
        guard(|| {
            let (run_id, name, now_ms) = (arg(run_id, "runId")?, arg(name, "name")?, now(now_ms)?);
            let meta_json = meta_json.as_ref().map(|m| crate::json_arg(m, "metaJson")).transpose()?;
            self.core().start_run_json(&run_id, &name, meta_json, now_ms).map(|seq| seq.map(host_int)).map_err(emit_error)
        })
    }

    /// Finishes run `runId`: emits `run.finished` with `status` (and `error`) from `end`;
    /// `aborted` whenever the viewer aborted the run (a `SessionAction.AbortRun` came). Same
    /// seq, buffering and no-op rules as `emit`. Throws `ContractError.Build` for a run id
    /// with U+0000 or `"*"` or holding a lone surrogate; a lone surrogate in a `Failed` end's
    /// strings becomes U+FFFD instead (see `RunEnd.Failed`).
    pub fn finish_run(&self, run_id: HostString, end: RunEnd, now_ms: f64) -> Result<Option<i64>, ContractError> {
        guard(|| {
            let (run_id, now_ms) = (arg(run_id, "runId")?, now(now_ms)?);
            let end = match end {
                RunEnd::Ok => s::RunEnd::Ok,
                RunEnd::Aborted => s::RunEnd::Aborted,
                // Lossy, not `arg`: refusing the host's exception text would leave the run
                // without its end on the wire (the host has nothing better to send).
                RunEnd::Failed { name, message, stack } => s::RunEnd::Failed(gm::ErrorInfo {
                    stack: stack.map(HostString::into_string_lossy),
                    ..gm::ErrorInfo::from_required(name.into_string_lossy(), message.into_string_lossy())
                }),
            };
            self.core().finish_run(&run_id, end, now_ms).map(|seq| seq.map(host_int)).map_err(emit_error)
        })
    }

    /// T20, §3.1: `null`/`nil` to continue now, or the pause id of a hold (`exec.paused` is
    /// already emitted; wait for the `Release` action with that id). Continues when disabled,
    /// disposed or detached (fail-open). Throws `ContractError.Build` only for a string holding
    /// a lone surrogate.
    #[uniffi::method(default(run = None))]
    pub fn gate(&self, point: PausePoint, node: GateNode, run: Option<HostString>, now_ms: f64) -> Result<Option<String>, ContractError> {
        let now_ms = now(now_ms)?;
        let node = s::GateNode {
            node_id: arg(node.node_id, "node.nodeId")?,
            kind: node.kind.into(),
            name: arg(node.name, "node.name")?,
            instance_id: opt_arg(node.instance_id, "node.instanceId")?,
        };
        let run = opt_arg(run, "run")?;
        Ok(match self.core().gate(point.into(), &node, run.as_deref(), now_ms) {
            s::GateOutcome::Continue => None,
            s::GateOutcome::Held(id) => Some(id),
        })
    }

    /// The waiter of `pauseId` went away: settle it with `continue` and `exec.resumed`
    /// (spec §3.8, §4 D16). False when the pause is not held.
    pub fn cancel(&self, pause_id: HostString, now_ms: f64) -> Result<bool, ContractError> {
        let (pause_id, now_ms) = (arg(pause_id, "pauseId")?, now(now_ms)?);
        Ok(self.core().cancel(&pause_id, now_ms))
    }

    /// T22: a waiter id settled by `ReadySettled` (true at the ack, false after `timeoutMs`,
    /// default the config's `readyTimeoutMs`). Connects now when idle.
    #[uniffi::method(default(timeout_ms = None))]
    pub fn ready(&self, now_ms: f64, timeout_ms: Option<i64>) -> Result<i64, ContractError> {
        let timeout_ms = timeout_ms.map(|t| ms_arg(t, "timeoutMs")).transpose()?;
        Ok(host_int(self.core().ready(now(now_ms)?, timeout_ms).0))
    }

    /// §2.5: releases every gate (`exec.resumed{continue}` live when attached), finishes the
    /// implicit run, closes with 1000, settles ready waiters false. Idempotent.
    pub fn dispose(&self, now_ms: f64) -> Result<(), ContractError> {
        self.core().dispose(now(now_ms)?);
        Ok(())
    }

    /// The next action, oldest first, or `null`/`nil`.
    pub fn poll_action(&self) -> Option<SessionAction> {
        self.core().poll_action().map(action_to_host)
    }

    /// Every pending action, oldest first.
    pub fn poll_actions(&self) -> Vec<SessionAction> {
        let mut core = self.core();
        std::iter::from_fn(|| core.poll_action()).map(action_to_host).collect()
    }

    /// The earliest deadline (ms) at which to call `handleTimeout`, or `null`/`nil`.
    pub fn poll_timeout(&self) -> Option<f64> {
        self.core().poll_timeout().map(deadline)
    }

    /// The connection state.
    pub fn state(&self) -> ConnState {
        match self.core().state() {
            s::ConnState::Idle => ConnState::Idle,
            s::ConnState::Connecting => ConnState::Connecting,
            s::ConnState::AwaitingAck => ConnState::AwaitingAck,
            s::ConnState::Attached => ConnState::Attached,
            s::ConnState::Disposed => ConnState::Disposed,
        }
    }

    /// Whether a valid `hello.ack` attached the current connection.
    pub fn is_attached(&self) -> bool {
        self.core().is_attached()
    }

    /// The seq the next frame takes.
    pub fn next_seq(&self) -> i64 {
        host_int(self.core().next_seq())
    }

    /// The last non-empty `hello.ack.sessionToken` (never cleared).
    pub fn session_token(&self) -> Option<String> {
        self.core().session_token().map(str::to_owned)
    }

    /// The armed breakpoints (`[]` while detached).
    pub fn breakpoints(&self) -> Vec<BreakpointMatcher> {
        self.core().breakpoints().iter().map(Convert::to_host).collect()
    }

    /// The armed mode (`run` while detached).
    pub fn mode(&self) -> RunMode {
        self.core().mode().to_host()
    }

    /// Pause ids of the gates held now, in hold order.
    pub fn held_pause_ids(&self) -> Vec<String> {
        self.core().held_pause_ids()
    }

    /// The replay ring's frames, oldest first, exactly as they are (re)sent.
    pub fn buffered_frames(&self) -> Vec<String> {
        self.core().buffered_frames().map(str::to_owned).collect()
    }
}

// ---- viewer side -----------------------------------------------------------------------------

/// Configuration of a `ViewerSession` (spec §5); `null`/`nil` fields take the reference hub's
/// defaults: breakpoints `[{point: error}]`, mode `run`, resume wait 5000 ms, abandon grace
/// 15000 ms, resume tokens reused up to 128 UTF-16 units, minted tokens `tok_<n>`.
#[derive(Debug, Clone, Default, PartialEq, uniffi::Record)]
pub struct ViewerSessionConfig {
    /// Initial breakpoints (the full set every ack carries).
    #[uniffi(default)]
    pub breakpoints: Option<Vec<BreakpointMatcher>>,
    /// Initial mode.
    #[uniffi(default)]
    pub mode: Option<RunMode>,
    /// `hello.ack.versions.viewer`.
    #[uniffi(default)]
    pub viewer_version: Option<HostString>,
    /// `hello.ack.hubCapabilities`.
    #[uniffi(default)]
    pub hub_capabilities: Option<Vec<HostString>>,
    /// Minted tokens are `<prefix><n>` (hosts pass a random prefix).
    #[uniffi(default)]
    pub token_prefix: Option<HostString>,
    /// How long a sent `exec.resume` waits for its answer, in ms.
    #[uniffi(default)]
    pub resume_wait_ms: Option<i64>,
    /// How long a run whose owner left stays running, in ms.
    #[uniffi(default)]
    pub abandon_grace_ms: Option<i64>,
}

/// What `ViewerSession.frameReceived` did with one frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum Received {
    /// A `hello`, answered with a `hello.ack`.
    Hello,
    /// A first-seen `(runId, seq)`; `replayed` when buffered before this connection.
    Accepted {
        /// Whether it arrived as a replay.
        replayed: bool,
    },
    /// An already seen `(runId, seq)`, dropped.
    Duplicate {
        /// Whether it arrived as a replay.
        replayed: bool,
    },
    /// A `runId "*"` frame other than `hello`.
    Wildcard,
    /// Invalid, `gm != 1` or a `hello` of another protocol version, a viewer-side type, or
    /// before `hello` (a `Warn` says which).
    Rejected,
}

/// One thing the viewer's host must do or know, polled in order (spec §5).
#[allow(clippy::large_enum_variant, reason = "uniffi lowers an enum by value: no variant can be boxed, and the sizes follow the contract's payloads")]
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum ViewerAction {
    /// Send `frame` on connection `conn`.
    Send {
        /// Connection.
        conn: i64,
        /// Frame text.
        frame: String,
    },
    /// Close connection `conn` (1002 for `gm != 1` or a `hello` of another protocol version).
    Close {
        /// Connection.
        conn: i64,
        /// Close code.
        code: i64,
        /// Reason.
        reason: String,
    },
    /// `conn` said hello and was answered with an ack carrying `sessionToken`.
    AppAttached {
        /// Connection.
        conn: i64,
        /// Token in the ack.
        session_token: String,
        /// The app's hello.
        hello: Hello,
    },
    /// A first-seen event frame.
    FrameAccepted {
        /// Connection.
        conn: i64,
        /// The frame.
        envelope: Envelope,
        /// Buffered before this connection.
        replayed: bool,
    },
    /// A live, first-seen `exec.paused`: open and resumable.
    PauseOpened {
        /// Owning connection.
        conn: i64,
        /// Run.
        run_id: String,
        /// Pause id.
        pause_id: String,
        /// Node.
        node_id: String,
        /// Gate point.
        point: PausePoint,
    },
    /// `exec.resumed` arrived for a known pause.
    PauseClosed {
        /// Pause id.
        pause_id: String,
        /// Applied action.
        action: ResumeAction,
    },
    /// The owner closed while the pause was open: the app continued (fail-open).
    PauseReleased {
        /// Closed connection.
        conn: i64,
        /// Pause id.
        pause_id: String,
    },
    /// `exec.refused`: the pause stays open.
    ResumeRefused {
        /// Pause id.
        pause_id: String,
        /// Refusal code.
        code: RefusalCode,
        /// Echoed request id.
        request_id: Option<String>,
    },
    /// A sent `exec.resume` got no answer within the resume wait.
    ResumeTimedOut {
        /// Pause id.
        pause_id: String,
    },
    /// A run's owner stayed away for the abandon grace.
    RunAbandoned {
        /// Run.
        run_id: String,
    },
    /// Log this: `invalid-frame`, `version-mismatch`, `before-hello`, `unexpected-type`.
    Warn {
        /// Connection.
        conn: i64,
        /// Stable rule key.
        rule: String,
        /// Detail.
        text: String,
    },
}

fn viewer_action_to_host(a: s::ViewerAction) -> ViewerAction {
    use s::ViewerAction as A;
    match a {
        A::Send { conn, frame } => ViewerAction::Send { conn: host_int(conn.0), frame },
        A::Close { conn, code, reason } => ViewerAction::Close { conn: host_int(conn.0), code: i64::from(code), reason },
        A::AppAttached { conn, session_token, hello } => ViewerAction::AppAttached { conn: host_int(conn.0), session_token, hello: hello.to_host() },
        A::FrameAccepted { conn, envelope, replayed } => {
            ViewerAction::FrameAccepted { conn: host_int(conn.0), envelope: envelope_to_host(&envelope), replayed }
        }
        A::PauseOpened { conn, run_id, pause_id, node_id, point } => {
            ViewerAction::PauseOpened { conn: host_int(conn.0), run_id, pause_id, node_id, point: point.to_host() }
        }
        A::PauseClosed { pause_id, action } => ViewerAction::PauseClosed { pause_id, action: action.to_host() },
        A::PauseReleased { conn, pause_id } => ViewerAction::PauseReleased { conn: host_int(conn.0), pause_id },
        A::ResumeRefused { pause_id, code, request_id } => ViewerAction::ResumeRefused { pause_id, code: code.to_host(), request_id },
        A::ResumeTimedOut { pause_id } => ViewerAction::ResumeTimedOut { pause_id },
        A::RunAbandoned { run_id } => ViewerAction::RunAbandoned { run_id },
        A::Warn { conn, rule, text } => ViewerAction::Warn { conn: host_int(conn.0), rule: rule.to_owned(), text },
    }
}

/// Why `ViewerSession.resume` sent nothing (Kotlin `ResumeException`, Swift `ResumeError`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum ResumeError {
    /// No live `exec.paused` with this id was seen (or it was a replay).
    #[error("no open pause with this id")]
    UnknownPause,
    /// The pause was released by fail-open when its connection closed.
    #[error("the pause was released when its app disconnected")]
    ReleasedByDisconnect,
    /// The run's app connection is gone.
    #[error("the run's app connection is gone")]
    OwnerGone,
    /// `outputJson` is not JSON.
    #[error("{reason}")]
    BadOutput {
        /// Why.
        reason: String,
    },
    /// `pauseId`, `requestId` or `outputJson` holds a lone surrogate (no UTF-8 form), or `nowMs` is negative
    /// or above 2^53 − 1: names the argument.
    #[error("{reason}")]
    BadArgument {
        /// Why.
        reason: String,
    },
}

/// The viewer side of GraphMind sessions as a sans-IO state machine (spec §5): per-connection
/// handshake, `(runId, seq)` de-duplication that outlives connections, pause bookkeeping,
/// resume routing, breakpoint/mode broadcast. Connection ids are chosen by the host.
#[derive(uniffi::Object)]
pub struct ViewerSession {
    inner: Mutex<s::ViewerSession>,
}

impl ViewerSession {
    fn core(&self) -> MutexGuard<'_, s::ViewerSession> {
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[uniffi::export]
impl ViewerSession {
    /// A viewer armed with the config's breakpoints and mode.
    /// Throws `ContractError.Build` for a config string holding a lone surrogate.
    #[uniffi::constructor(default(config = None))]
    pub fn new(config: Option<ViewerSessionConfig>) -> Result<Arc<Self>, ContractError> {
        let cfg = config.unwrap_or_default();
        let mut c = s::ViewerConfig::default();
        if let Some(b) = &cfg.breakpoints {
            c.breakpoints = b.iter().enumerate().map(|(i, m)| matcher_at(m, &format!("config.breakpoints.{i}"))).collect::<Result<_, _>>()?;
        }
        if let Some(m) = cfg.mode {
            c.mode = m.into();
        }
        if let Some(v) = opt_arg(cfg.viewer_version, "config.viewerVersion")? {
            c.viewer_version = v;
        }
        c.hub_capabilities = cfg.hub_capabilities.map(|v| host_strings(v, "config.hubCapabilities")).transpose()?;
        if let Some(v) = opt_arg(cfg.token_prefix, "config.tokenPrefix")? {
            c.token_prefix = v;
        }
        if let Some(v) = cfg.resume_wait_ms {
            c.resume_wait_ms = ms_arg(v, "config.resumeWaitMs")?;
        }
        if let Some(v) = cfg.abandon_grace_ms {
            c.abandon_grace_ms = ms_arg(v, "config.abandonGraceMs")?;
        }
        Ok(Arc::new(ViewerSession { inner: Mutex::new(s::ViewerSession::new(c)) }))
    }

    /// A new app connection.
    pub fn connection_opened(&self, conn: i64) -> Result<(), ContractError> {
        self.core().connection_opened(connection(conn)?);
        Ok(())
    }

    /// `conn` closed: its open pauses are released by fail-open (`PauseReleased`).
    pub fn connection_closed(&self, conn: i64, now_ms: f64) -> Result<(), ContractError> {
        self.core().connection_closed(connection(conn)?, now(now_ms)?);
        Ok(())
    }

    /// One text frame from `conn`; says what the session did with it. Never throws (a Kotlin
    /// string holding a lone surrogate is an invalid frame: not UTF-8).
    pub fn frame_received(&self, conn: i64, frame: HostString, now_ms: f64) -> Result<Received, ContractError> {
        let (conn, now_ms) = (connection(conn)?, now(now_ms)?);
        let outcome = gm::parse(&frame.0, &gm::ParseOptions::default());
        Ok(match self.core().outcome_received(conn, &frame.0, outcome, now_ms) {
            s::Received::Hello => Received::Hello,
            s::Received::Accepted { replayed } => Received::Accepted { replayed },
            s::Received::Duplicate { replayed } => Received::Duplicate { replayed },
            s::Received::Wildcard => Received::Wildcard,
            s::Received::Rejected => Received::Rejected,
        })
    }

    /// Adds a breakpoint unless an equal one exists and broadcasts it; whether it was added.
    pub fn set_breakpoint(&self, matcher_: BreakpointMatcher, now_ms: f64) -> Result<bool, ContractError> {
        let m = matcher(&matcher_)?;
        Ok(self.core().set_breakpoint(m, now(now_ms)?))
    }

    /// Removes every equal breakpoint and broadcasts the clear; how many were removed.
    pub fn clear_breakpoint(&self, matcher_: BreakpointMatcher, now_ms: f64) -> Result<i64, ContractError> {
        let m = matcher(&matcher_)?;
        Ok(host_int(self.core().clear_breakpoint(&m, now(now_ms)?) as u64))
    }

    /// Sets the mode and broadcasts `mode.set` when it changed.
    pub fn set_mode(&self, mode: RunMode, now_ms: f64) -> Result<(), ContractError> {
        let mode = mode.into();
        self.core().set_mode(mode, now(now_ms)?);
        Ok(())
    }

    /// Sends `exec.resume` for an open pause to the connection owning its run; `outputJson`
    /// (JSON text) for an inject. Throws `ResumeError` when nothing was sent.
    #[uniffi::method(default(output_json = None, request_id = None))]
    pub fn resume(
        &self,
        pause_id: HostString,
        action: ResumeAction,
        now_ms: f64,
        output_json: Option<JsonText>,
        request_id: Option<HostString>,
    ) -> Result<(), ResumeError> {
        let bad = |e: ContractError| ResumeError::BadArgument { reason: e.to_string() };
        let (pause_id, request_id) = (arg(pause_id, "pauseId").map_err(bad)?, opt_arg(request_id, "requestId").map_err(bad)?);
        let now_ms = now(now_ms).map_err(bad)?;
        let action = action.into();
        let output = output_json
            .map(|t| {
                let text = crate::json_arg(&t, "outputJson").map_err(bad)?;
                RawJson::from_json(text).map_err(|e| ResumeError::BadOutput { reason: format!("outputJson: {e}") })
            })
            .transpose()?;
        self.core().resume(&pause_id, action, output, request_id, now_ms).map_err(|e| match e {
            s::ResumeError::UnknownPause => ResumeError::UnknownPause,
            s::ResumeError::ReleasedByDisconnect => ResumeError::ReleasedByDisconnect,
            s::ResumeError::OwnerGone => ResumeError::OwnerGone,
        })
    }

    /// Fires resume waits and abandon graces due at `nowMs`.
    pub fn handle_timeout(&self, now_ms: f64) -> Result<(), ContractError> {
        self.core().handle_timeout(now(now_ms)?);
        Ok(())
    }

    /// Every pending action, oldest first.
    pub fn poll_actions(&self) -> Vec<ViewerAction> {
        let mut core = self.core();
        std::iter::from_fn(|| core.poll_action()).map(viewer_action_to_host).collect()
    }

    /// The earliest deadline (ms) for `handleTimeout`, or `null`/`nil`.
    pub fn poll_timeout(&self) -> Option<f64> {
        self.core().poll_timeout().map(deadline)
    }

    /// Open pause ids (live, unanswered, owner connected), sorted.
    pub fn open_pauses(&self) -> Vec<String> {
        self.core().open_pauses()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "ab\uD800c" as Kotlin lowers it: the lone surrogate as its generalized UTF-8 bytes.
    fn with_lone_surrogate() -> HostString {
        HostString([b"ab".as_slice(), &[0xED, 0xA0, 0x80], b"c"].concat())
    }

    #[test]
    fn a_failed_end_with_a_lone_surrogate_still_finishes_the_run_with_u_fffd() {
        let session = AppSession::new(None).unwrap();
        session.start_run("r".into(), "n".into(), None, 1.0).unwrap();
        let end = RunEnd::Failed { name: with_lone_surrogate(), message: with_lone_surrogate(), stack: Some(with_lone_surrogate()) };
        // The seq of run.finished, after the run's root node and its node.error.
        let seq = session.finish_run("r".into(), end, 2.0).unwrap().unwrap();
        let frame = session.buffered_frames().into_iter().find(|f| f.contains("run.finished")).unwrap();
        assert!(frame.contains(&format!(r#""seq":{seq},"#)), "{frame}");
        let replaced = "ab\u{FFFD}c";
        assert!(frame.contains(&format!(r#""error":{{"name":"{replaced}","message":"{replaced}","stack":"{replaced}"}}"#)), "{frame}");
    }

    #[test]
    fn a_run_id_with_a_lone_surrogate_is_still_refused() {
        let session = AppSession::new(None).unwrap();
        let err = session.finish_run(with_lone_surrogate(), RunEnd::Ok, 1.0).unwrap_err();
        assert!(matches!(&err, ContractError::Build { reason, .. } if reason.contains("runId") && reason.contains("UTF-16 index 2")), "{err:?}");
    }
}
