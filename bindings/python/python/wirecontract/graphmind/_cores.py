"""The sans-IO cores of the session runtime and their values: the native classes of the
contract crate (``AppSession``, ``ViewerSession``, their inputs, actions and events) and the
constants; the type aliases over them are ``session.py``'s. Exported by
``wirecontract.graphmind.session``; the asyncio hosts build on them."""

from __future__ import annotations

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

CONTINUE = _native.CONTINUE
APP_DEFAULTS = _native.APP_DEFAULTS
env_config = _native.env_config
DEFAULT_URL = _native.DEFAULT_URL
SESSION_CAPABILITIES = _native.SESSION_CAPABILITIES
INGEST_PATH = "/ingest"
