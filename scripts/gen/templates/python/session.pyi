"""Type stubs for the GraphMind session runtime (see graphmind/session.py; spec graphmind-session.md).

Durations are integers in milliseconds. `now_ms` is the host's clock: epoch ms read from a
monotonic clock, an int or a float with fractions (a sub-millisecond hold counts in `heldMs`);
its whole part is the frames' `ts`. NaN, infinities and negative readings are a `ValueError`.
"""

from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias, final

from wirecontract.graphmind import BreakpointMatcher, Envelope, ErrorInfo, Hello, JsonValue, NodeKind, PausePoint, ResumeAction, RunMode

ConnState: TypeAlias = Literal["idle", "connecting", "awaiting-ack", "attached", "disposed"]
ReleaseCause: TypeAlias = Literal["resume", "timeout", "disconnect", "dispose", "cancel"]
ReceivedKind: TypeAlias = Literal["hello", "accepted", "duplicate", "wildcard", "rejected"]
MatcherLike: TypeAlias = BreakpointMatcher | Mapping[str, Any]
"""A breakpoint matcher: a `BreakpointMatcher` or a wire-shaped dict (`{"kind": "tool"}`)."""

DEFAULT_URL: Final[str]  # {{default_url}}
SESSION_CAPABILITIES: Final[tuple[str, ...]]  # {{session_capabilities}}
INGEST_PATH: Final[str]  # /ingest
APP_DEFAULTS: Final[dict[str, Any]]
"""`AppSession`'s defaults by keyword (spec §1)."""

MAX_FRAME_BYTES: Final[int]  # {{max_frame_bytes}}: the hosts' default max_frame_bytes (larger closes with 1009)
MAX_QUEUE_BYTES: Final[int]
"""The hosts' default `max_queue_bytes` (frame text queued for a peer that does not read; past it: 1013)."""
WRITE_STALL_TIMEOUT_MS: Final[int]
"""The hosts' default `write_stall_timeout_ms` (one write unfinished by then: 1013)."""
HELLO_TIMEOUT_MS: Final[int]
"""`serve`'s default `hello_timeout_ms` (no valid `hello` by then: 1008)."""
IDLE_TIMEOUT_MS: Final[int]
"""`serve`'s default `idle_timeout_ms` (no frame for that long: 1008)."""
MAX_CONNECTIONS: Final[int]
"""`serve`'s default `max_connections` (a further upgrade is answered HTTP 503)."""
MAX_EVENTS: Final[int]
"""`serve`'s default `max_events` (unread events kept for `Viewer.events()`)."""
MAX_WARNINGS: Final[int]
"""`Session.warnings` keeps the latest this many."""

@final
class GateNode:
    """The node a gate sits on (spec §3.1, §3.9): `instance_id` pins the hold exactly and is
    copied into `exec.paused.instanceId`."""
    __match_args__ = ("node_id", "kind", "name", "instance_id")
    def __new__(cls, node_id: str, kind: NodeKind, name: str, instance_id: str | None = None) -> GateNode: ...
    @property
    def node_id(self) -> str: ...
    @property
    def kind(self) -> NodeKind: ...
    @property
    def name(self) -> str: ...
    @property
    def instance_id(self) -> str | None: ...

@final
class Decision:
    """What a released gate tells the adapter to do (spec §3.7). For `inject`, `output` is the
    injected value (`has_output` is False for an inject of "no value") and `output_json` its
    exact JSON text."""
    __match_args__ = ("action", "output", "has_output", "output_json")
    def __new__(cls, action: ResumeAction, output: JsonValue, has_output: bool, output_json: str | None) -> Decision: ...
    @property
    def action(self) -> ResumeAction: ...
    @property
    def output(self) -> JsonValue: ...
    @property
    def has_output(self) -> bool: ...
    @property
    def output_json(self) -> str | None: ...

CONTINUE: Final[Decision]
"""The `continue` decision a gate returns when it does not hold."""

@final
class Connect:
    """Open a WebSocket to `url`, then call `transport_opened` (or `transport_failed`)."""
    __match_args__ = ("url",)
    def __new__(cls, url: str) -> Connect: ...
    @property
    def url(self) -> str: ...

@final
class Send:
    """Send `frame` on the open socket, in poll order."""
    __match_args__ = ("frame",)
    def __new__(cls, frame: str) -> Send: ...
    @property
    def frame(self) -> str: ...

@final
class Close:
    """Close the socket or abandon the attempt (1000 normal and timeouts, 1002 protocol error);
    ignore that socket from now on."""
    __match_args__ = ("code", "reason")
    def __new__(cls, code: int, reason: str) -> Close: ...
    @property
    def code(self) -> int: ...
    @property
    def reason(self) -> str: ...

@final
class Release:
    """Wake gate `pause_id` with `decision`; its `exec.resumed` is already emitted."""
    __match_args__ = ("pause_id", "decision", "cause")
    def __new__(cls, pause_id: str, decision: Decision, cause: ReleaseCause) -> Release: ...
    @property
    def pause_id(self) -> str: ...
    @property
    def decision(self) -> Decision: ...
    @property
    def cause(self) -> ReleaseCause: ...

@final
class AbortRun:
    """Abort the run's context before the `abort` decision reaches the adapter (spec §3.7)."""
    __match_args__ = ("run_id",)
    def __new__(cls, run_id: str) -> AbortRun: ...
    @property
    def run_id(self) -> str: ...

@final
class ReadySettled:
    """The `ready()` call `waiter` settled: attached or not."""
    __match_args__ = ("waiter", "attached")
    def __new__(cls, waiter: int, attached: bool) -> ReadySettled: ...
    @property
    def waiter(self) -> int: ...
    @property
    def attached(self) -> bool: ...

@final
class Warn:
    """Log this: `rule` is a stable key (invalid-frame, version-mismatch, ack-protocol,
    handshake-timeout, connect-timeout, buffer-overflow, loop-detected, bad-run-id,
    breakpoint-limit)."""
    __match_args__ = ("rule", "text")
    def __new__(cls, rule: str, text: str) -> Warn: ...
    @property
    def rule(self) -> str: ...
    @property
    def text(self) -> str: ...

Action: TypeAlias = Connect | Send | Close | Release | AbortRun | ReadySettled | Warn

@final
class AppSession:
    """The app side as a sans-IO state machine (spec §2.1). Keywords are the core's
    `SessionConfig`; an omitted one takes its default:

    - `url`: {{url}}
    - `app`: {{app}}
    - `sdk`: {"name": {{sdk_name}}, "version": <crate version>}
    - `client_version`: <crate version>
    - `capabilities`: [{{capabilities}}]
    - `enabled`: True
    - `ring_max_frames`: {{ring_max_frames}}
    - `ring_max_bytes`: {{ring_max_bytes}} (UTF-8 bytes of frame text)
    - `max_tracked_gap_runs`: {{max_tracked_gap_runs}}
    - `loss_warn_interval_ms`: {{loss_warn_interval_ms}}
    - `pause_timeout_ms`: {{pause_timeout_ms}}
    - `connect_timeout_ms`: {{connect_timeout_ms}}
    - `handshake_timeout_ms`: {{handshake_timeout_ms}}
    - `retry_interval_ms`: {{retry_interval_ms}}
    - `fast_retry_ms`: [{{fast_retry_ms}}]
    - `ready_timeout_ms`: {{ready_timeout_ms}}
    - `id_base`: {{id_base}} (the hosts pass random hex)
    - `implicit_run_id`: None (run_<id_base>)
    - `max_held_instances`: {{max_held_instances}}
    - `max_breakpoints`: {{max_breakpoints}} (a new matcher past it is ignored; one breakpoint-limit warning)
    - `loop_threshold / loop_mode / loop_kinds`: {{loop_threshold}}, {{loop_mode}}, [{{loop_kinds}}]
    - `loop_max_runs`: {{loop_max_runs}}
    - `loop_allow`: [] (node ids or names that may repeat)
    - `redaction_placeholder`: {{redaction_placeholder}} (the inject guard refuses an output holding it)
    - `max_payload_bytes`: {{max_payload_bytes}}
    - `hide_inputs / hide_outputs / hide_tool_args / hide_tool_results`: False (GRAPHMIND_HIDE_*)
    - `token_batch_ms`: {{token_batch_ms}} (0: each delta at once)
    - `root_node`: True (agent:<name> around each run)
    - `meta`: None (merged into every run.started.meta)
    - `max_value_depth`: {{max_value_depth}} (0: no cap)
    - `env`: None (no environment; the hosts pass os.environ)
    """
    def __new__(
        cls,
        *,
        env: Mapping[str, str] | None = None,
        url: str | None = None,
        app: str | None = None,
        sdk: Mapping[str, str] | None = None,
        client_version: str | None = None,
        capabilities: list[str] | None = None,
        enabled: bool | None = None,
        ring_max_frames: int | None = None,
        ring_max_bytes: int | None = None,
        max_tracked_gap_runs: int | None = None,
        loss_warn_interval_ms: int | None = None,
        pause_timeout_ms: int | None = None,
        connect_timeout_ms: int | None = None,
        handshake_timeout_ms: int | None = None,
        retry_interval_ms: int | None = None,
        fast_retry_ms: list[int] | None = None,
        ready_timeout_ms: int | None = None,
        id_base: str | None = None,
        implicit_run_id: str | None = None,
        max_held_instances: int | None = None,
        max_breakpoints: int | None = None,
        loop_threshold: int | None = None,
        loop_mode: Literal["pause", "warn", "off"] | None = None,
        loop_kinds: list[NodeKind] | None = None,
        loop_max_runs: int | None = None,
        loop_allow: list[str] | None = None,
        redaction_placeholder: str | None = None,
        max_payload_bytes: int | None = None,
        hide_inputs: bool | None = None,
        hide_outputs: bool | None = None,
        hide_tool_args: bool | None = None,
        hide_tool_results: bool | None = None,
        token_batch_ms: int | None = None,
        root_node: bool | None = None,
        meta: Mapping[str, Any] | None = None,
        max_value_depth: int | None = None,
    ) -> AppSession: ...
    def transport_opened(self, now_ms: float, /) -> None:
        """T2: the socket opened; `hello` goes out with the next seq."""
    def transport_failed(self, now_ms: float, /) -> None:
        """T3: the connect attempt failed."""
    def transport_closed(self, now_ms: float, /) -> None:
        """T16/T3: the current socket closed (attached: disarm, release every held gate)."""
    def frame_received(self, data: str | bytes | bytearray, now_ms: float, /) -> None:
        """One text frame from the viewer; never raises for bad input (a `Warn` instead)."""
    def handle_timeout(self, now_ms: float, /) -> None:
        """Fires every deadline <= now_ms."""
    def emit(self, type: str, payload: Mapping[str, Any] | Any, now_ms: float, /, run: str | None = None) -> int | None:
        """T19: emits an event (None run: the implicit run); returns the seq, or None when
        disabled or disposed. Raises `BuildError` for an invalid payload, `ValueError` for a
        type the app may not send."""
    def start_run(self, run_id: str, name: str, now_ms: float, /, meta: Mapping[str, Any] | None = None) -> int | None:
        """Emits `run.started` (`app`, `sdk`, `meta` = `{"name": name, **meta}`); returns the
        seq, or None when disabled or disposed. Raises `BuildError` (issues under `meta`) when
        `meta` is not a JSON object."""
    def finish_run(self, run_id: str, now_ms: float, /, error: ErrorInfo | Mapping[str, Any] | None = None, aborted: bool = False) -> int | None:
        """Emits `run.finished`: `ok`, `error` with `error`, or `aborted` (also whenever the
        viewer aborted the run). Raises `BuildError` (issues under `error`) for an invalid
        `error`."""
    def gate(self, point: PausePoint, node: GateNode, now_ms: float, /, run: str | None = None) -> str | None:
        """T20: None to continue now, or the pause id of a hold (wait for its `Release`)."""
    def cancel(self, pause_id: str, now_ms: float, /) -> bool:
        """The waiter went away: settle with `continue` and `exec.resumed`."""
    def ready(self, now_ms: float, /, timeout_ms: int | None = None) -> int:
        """T22: a waiter id settled by `ReadySettled`."""
    def push_token(self, node_id: str, channel: str, value: str, now_ms: float, /, run: str | None = None) -> None:
        """Queues one streamed delta; batched into `node.token` per `token_batch_ms`."""
    def flush_tokens(self, now_ms: float, /) -> None:
        """Sends every pending token batch now."""
    def dispose(self, now_ms: float, /) -> None:
        """§2.5: release every gate, finish the implicit run, close with 1000."""
    def poll_action(self) -> Action | None: ...
    def poll_actions(self) -> list[Action]: ...
    def poll_timeout(self) -> float | None:
        """The earliest deadline (ms) for `handle_timeout`, or None."""
    @property
    def state(self) -> ConnState: ...
    @property
    def is_attached(self) -> bool: ...
    @property
    def next_seq(self) -> int: ...
    @property
    def session_token(self) -> str | None: ...
    @property
    def hub_capabilities(self) -> list[str] | None: ...
    @property
    def breakpoints(self) -> list[BreakpointMatcher]: ...
    @property
    def mode(self) -> RunMode: ...
    @property
    def held_pause_ids(self) -> list[str]: ...
    @property
    def buffered_frames(self) -> list[str]: ...
    @property
    def lost(self) -> int: ...
    @property
    def dropped(self) -> int: ...

class ResumeError(ValueError):
    """`ViewerSession.resume` sent nothing."""
    code: Literal["unknown-pause", "released-by-disconnect", "owner-gone"]

@final
class Received:
    """What `ViewerSession.frame_received` did with one frame."""
    __match_args__ = ("kind", "replayed")
    def __new__(cls, kind: ReceivedKind, replayed: bool) -> Received: ...
    @property
    def kind(self) -> ReceivedKind: ...
    @property
    def replayed(self) -> bool: ...

@final
class ViewerSend:
    """Send `frame` on connection `conn`."""
    __match_args__ = ("conn", "frame")
    def __new__(cls, conn: int, frame: str) -> ViewerSend: ...
    @property
    def conn(self) -> int: ...
    @property
    def frame(self) -> str: ...

@final
class ViewerClose:
    """Close connection `conn` (1002 for gm != 1 or a hello of another protocol version)."""
    __match_args__ = ("conn", "code", "reason")
    def __new__(cls, conn: int, code: int, reason: str) -> ViewerClose: ...
    @property
    def conn(self) -> int: ...
    @property
    def code(self) -> int: ...
    @property
    def reason(self) -> str: ...

@final
class AppAttached:
    """`conn` said hello and was answered with a `hello.ack` carrying `session_token`."""
    __match_args__ = ("conn", "session_token", "hello")
    def __new__(cls, conn: int, session_token: str, hello: Hello) -> AppAttached: ...
    @property
    def conn(self) -> int: ...
    @property
    def session_token(self) -> str: ...
    @property
    def hello(self) -> Hello: ...

@final
class FrameAccepted:
    """A first-seen event frame by (runId, seq); `replayed` when buffered before this connection."""
    __match_args__ = ("conn", "envelope", "replayed")
    def __new__(cls, conn: int, envelope: Envelope, replayed: bool) -> FrameAccepted: ...
    @property
    def conn(self) -> int: ...
    @property
    def envelope(self) -> Envelope: ...
    @property
    def replayed(self) -> bool: ...

@final
class PauseOpened:
    """A live, first-seen `exec.paused`: open and resumable."""
    __match_args__ = ("conn", "run_id", "pause_id", "node_id", "point")
    def __new__(cls, conn: int, run_id: str, pause_id: str, node_id: str, point: PausePoint) -> PauseOpened: ...
    @property
    def conn(self) -> int: ...
    @property
    def run_id(self) -> str: ...
    @property
    def pause_id(self) -> str: ...
    @property
    def node_id(self) -> str: ...
    @property
    def point(self) -> PausePoint: ...

@final
class PauseClosed:
    """`exec.resumed` arrived for a known pause."""
    __match_args__ = ("pause_id", "action")
    def __new__(cls, pause_id: str, action: ResumeAction) -> PauseClosed: ...
    @property
    def pause_id(self) -> str: ...
    @property
    def action(self) -> ResumeAction: ...

@final
class PauseReleased:
    """The owner closed while the pause was open: the app continued (fail-open)."""
    __match_args__ = ("conn", "pause_id")
    def __new__(cls, conn: int, pause_id: str) -> PauseReleased: ...
    @property
    def conn(self) -> int: ...
    @property
    def pause_id(self) -> str: ...

@final
class ResumeRefused:
    """`exec.refused`: the pause stays open."""
    __match_args__ = ("pause_id", "code", "request_id")
    def __new__(cls, pause_id: str, code: str, request_id: str | None) -> ResumeRefused: ...
    @property
    def pause_id(self) -> str: ...
    @property
    def code(self) -> str: ...
    @property
    def request_id(self) -> str | None: ...

@final
class ResumeTimedOut:
    """A sent `exec.resume` got no answer within `resume_wait_ms`."""
    __match_args__ = ("pause_id",)
    def __new__(cls, pause_id: str) -> ResumeTimedOut: ...
    @property
    def pause_id(self) -> str: ...

@final
class RunAbandoned:
    """A run's owner stayed away for `abandon_grace_ms`."""
    __match_args__ = ("run_id",)
    def __new__(cls, run_id: str) -> RunAbandoned: ...
    @property
    def run_id(self) -> str: ...

@final
class ViewerWarn:
    """Log this: `rule` is invalid-frame, version-mismatch, before-hello or unexpected-type."""
    __match_args__ = ("conn", "rule", "text")
    def __new__(cls, conn: int, rule: str, text: str) -> ViewerWarn: ...
    @property
    def conn(self) -> int: ...
    @property
    def rule(self) -> str: ...
    @property
    def text(self) -> str: ...

ViewerEvent: TypeAlias = AppAttached | FrameAccepted | PauseOpened | PauseClosed | PauseReleased | ResumeRefused | ResumeTimedOut | RunAbandoned | ViewerWarn
ViewerAction: TypeAlias = ViewerSend | ViewerClose | ViewerEvent

@final
class ViewerSession:
    """The viewer side as a sans-IO state machine (spec §5). Connections are ints chosen by
    the host. Keywords are the core's `ViewerConfig`; an omitted one takes its default:

    - `breakpoints`: [{{viewer_breakpoints}}]
    - `mode`: {{viewer_mode}}
    - `viewer_version`: "wirecontract/<crate version>"
    - `token_prefix`: {{viewer_token_prefix}} (the host passes a random one)
    - `max_resume_token_len`: {{viewer_max_resume_token_len}} (UTF-16 units)
    - `resume_wait_ms`: {{viewer_resume_wait_ms}}
    - `abandon_grace_ms`: {{viewer_abandon_grace_ms}}
    - `max_retained_runs`: {{viewer_max_retained_runs}}
    - `max_retained_bytes`: {{viewer_max_retained_bytes}}
    - `max_seqs_per_run`: {{viewer_max_seqs_per_run}}
    - `max_tracked_pauses`: {{viewer_max_tracked_pauses}}
    """
    def __new__(
        cls,
        *,
        breakpoints: Iterable[MatcherLike] | None = None,
        mode: RunMode | None = None,
        viewer_version: str | None = None,
        hub_capabilities: list[str] | None = None,
        token_prefix: str | None = None,
        max_resume_token_len: int | None = None,
        resume_wait_ms: int | None = None,
        abandon_grace_ms: int | None = None,
        max_retained_runs: int | None = None,
        max_retained_bytes: int | None = None,
        max_seqs_per_run: int | None = None,
        max_tracked_pauses: int | None = None,
    ) -> ViewerSession: ...
    def connection_opened(self, conn: int, /) -> None: ...
    def connection_closed(self, conn: int, now_ms: float, /) -> None:
        """Open pauses of `conn` are released by fail-open (`PauseReleased`)."""
    def frame_received(self, conn: int, data: str | bytes | bytearray, now_ms: float, /) -> Received: ...
    def set_breakpoint(self, matcher: MatcherLike, now_ms: float, /) -> bool: ...
    def clear_breakpoint(self, matcher: MatcherLike, now_ms: float, /) -> int: ...
    def set_mode(self, mode: RunMode, now_ms: float, /) -> None: ...
    def resume(self, pause_id: str, action: ResumeAction, now_ms: float, /, *, output: JsonValue = ..., request_id: str | None = None) -> None:
        """Sends `exec.resume` to the run's connection; raises `ResumeError`."""
    def handle_timeout(self, now_ms: float, /) -> None: ...
    def poll_action(self) -> ViewerAction | None: ...
    def poll_actions(self) -> list[ViewerAction]: ...
    def poll_timeout(self) -> float | None: ...
    @property
    def breakpoints(self) -> list[BreakpointMatcher]: ...
    @property
    def mode(self) -> RunMode: ...
    @property
    def open_pauses(self) -> list[str]: ...
    @property
    def retained_runs(self) -> int:
        """Runs whose state is retained now; at most `max_retained_runs`."""
    @property
    def retained_bytes(self) -> int:
        """Approximate bytes of retained run state; kept near `max_retained_bytes`."""

# ---- the asyncio hosts (pip install 'wirecontract[session]') ----------------------------------

class Clock:
    """Epoch milliseconds read from a monotonic clock."""
    def __init__(self) -> None: ...
    def now_ms(self) -> float: ...

class RunAborted(Exception):
    """A gate answered `abort`: raise it from the node; `Session.run` ends the run `aborted`."""
    run_id: str | None
    def __init__(self, run_id: str | None) -> None: ...

class Run:
    """One run of a `Session`."""
    session: Session
    run_id: str
    name: str
    def __init__(self, session: Session, run_id: str, name: str) -> None: ...
    @property
    def aborted(self) -> bool: ...
    def emit(self, type: str, payload: Mapping[str, Any] | Any) -> int | None: ...
    def push_token(self, node_id: str, channel: str, value: str) -> None: ...
    async def gate(self, point: PausePoint, node: GateNode) -> Decision: ...

class Session:
    """The asyncio host of one `AppSession` (lazy connection, fail-open while detached)."""
    core: AppSession
    clock: Clock
    warnings: deque[Warn]
    def __init__(
        self,
        url: str | None = None,
        *,
        env: Mapping[str, str] | None = None,
        on_warn: Callable[[Warn], None] | None = None,
        flush_timeout_ms: int = 1000,
        max_frame_bytes: int = ...,
        max_queue_bytes: int = ...,
        write_stall_timeout_ms: int = ...,
        **config: Any,
    ) -> None: ...
    def emit(self, type: str, payload: Mapping[str, Any] | Any, *, run: str | Run | None = None) -> int | None: ...
    def push_token(self, node_id: str, channel: str, value: str, *, run: str | Run | None = None) -> None: ...
    async def gate(self, point: PausePoint, node: GateNode, *, run: str | Run | None = None) -> Decision: ...
    async def ready(self, timeout_ms: int | None = None) -> bool: ...
    def run(self, name: str, *, meta: Mapping[str, Any] | None = None, run_id: str | None = None) -> AbstractAsyncContextManager[Run]: ...
    async def close(self) -> None: ...
    async def __aenter__(self) -> Session: ...
    async def __aexit__(self, *exc: object) -> None: ...

def connect(url: str | None = None, **config: Any) -> Session:
    """`async with connect(url, app=...) as s`: configured from `env` (default `os.environ`,
    read by the core; keywords beat it but for the kill switch and the hide switches);
    keywords are `AppSession`'s plus `on_warn`, `flush_timeout_ms`, `max_frame_bytes`,
    `max_queue_bytes` and `write_stall_timeout_ms`."""

def env_config(env: Mapping[str, str]) -> dict[str, Any]:
    """The configuration the environment resolves to (`enabled`, `url`, `loop_threshold`,
    `loop_mode`, `loop_allow`, `hide_*`), as the core reads it."""

class SyncRun:
    """One run of a `SyncSession`."""
    session: SyncSession
    run_id: str
    name: str
    def __init__(self, session: SyncSession, run_id: str, name: str) -> None: ...
    @property
    def aborted(self) -> bool: ...
    def emit(self, type: str, payload: Mapping[str, Any] | Any) -> int | None: ...
    def push_token(self, node_id: str, channel: str, value: str) -> None: ...
    def gate(self, point: PausePoint, node: GateNode) -> Decision: ...

class SyncSession:
    """The synchronous, thread-safe app host: `Session` on a private loop in a daemon thread."""
    def __init__(self, url: str | None = None, **config: Any) -> None:
        """Keywords are `connect`'s (`AppSession`'s plus the host's limits and `on_warn`)."""
    @property
    def core(self) -> AppSession: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def warnings(self) -> deque[Warn]: ...
    def is_aborted(self, run_id: str) -> bool: ...
    def emit(self, type: str, payload: Mapping[str, Any] | Any, *, run: str | SyncRun | None = None) -> int | None: ...
    def push_token(self, node_id: str, channel: str, value: str, *, run: str | SyncRun | None = None) -> None: ...
    def gate(self, point: PausePoint, node: GateNode, *, run: str | SyncRun | None = None) -> Decision:
        """Blocks the calling thread (only it) until the decision."""
    def ready(self, timeout_ms: int | None = None) -> bool: ...
    def run(self, name: str, *, meta: Mapping[str, Any] | None = None, run_id: str | None = None) -> AbstractContextManager[SyncRun]: ...
    def close(self) -> None: ...
    def __enter__(self) -> SyncSession: ...
    def __exit__(self, *exc: object) -> None: ...

def connect_sync(url: str | None = None, **config: Any) -> SyncSession:
    """`with connect_sync(url, app=...) as s`: a `SyncSession` for synchronous and threaded code."""

@dataclass(frozen=True)
class FrameLog:
    """One frame on a viewer connection, in wire order."""
    dir: Literal["app->viewer", "viewer->app"]
    conn: int
    frame: str
    received: Received | None = None

PauseAnswer: TypeAlias = str | tuple[str, Any] | None

class Viewer:
    """The asyncio host of one `ViewerSession` (made by `serve`)."""
    core: ViewerSession
    clock: Clock
    url: str
    events_dropped: int
    connections_refused: int
    def __init__(
        self,
        *,
        on_event: Callable[[ViewerEvent], None] | None = None,
        on_pause: Callable[[PauseOpened], PauseAnswer | Awaitable[PauseAnswer]] | None = None,
        on_frame: Callable[[FrameLog], None] | None = None,
        max_frame_bytes: int = ...,
        max_queue_bytes: int = ...,
        hello_timeout_ms: int = ...,
        max_events: int = ...,
        max_connections: int = ...,
        idle_timeout_ms: int = ...,
        write_stall_timeout_ms: int = ...,
        **config: Any,
    ) -> None:
        """Keywords beyond the callbacks are `ViewerSession`'s; call within a running loop."""
    async def start(self, host: str, port: int) -> None:
        """Starts the WebSocket server on `host:port` (0: a free port) and sets `url`."""
    async def __aenter__(self) -> Viewer: ...
    async def __aexit__(self, *exc: object) -> None: ...
    @property
    def connections(self) -> list[int]: ...
    def resume(self, pause_id: str, action: ResumeAction = "continue", *, output: JsonValue = ..., request_id: str | None = None) -> None: ...
    def set_breakpoint(self, matcher: MatcherLike) -> bool: ...
    def clear_breakpoint(self, matcher: MatcherLike) -> int: ...
    def set_mode(self, mode: RunMode) -> None: ...
    async def drop(self, conn: int) -> None: ...
    def events(self) -> AsyncIterator[ViewerEvent]: ...
    async def close(self) -> None: ...

def serve(
    host: str = "127.0.0.1",
    port: int = 4747,
    *,
    breakpoints: Iterable[MatcherLike] | None = None,
    mode: RunMode | None = None,
    on_event: Callable[[ViewerEvent], None] | None = None,
    on_pause: Callable[[PauseOpened], PauseAnswer | Awaitable[PauseAnswer]] | None = None,
    on_frame: Callable[[FrameLog], None] | None = None,
    **config: Any,
) -> AbstractAsyncContextManager[Viewer]:
    """`async with serve(port=0) as viewer`: a viewer on ws://HOST:PORT/ingest. Keywords
    beyond the callbacks are `Viewer`'s limits and `ViewerSession`'s."""

__all__ = [
    "AppSession", "ViewerSession", "GateNode", "Decision", "Received", "ResumeError",
    "Connect", "Send", "Close", "Release", "AbortRun", "ReadySettled", "Warn",
    "ViewerSend", "ViewerClose", "AppAttached", "FrameAccepted", "PauseOpened", "PauseClosed",
    "PauseReleased", "ResumeRefused", "ResumeTimedOut", "RunAbandoned", "ViewerWarn",
    "CONTINUE", "APP_DEFAULTS", "env_config", "DEFAULT_URL", "SESSION_CAPABILITIES", "INGEST_PATH",
    "Clock", "RunAborted", "Session", "Run", "connect", "Viewer", "FrameLog", "serve",
    "MAX_FRAME_BYTES", "MAX_QUEUE_BYTES", "WRITE_STALL_TIMEOUT_MS", "HELLO_TIMEOUT_MS", "IDLE_TIMEOUT_MS",
    "MAX_CONNECTIONS", "MAX_EVENTS", "MAX_WARNINGS", "SyncSession", "SyncRun", "connect_sync",
]
