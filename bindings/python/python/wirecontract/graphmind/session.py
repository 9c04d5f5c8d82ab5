"""The GraphMind session runtime for Python (spec graphmind-session.md).

Two layers:

- the **sans-IO cores**, native classes of the contract crate: ``AppSession`` (the app side:
  seq, handshake, replay ring with gap markers, controls, gates, fail-open, ``heldMs``) and
  ``ViewerSession`` (the viewer side: handshake, de-duplication, pause bookkeeping, routing).
  They own no socket, no thread and no clock: feed them inputs stamped with ``now_ms``
  (milliseconds, an ``int`` or a ``float`` with fractions, as a monotonic clock gives them) and
  carry out the actions they return (``Connect``, ``Send``, ``Close``, ``Release``, ...);
- two **asyncio hosts** over the ``websockets`` package (``pip install 'wirecontract[session]'``):
  ``connect(url)`` for an instrumented app and ``serve(...)`` for a viewer. They own the
  sockets, the clock and the waiting, and add no protocol rule;
- a **synchronous app host**, ``connect_sync(url)`` (``SyncSession``): ``connect``'s host on a
  private event loop in a daemon thread, callable from plain functions and any thread (a
  ``gate`` blocks only its caller), with ``connect``'s keywords, limits and semantics.

An adapter::

    async with connect("ws://127.0.0.1:4747/ingest", app="my-agent") as s:
        async with s.run("answer") as run:
            run.emit("node.started", {"nodeId": "tool:search", "kind": "tool", "name": "search",
                                      "instanceId": "call_1", "input": {"q": "x"}})
            decision = await run.gate("before", GateNode("tool:search", "tool", "search", "call_1"))

Times are integers in milliseconds. The hosts are single-loop: call them from the event loop
that created them.

This module is the public surface (and the type aliases the stub declares); the code lives in
one file per role, each importing only those before it: ``_cores`` (the native cores and their
values), ``_host_base`` (what the asyncio hosts share: limits, clock, log, the WebSocket
link), ``_app_host`` (``connect``), ``_viewer_host`` (``serve``) and ``_sync_host``
(``connect_sync``).
"""

from __future__ import annotations

import typing as _typing
from collections.abc import Mapping
from typing import Any

import wirecontract.graphmind as _gm
from wirecontract.graphmind._cores import (  # noqa: F401
    AppSession,
    ViewerSession,
    GateNode,
    Decision,
    Received,
    ResumeError,
    Connect,
    Send,
    Close,
    Release,
    AbortRun,
    ReadySettled,
    Warn,
    ViewerSend,
    ViewerClose,
    AppAttached,
    FrameAccepted,
    PauseOpened,
    PauseClosed,
    PauseReleased,
    ResumeRefused,
    ResumeTimedOut,
    RunAbandoned,
    ViewerWarn,
    CONTINUE,
    APP_DEFAULTS,
    env_config,
    DEFAULT_URL,
    SESSION_CAPABILITIES,
    INGEST_PATH,
)
from wirecontract.graphmind._host_base import (  # noqa: F401
    log,
    MAX_FRAME_BYTES,
    MAX_QUEUE_BYTES,
    WRITE_STALL_TIMEOUT_MS,
    HELLO_TIMEOUT_MS,
    IDLE_TIMEOUT_MS,
    MAX_CONNECTIONS,
    MAX_EVENTS,
    MAX_WARNINGS,
    LOG_BURST,
    LOG_INTERVAL_S,
    Clock,
    RunAborted,
)
from wirecontract.graphmind._app_host import (  # noqa: F401
    Run,
    Session,
    connect,
)
from wirecontract.graphmind._viewer_host import (  # noqa: F401
    FrameLog,
    PauseAnswer,
    Viewer,
    serve,
)
from wirecontract.graphmind._sync_host import (  # noqa: F401
    SyncRun,
    SyncSession,
    connect_sync,
)

# Type aliases the stub declares, as runtime objects (so annotations evaluate and
# typing.get_type_hints works); the Literal values are the stub's (scripts/gen/src/pyi_session.rs).
# They stay here, behind the stub: mypy reads the stub, not these runtime forms.
ConnState = _typing.Literal["idle", "connecting", "awaiting-ack", "attached", "disposed"]
ReleaseCause = _typing.Literal["resume", "timeout", "disconnect", "dispose", "cancel"]
ReceivedKind = _typing.Literal["hello", "accepted", "duplicate", "wildcard", "rejected"]
MatcherLike = _typing.Union[_gm.BreakpointMatcher, Mapping[str, Any]]
"""A breakpoint matcher: a `BreakpointMatcher` or a wire-shaped dict (`{"kind": "tool"}`)."""
Action = _typing.Union[Connect, Send, Close, Release, AbortRun, ReadySettled, Warn]
ViewerEvent = _typing.Union[
    AppAttached, FrameAccepted, PauseOpened, PauseClosed, PauseReleased, ResumeRefused, ResumeTimedOut, RunAbandoned, ViewerWarn
]
ViewerAction = _typing.Union[ViewerSend, ViewerClose, ViewerEvent]

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
