//! Every knob of the app-side session with the spec's defaults (graphmind-session §1,
//! Decision 5: every timeout and size is configurable).

use crate::graphmind::{NodeKind, SdkInfo};
use crate::wire::OpaqueObject;

/// Default endpoint (graphmind-session §1 Environment, `GRAPHMIND_URL`).
pub const DEFAULT_URL: &str = "ws://127.0.0.1:4747/ingest";

/// Capabilities this runtime implements, announced in `hello` (Decision 3): holds, step mode,
/// the three non-continue actions, and `run-claim` (the session token is echoed as
/// `resumeToken`). `edit-input` is not implemented, so not announced.
pub const SESSION_CAPABILITIES: &[&str] = &["pause", "step", "inject", "retry", "abort", "run-claim"];

/// What the loop guard does on a hit (graphmind-session §1, §3.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopMode {
    /// Hold the gate with `reason:"loop"`.
    Pause,
    /// Only emit a `loop-detected` warning.
    Warn,
    /// Do not track streaks.
    Off,
}

impl LoopMode {
    /// The host strings of the modes, in declaration order (`loop_mode` arguments).
    pub const VALUES: &'static [&'static str] = &["pause", "warn", "off"];

    /// The mode for its host string (`"pause"`, `"warn"`, `"off"`; exact), else `None`.
    #[must_use]
    pub fn from_host(s: &str) -> Option<Self> {
        match s {
            "pause" => Some(LoopMode::Pause),
            "warn" => Some(LoopMode::Warn),
            "off" => Some(LoopMode::Off),
            _ => None,
        }
    }
}

/// The placeholder every hidden value becomes (graphmind-session §1 Redaction; the reference
/// clients' `REDACTED`).
pub const REDACTED_PLACEHOLDER: &str = "__REDACTED__";

/// Window of the token batcher in milliseconds (graphmind-session §1 "token batch": 34 ms).
pub const DEFAULT_TOKEN_BATCH_MS: u64 = 34;

/// Nesting depth (the payload object is level 1) past which a top-level payload member is
/// replaced by the reference's unserializable-value marker (see
/// [`SessionConfig::max_value_depth`]).
pub const DEFAULT_MAX_VALUE_DEPTH: usize = 1000;

/// Loop guard policy (graphmind-session §1 "loop guard", §3.4). Defaults: threshold 3, mode
/// `pause`, kinds `[tool]`, no allowed nodes, 64 tracked runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopGuardConfig {
    /// Identical back-to-back `node.started` count that trips the guard. `0` turns the guard
    /// off, as in the reference clients.
    pub threshold: u64,
    /// What a hit does.
    pub mode: LoopMode,
    /// Node kinds whose streaks are tracked.
    pub kinds: Vec<NodeKind>,
    /// Runs tracked at once; the least recently used one is forgotten beyond this.
    pub max_runs: usize,
    /// Node ids or names that legitimately repeat (`GRAPHMIND_LOOP_ALLOW`): their starts
    /// touch no streak and their gates never loop-hold.
    pub allow: Vec<String>,
}

impl Default for LoopGuardConfig {
    fn default() -> Self {
        LoopGuardConfig { threshold: 3, mode: LoopMode::Pause, kinds: vec![NodeKind::Tool], max_runs: 64, allow: Vec::new() }
    }
}

/// The four coarse redaction switches (graphmind-session §1 Redaction, `GRAPHMIND_HIDE_*`).
/// All off by default. A hidden value becomes [`REDACTED_PLACEHOLDER`] (a hidden token delta
/// becomes `v:""` with its length in UTF-16 units as `chars`) and the event carries
/// `redaction: {count, keys}`; `node.error` is never redacted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // the four switches of the reference clients, by name
pub struct RedactionConfig {
    /// `node.started.input` of every kind, and `tool-args` deltas.
    pub hide_inputs: bool,
    /// `node.finished.output` of every kind, and every delta.
    pub hide_outputs: bool,
    /// `node.started.input` of `tool` nodes, and `tool-args` deltas.
    pub hide_tool_args: bool,
    /// `node.finished.output` of `tool` instances, and every delta a tool node streams.
    pub hide_tool_results: bool,
}

impl RedactionConfig {
    /// Whether any switch is on.
    #[must_use]
    pub fn any(&self) -> bool {
        self.hide_inputs || self.hide_outputs || self.hide_tool_args || self.hide_tool_results
    }

    /// Each switch on in `self` or in `other`.
    #[must_use]
    pub fn or(self, other: RedactionConfig) -> RedactionConfig {
        RedactionConfig {
            hide_inputs: self.hide_inputs || other.hide_inputs,
            hide_outputs: self.hide_outputs || other.hide_outputs,
            hide_tool_args: self.hide_tool_args || other.hide_tool_args,
            hide_tool_results: self.hide_tool_results || other.hide_tool_results,
        }
    }
}

/// What the environment imposes whatever the host's explicit settings say (set by
/// [`SessionConfig::from_env`], applied by [`AppSession::new`](super::AppSession::new)):
/// the kill switch `GRAPHMIND_DISABLED` always disables, and a `GRAPHMIND_HIDE_*` switch
/// turned on in the environment cannot be turned off by an argument (the reference clients'
/// "an environment switch is a floor code cannot lower").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EnvFloor {
    /// `GRAPHMIND_DISABLED` is on.
    pub disabled: bool,
    /// The `GRAPHMIND_HIDE_*` switches that are on.
    pub redaction: RedactionConfig,
}

/// Configuration of an [`AppSession`](super::AppSession). `Default` gives the values of
/// graphmind-session §1 (TS values where TS and PY differ, Decision 1). Times are
/// milliseconds, sizes bytes (UTF-8).
#[derive(Debug, Clone, PartialEq)]
pub struct SessionConfig {
    /// `false` builds a session that never connects, whose gates continue and whose `ready`
    /// settles `false` (kill switch, §1; [`SessionConfig::from_env`] reads the environment).
    /// Default `true`.
    pub enabled: bool,
    /// Endpoint for [`Action::Connect`](super::Action::Connect). Default [`DEFAULT_URL`].
    pub url: String,
    /// `hello.app` and `run.started.app` of the implicit run. Default `"app"`.
    pub app: String,
    /// `hello.sdk` and `run.started.sdk` of the implicit run.
    pub sdk: SdkInfo,
    /// `hello.versions.client`. Default: this crate's version.
    pub client_version: String,
    /// `hello.capabilities`. Default [`SESSION_CAPABILITIES`].
    pub capabilities: Vec<String>,
    /// Ring bound in frames (§1: 5000; PY 2000).
    pub ring_max_frames: usize,
    /// Ring bound in bytes of frame text (§1: 8 MiB). TS counts UTF-16 units; we count UTF-8
    /// bytes. One frame larger than this is never buffered (§2.3).
    pub ring_max_bytes: usize,
    /// Runs with their own gap record; losses past this are only counted (§1: 64).
    pub max_tracked_gap_runs: usize,
    /// Minimum spacing of `buffer-overflow` warnings (§2.4 "one warning per interval").
    /// Default 10 000.
    pub loss_warn_interval_ms: u64,
    /// Hold limit after which a gate continues (§3.8). Default `None`: hold forever.
    pub pause_timeout_ms: Option<u64>,
    /// Socket-open deadline (§1: 300).
    pub connect_timeout_ms: u64,
    /// `hello` → `hello.ack` deadline (§1: 1000).
    pub handshake_timeout_ms: u64,
    /// Delay between attempts (§1: 10 000).
    pub retry_interval_ms: u64,
    /// Fast reconnect burst after an established attachment drops, each clamped to
    /// `retry_interval_ms` (§1, §4 D5: 200, 400, 800).
    pub fast_retry_ms: Vec<u64>,
    /// Default `ready()` deadline (§1: 2000).
    pub ready_timeout_ms: u64,
    /// Six hex digits (or any id-safe text) making pause ids `pause_<base>_<n>` and the
    /// implicit run id unique per process (§3.3). The core has no randomness: hosts should
    /// pass random hex. Default `"000000"`.
    pub id_base: String,
    /// Run id of the implicit run created by the first emit or gate outside a run (§2.3).
    /// Default `None`: `run_<id_base>`.
    pub implicit_run_id: Option<String>,
    /// Open node instances the held ledger tracks (§1: 10 000; oldest forgotten).
    pub max_held_instances: usize,
    /// Breakpoints armed at once (a resource limit; the spec sets none). A `breakpoint.set`
    /// of a new matcher past it is ignored, and so are the excess matchers of a `hello.ack`:
    /// one `breakpoint-limit` warning each time the cap is reached (none per further refusal
    /// until a breakpoint is cleared or the session re-arms). Default 1024.
    pub max_breakpoints: usize,
    /// Loop guard policy (§3.4).
    pub loop_guard: LoopGuardConfig,
    /// The redaction placeholder. An `inject` whose `output` contains it is refused with
    /// `exec.refused{code:"placeholder"}` (§3.6 inject guard), whether or not this session
    /// redacts. Default [`REDACTED_PLACEHOLDER`]; `None` turns the guard's placeholder check
    /// off.
    pub redaction_placeholder: Option<String>,
    /// The `GRAPHMIND_HIDE_*` switches (graphmind-session §1). Default: all off.
    pub redaction: RedactionConfig,
    /// Token batching window (§1 "token batch"): deltas passed to
    /// [`AppSession::push_token`](super::AppSession::push_token) are sent as one `node.token`
    /// per node per window, and a node's batch is flushed before its `node.finished` (not
    /// before `node.error`). Default `Some(34)`; `None` or `Some(0)` sends each delta at once.
    pub token_batch_ms: Option<u64>,
    /// Emit the run's root node (`agent:<name>`, kind `agent`, `instanceId` = run id) after
    /// `run.started`, and its `node.error`/`node.finished` before `run.finished`, as the real
    /// client's `run()` does. Default `true`.
    pub root_node: bool,
    /// Session metadata, merged into every `run.started.meta` after its `name` (and, for the
    /// implicit run, after `"name":"implicit","implicit":true`), as the real client's
    /// `Session(meta=...)`. Default `None`.
    pub meta: Option<OpaqueObject>,
    /// Deepest nesting a top-level payload member may reach (the payload object is level 1).
    /// A deeper member is replaced by `{__graphmindTruncated:true, bytes:0,
    /// preview:"[unserializable value]"}` (`[]` for an array), and the payload gains
    /// `__graphmindTruncated:true`, `fields:[names]` and `_graphmindSerializationError:true`,
    /// as the reference clients mark a value they cannot serialize. Default `Some(1000)`;
    /// `None` or `Some(0)`: no cap.
    pub max_value_depth: Option<usize>,
    /// What the environment imposes over explicit settings (see [`EnvFloor`]). Default: none.
    pub env_floor: EnvFloor,
    /// Payload budget of every event the session frames, in UTF-8 bytes of payload JSON as
    /// `JSON.stringify` writes it (§2.3 step 4: 512 KiB, `DEFAULT_MAX_PAYLOAD_BYTES`;
    /// graphmind-shrink §1, §3). A payload over it is shrunk (field trim, skeleton, or the
    /// whole-payload marker) and the shrunk text is spliced into the frame verbatim, as the
    /// reference clients send it; one within budget goes out as written. `None`: never shrink.
    pub max_payload_bytes: Option<usize>,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            enabled: true,
            url: DEFAULT_URL.to_owned(),
            app: "app".to_owned(),
            sdk: SdkInfo::from_required("wirecontract".to_owned(), env!("CARGO_PKG_VERSION").to_owned()),
            client_version: env!("CARGO_PKG_VERSION").to_owned(),
            capabilities: SESSION_CAPABILITIES.iter().map(|c| (*c).to_owned()).collect(),
            ring_max_frames: 5000,
            ring_max_bytes: 8 * 1024 * 1024,
            max_tracked_gap_runs: 64,
            loss_warn_interval_ms: 10_000,
            pause_timeout_ms: None,
            connect_timeout_ms: 300,
            handshake_timeout_ms: 1000,
            retry_interval_ms: 10_000,
            fast_retry_ms: vec![200, 400, 800],
            ready_timeout_ms: 2000,
            id_base: "000000".to_owned(),
            implicit_run_id: None,
            max_held_instances: 10_000,
            max_breakpoints: 1024,
            loop_guard: LoopGuardConfig::default(),
            redaction_placeholder: Some(REDACTED_PLACEHOLDER.to_owned()),
            redaction: RedactionConfig::default(),
            token_batch_ms: Some(DEFAULT_TOKEN_BATCH_MS),
            root_node: true,
            meta: None,
            max_value_depth: Some(DEFAULT_MAX_VALUE_DEPTH),
            env_floor: EnvFloor::default(),
            max_payload_bytes: Some(crate::graphmind::DEFAULT_MAX_PAYLOAD_BYTES),
        }
    }
}
