"""The sans-IO cores of the session runtime and their values: the native classes of the
contract crate (``AppSession``, ``ViewerSession``, their inputs, actions and events), the type
aliases the stub declares, and the constants. Exported by ``wirecontract.graphmind.session``;
the asyncio hosts build on them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import typing as _typing

import wirecontract.graphmind as _gm
from wirecontract._native import session as _native

AppSession = _native.AppSession
ViewerSession = _native.ViewerSession
GateNode = _native.GateNode
Decision = _native.Decision
Received = _native.Received
ResumeError = _native.ResumeError
# App-side actions.
Connect = _native.Connect
Send = _native.Send
Close = _native.Close
Release = _native.Release
AbortRun = _native.AbortRun
ReadySettled = _native.ReadySettled
Warn = _native.Warn
# Viewer-side actions.
ViewerSend = _native.ViewerSend
ViewerClose = _native.ViewerClose
AppAttached = _native.AppAttached
FrameAccepted = _native.FrameAccepted
PauseOpened = _native.PauseOpened
PauseClosed = _native.PauseClosed
PauseReleased = _native.PauseReleased
ResumeRefused = _native.ResumeRefused
ResumeTimedOut = _native.ResumeTimedOut
RunAbandoned = _native.RunAbandoned
ViewerWarn = _native.ViewerWarn

# Type aliases the stub declares, as runtime objects (so annotations evaluate and
# typing.get_type_hints works); the Literal values are the stub's (scripts/gen/src/pyi_session.rs).
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

CONTINUE = _native.CONTINUE
APP_DEFAULTS = _native.APP_DEFAULTS
env_config = _native.env_config
DEFAULT_URL = _native.DEFAULT_URL
SESSION_CAPABILITIES = _native.SESSION_CAPABILITIES
INGEST_PATH = "/ingest"
