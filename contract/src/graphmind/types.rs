//! Every GraphMind v1 payload and helper object (spec graphmind-v1 §1), declared once.
//!
//! Field order is the reference schema's declaration order, which is also the order
//! [`crate::graphmind::serialize_envelope`] writes known fields in; unknown members follow in
//! their wire order.

use crate::wire::{NonNegativeF64, OpaqueObject, PositiveSafeUInt, SafeInt, SafeUInt};
use wirecontract_json::RawJson;

wire_enum! {
    /// The kind of a node (§1 primitives); `chain/retriever` since 0.2.0,
    /// `server/resource/prompt` since 0.4.0 for MCP. Closed: an unknown kind is invalid.
    #[constant = "NODE_KINDS"]
    pub enum NodeKind {
        /// An agent (the run's root node, or a sub-agent).
        Agent = "agent",
        /// A language-model call.
        Llm = "llm",
        /// A tool call.
        Tool = "tool",
        /// A chain of steps.
        Chain = "chain",
        /// A retriever.
        Retriever = "retriever",
        /// An MCP server.
        Server = "server",
        /// An MCP resource.
        Resource = "resource",
        /// An MCP prompt.
        Prompt = "prompt",
        /// Anything else.
        Custom = "custom",
    }
}

wire_enum! {
    /// How a run or node ended (§1 `RunStatus`).
    #[constant = "RUN_STATUSES"]
    pub enum RunStatus {
        /// Finished normally.
        Ok = "ok",
        /// Failed.
        Error = "error",
        /// Aborted from the viewer.
        Aborted = "aborted",
    }
}

wire_enum! {
    /// Where a gate sits around a node (§1 `PausePoint`).
    #[constant = "PAUSE_POINTS"]
    pub enum PausePoint {
        /// Before the node runs.
        Before = "before",
        /// After it returned.
        After = "after",
        /// After it raised.
        Error = "error",
    }
}

wire_enum! {
    /// What the viewer asks a held gate to do (§1 `ResumeAction`).
    #[constant = "RESUME_ACTIONS"]
    pub enum ResumeAction {
        /// Let the node run (or its result through).
        Continue = "continue",
        /// Run the node again.
        Retry = "retry",
        /// Replace the node's output with `exec.resume.output`.
        Inject = "inject",
        /// Abort the run.
        Abort = "abort",
    }
}

wire_enum! {
    /// Run mode (§1 `RunMode`): `step` pauses at every `before` and `error` point.
    #[constant = "RUN_MODES"]
    pub enum RunMode {
        /// Pause only at matching breakpoints.
        Run = "run",
        /// Pause at every node.
        Step = "step",
    }
}

wire_enum! {
    /// The channel of a token delta (§1 `TokenDelta.t`).
    pub enum TokenChannel {
        /// Answer text.
        Text = "text",
        /// Reasoning text.
        Reasoning = "reasoning",
        /// Streamed tool-call arguments.
        ToolArgs = "tool-args",
    }
}

wire_enum! {
    /// Why a gate paused (§1 `PauseReason`).
    pub enum PauseReason {
        /// A breakpoint matched.
        Breakpoint = "breakpoint",
        /// The node raised.
        Error = "error",
        /// Step mode.
        Step = "step",
        /// Loop detection fired.
        Loop = "loop",
    }
}

wire_enum! {
    /// The kind of detected loop (§1 `LoopInfo.kind`).
    pub enum LoopKind {
        /// The same node repeated.
        Repeat = "repeat",
        /// A cycle of nodes.
        Cycle = "cycle",
        /// The same error repeated.
        ErrorRepeat = "error-repeat",
    }
}

wire_enum! {
    /// The rule of a smart pause (§1 `SmartInfo.rule`).
    pub enum SmartRule {
        /// A tool returned an error-looking result.
        ErrorResult = "error-result",
        /// A tool call's arguments were truncated.
        TruncatedToolCall = "truncated-tool-call",
    }
}

wire_enum! {
    /// Why the app refused an `exec.resume` (§1 `RefusalCode`, 0.6.0).
    pub enum RefusalCode {
        /// The injected value failed the node's schema.
        Schema = "schema",
        /// The injected value had the wrong shape.
        Shape = "shape",
        /// The injected value was a placeholder.
        Placeholder = "placeholder",
        /// The injected value was truncated.
        Truncated = "truncated",
        /// Injection is disabled.
        Disabled = "disabled",
        /// The action is not supported here.
        Unsupported = "unsupported",
    }
}

wire_object! {
    /// An error description (§1 `ErrorInfo`).
    pub struct ErrorInfo {
        /// Exception class name.
        name: String = "name",
        /// Exception message.
        message: String = "message",
        /// Stack trace text.
        stack: Option<String> = "stack",
    }
}

wire_object! {
    /// Token counts of an LLM call (§1 `TokenUsage`): nonnegative safe integers.
    pub struct TokenUsage {
        /// Prompt tokens.
        input_tokens: SafeUInt = "inputTokens",
        /// Completion tokens.
        output_tokens: SafeUInt = "outputTokens",
        /// Whether the counts include child nodes.
        inclusive: Option<bool> = "inclusive",
        /// Tokens read from a prompt cache.
        cache_read_tokens: Option<SafeUInt> = "cacheReadTokens",
        /// Tokens written to a prompt cache.
        cache_write_tokens: Option<SafeUInt> = "cacheWriteTokens",
        /// Reasoning tokens.
        reasoning_tokens: Option<SafeUInt> = "reasoningTokens",
    }
}

wire_object! {
    /// One streamed piece of model output (§1 `TokenDelta`).
    pub struct TokenDelta {
        /// Channel.
        t: TokenChannel = "t",
        /// Text of this piece.
        v: String = "v",
    }
}

wire_object! {
    /// Selects gates to pause at (§1 `BreakpointMatcher`). `{}` is valid and matches every
    /// `before` gate; an absent `point` means `before` when matching (§5.12), not when parsing.
    pub struct BreakpointMatcher {
        /// Node kind to match.
        kind: Option<NodeKind> = "kind",
        /// Node name to match.
        name: Option<String> = "name",
        /// Gate point to match (absent: `before`).
        point: Option<PausePoint> = "point",
    }
}

wire_object! {
    /// One node of a static graph hint (§1 `GraphNodeHint`).
    pub struct GraphNodeHint {
        /// Node id.
        node_id: String = "nodeId",
        /// Node kind.
        kind: NodeKind = "kind",
        /// Display name.
        name: String = "name",
        /// Parent node id.
        parent_id: Option<String> = "parentId",
    }
}

wire_object! {
    /// The instrumenting SDK (§1 `SdkInfo`).
    pub struct SdkInfo {
        /// SDK name.
        name: String = "name",
        /// SDK version.
        version: String = "version",
    }
}

wire_object! {
    /// What redaction removed (§1 `RedactionSummary`; senders add `failed: true`).
    pub struct RedactionSummary {
        /// How many values were redacted.
        count: SafeUInt = "count",
        /// Which keys were redacted.
        keys: Vec<String> = "keys",
    }
}

wire_object! {
    /// Loop-detection details of a pause (§1 `LoopInfo`).
    pub struct LoopInfo {
        /// How many repeats were seen.
        repeats: SafeUInt = "repeats",
        /// Seq of the first repeat.
        first_seq: SafeUInt = "firstSeq",
        /// Seq of the last repeat.
        last_seq: SafeUInt = "lastSeq",
        /// Fingerprint of the repeated step.
        fingerprint: String = "fingerprint",
        /// Loop kind.
        kind: Option<LoopKind> = "kind",
        /// Cycle length (positive).
        period: Option<PositiveSafeUInt> = "period",
        /// Completed laps (positive).
        laps: Option<PositiveSafeUInt> = "laps",
    }
}

wire_object! {
    /// Smart-pause details (§1 `SmartInfo`).
    pub struct SmartInfo {
        /// Rule that fired.
        rule: SmartRule = "rule",
        /// Human-readable detail.
        detail: Option<String> = "detail",
    }
}

wire_object! {
    /// An edit applied on resume (`exec.resumed.edited`): the key `after` is required, its
    /// value may be `null`.
    pub struct EditedValue {
        /// The value after the edit (opaque).
        after: RawJson = "after",
    }
}

wire_object! {
    /// `hello.versions`: protocol (any safe integer, not checked against `gm`) and client.
    pub struct ClientVersions {
        /// Protocol version the app speaks.
        protocol: SafeInt = "protocol",
        /// Client library version.
        client: String = "client",
    }
}

wire_object! {
    /// `hello.ack.versions`: protocol and viewer.
    pub struct ViewerVersions {
        /// Protocol version the viewer speaks.
        protocol: SafeInt = "protocol",
        /// Viewer version.
        viewer: String = "viewer",
    }
}

// ----- Events (app → viewer) -----------------------------------------------------------------

wire_object! {
    /// `run.started` (§1 Events).
    pub struct RunStarted {
        /// Application name.
        app: String = "app",
        /// Instrumenting SDK.
        sdk: SdkInfo = "sdk",
        /// Free-form run metadata (an object; values opaque).
        meta: Option<OpaqueObject> = "meta",
    }
}

wire_object! {
    /// `run.finished` (§1 Events). No rule ties `error` to `status`.
    pub struct RunFinished {
        /// How the run ended.
        status: RunStatus = "status",
        /// Why it failed.
        error: Option<ErrorInfo> = "error",
    }
}

wire_object! {
    /// `graph.hint` (§1 Events): optional static structure.
    pub struct GraphHint {
        /// Nodes (may be empty).
        nodes: Vec<GraphNodeHint> = "nodes",
    }
}

wire_object! {
    /// `node.started` (§1 Events).
    pub struct NodeStarted {
        /// Node id.
        node_id: String = "nodeId",
        /// Parent node id.
        parent_id: Option<String> = "parentId",
        /// Node kind.
        kind: NodeKind = "kind",
        /// Display name.
        name: String = "name",
        /// Id of this execution of the node.
        instance_id: String = "instanceId",
        /// Input (opaque; `null` is a value, distinct from absent).
        input: Option<RawJson> = "input",
        /// Whether the viewer should collapse the node.
        collapsed: Option<bool> = "collapsed",
        /// What redaction removed.
        redaction: Option<RedactionSummary> = "redaction",
    }
}

wire_object! {
    /// `node.token` (§1 Events): streamed model output.
    pub struct NodeToken {
        /// Node id.
        node_id: String = "nodeId",
        /// Deltas (may be empty).
        deltas: Vec<TokenDelta> = "deltas",
        /// What redaction removed.
        redaction: Option<RedactionSummary> = "redaction",
    }
}

wire_object! {
    /// `node.finished` (§1 Events).
    pub struct NodeFinished {
        /// Node id.
        node_id: String = "nodeId",
        /// Id of this execution of the node.
        instance_id: Option<String> = "instanceId",
        /// Output (opaque).
        output: Option<RawJson> = "output",
        /// Token usage.
        usage: Option<TokenUsage> = "usage",
        /// Wall time in ms (≥ 0, fractions allowed).
        duration_ms: NonNegativeF64 = "durationMs",
        /// Time held at gates in ms (≥ 0).
        held_ms: Option<NonNegativeF64> = "heldMs",
        /// How the node ended.
        status: RunStatus = "status",
        /// What redaction removed.
        redaction: Option<RedactionSummary> = "redaction",
    }
}

wire_object! {
    /// `node.error` (§1 Events).
    pub struct NodeError {
        /// Node id.
        node_id: String = "nodeId",
        /// Id of this execution of the node.
        instance_id: Option<String> = "instanceId",
        /// The error.
        error: ErrorInfo = "error",
        /// Time held at gates in ms (≥ 0).
        held_ms: Option<NonNegativeF64> = "heldMs",
    }
}

wire_object! {
    /// `exec.paused` (§1 Events): a gate is held.
    pub struct ExecPaused {
        /// Pause id to answer with `exec.resume`.
        pause_id: String = "pauseId",
        /// Node id.
        node_id: String = "nodeId",
        /// Gate point.
        point: PausePoint = "point",
        /// Why it paused.
        reason: Option<PauseReason> = "reason",
        /// Loop-detection details (`loop` on the wire).
        loop_info: Option<LoopInfo> = "loop",
        /// Smart-pause details.
        smart: Option<SmartInfo> = "smart",
        /// Whether the input may be edited (0.6.0).
        editable: Option<bool> = "editable",
        /// Id of this execution of the node (0.6.0).
        instance_id: Option<String> = "instanceId",
    }
}

wire_object! {
    /// `exec.refused` (§1 Events, 0.6.0).
    pub struct ExecRefused {
        /// Pause id of the refused resume.
        pause_id: String = "pauseId",
        /// Refusal code.
        code: RefusalCode = "code",
        /// Human-readable reason.
        message: Option<String> = "message",
        /// Request id of the refused resume.
        request_id: Option<String> = "requestId",
    }
}

wire_object! {
    /// `exec.resumed` (§1 Events): sent for every release of a held gate.
    pub struct ExecResumed {
        /// Pause id.
        pause_id: String = "pauseId",
        /// Action taken.
        action: ResumeAction = "action",
        /// The edit applied.
        edited: Option<EditedValue> = "edited",
        /// Request id of the resume.
        request_id: Option<String> = "requestId",
        /// Who resumed (set by the hub).
        principal: Option<String> = "principal",
    }
}

// ----- Controls (viewer → app) ---------------------------------------------------------------

wire_object! {
    /// `exec.resume` (§1 Controls): `output` is accepted with any action.
    pub struct ExecResume {
        /// Pause id.
        pause_id: String = "pauseId",
        /// Action.
        action: ResumeAction = "action",
        /// Injected output (opaque).
        output: Option<RawJson> = "output",
        /// Edited input (opaque, 0.6.0).
        input: Option<RawJson> = "input",
        /// Request id, echoed in `exec.resumed`/`exec.refused`.
        request_id: Option<String> = "requestId",
    }
}

wire_object! {
    /// `breakpoint.set` (§1 Controls).
    pub struct BreakpointSet {
        /// Matcher to add.
        matcher: BreakpointMatcher = "matcher",
    }
}

wire_object! {
    /// `breakpoint.clear` (§1 Controls): removes by matcher equality (§5.12).
    pub struct BreakpointClear {
        /// Matcher to remove.
        matcher: BreakpointMatcher = "matcher",
    }
}

wire_object! {
    /// `mode.set` (§1 Controls).
    pub struct ModeSet {
        /// New mode.
        mode: RunMode = "mode",
    }
}

// ----- Handshake -----------------------------------------------------------------------------

wire_object! {
    /// `hello` (§1 Handshake, app → viewer).
    pub struct Hello {
        /// Versions.
        versions: ClientVersions = "versions",
        /// Capabilities (open strings; see `KNOWN_CAPABILITIES`).
        capabilities: Vec<String> = "capabilities",
        /// Application name.
        app: Option<String> = "app",
        /// Instrumenting SDK.
        sdk: Option<SdkInfo> = "sdk",
        /// Session token from an earlier `hello.ack`, on reconnect.
        resume_token: Option<String> = "resumeToken",
    }
}

wire_object! {
    /// `hello.ack` (§1 Handshake, viewer → app): the viewer's whole debug state.
    pub struct HelloAck {
        /// Versions.
        versions: ViewerVersions = "versions",
        /// Capabilities.
        capabilities: Vec<String> = "capabilities",
        /// Current breakpoints.
        breakpoints: Vec<BreakpointMatcher> = "breakpoints",
        /// Current mode.
        mode: RunMode = "mode",
        /// Token to echo as `resumeToken` on reconnect.
        session_token: Option<String> = "sessionToken",
        /// What the hub itself implements (0.6.0).
        hub_capabilities: Option<Vec<String>> = "hubCapabilities",
    }
}
