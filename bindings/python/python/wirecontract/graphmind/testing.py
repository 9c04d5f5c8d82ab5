"""Fault injection for a test viewer: what a misbehaving GraphMind viewer sends, to check that
an adapter survives it. Nothing here is for a production viewer, which is why it is a module
of its own that a test imports and binds to a viewer explicitly::

    from wirecontract.graphmind.session import serve
    from wirecontract.graphmind.testing import ViewerFaults

    async with serve(port=0) as viewer:
        faults = ViewerFaults(viewer)
        faults.delay_ack(300)                 # the next hello.ack goes out 300 ms late
        ...
        faults.send_text(conn, "not JSON")    # a raw text frame
        faults.resume(conn, "pause_x_9", "continue")   # a resume for an unknown pause
        faults.close(conn, 4000, "bye")       # a close with a chosen code

The viewer's ``ViewerSession`` keeps every protocol rule for the frames it produces; the
faults go around it (no check, no bookkeeping): an envelope of any type in any state, with
any ``gm``, a duplicate ``breakpoint.set``, a resume for a late or unknown pause, raw text and
binary frames, closes with any code, and ``hello.ack`` frames withheld, delayed or replaced.
Frames sent this way are passed to ``on_frame`` like the viewer's own.
``wirecontract conform`` (docs/conform.md) is the same set of faults in the CLI.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from wirecontract.graphmind.session import FrameLog, Viewer

__all__ = ["ViewerFaults", "FAULT_SEQ_BASE"]

FAULT_SEQ_BASE = 1_000_000
"""Envelopes sent by ``ViewerFaults.send`` take seqs from here up, apart from the viewer's own
counters (apps do not check viewer seqs)."""

_MISSING: Any = object()


class ViewerFaults:
    """The fault controls of one ``Viewer`` (made by ``serve``). ``conn`` is a connection id
    from ``viewer.connections`` or an event's ``conn``; sending on a connection that is not
    open raises ``KeyError``."""

    def __init__(self, viewer: Viewer) -> None:
        self.viewer = viewer
        # The host's private parts the faults go through (its links, ack hook, loop, frame
        # callback), which the public stub does not declare.
        self._host: Any = viewer
        self._next_seq = FAULT_SEQ_BASE

    # ---- frames ---------------------------------------------------------------------------

    def send_text(self, conn: int, text: str) -> None:
        """Sends ``text`` as a text frame, whatever it holds (not JSON, not an envelope)."""
        self._send(conn, text, text)

    def send_bytes(self, conn: int, data: bytes) -> None:
        """Sends ``data`` as a binary frame."""
        self._send(conn, data, data.decode("utf-8", "replace"))

    def send(
        self, conn: int, type: str, payload: Any, *, run_id: str = "*", gm: Any = 1, seq: Any = None, ts: Any = None
    ) -> str:
        """Sends an envelope of any ``type`` in any state, unchecked: ``payload`` (any JSON
        value) and the envelope members as given (``gm`` 2, ``seq`` -1, ...; ``seq`` defaults
        to the next of ``FAULT_SEQ_BASE``, ``ts`` to the viewer's clock). Returns the frame."""
        if seq is None:
            self._next_seq += 1
            seq = self._next_seq
        if ts is None:
            ts = int(self.viewer.clock.now_ms())
        frame = json.dumps({"gm": gm, "seq": seq, "ts": ts, "runId": run_id, "type": type, "payload": payload}, separators=(",", ":"))
        self.send_text(conn, frame)
        return frame

    def resume(self, conn: int, pause_id: str, action: str = "continue", *, run_id: str = "*", output: Any = _MISSING) -> str:
        """Sends ``exec.resume`` for any pause id (late, settled, unknown) and any action
        string, where ``Viewer.resume`` would refuse; the session expects no answer."""
        payload: dict[str, Any] = {"pauseId": pause_id, "action": action}
        if output is not _MISSING:
            payload["output"] = output
        return self.send(conn, "exec.resume", payload, run_id=run_id)

    def close(self, conn: int, code: int, reason: str = "") -> None:
        """Closes ``conn`` with ``code`` (any code the WebSocket library accepts, 1000–4999)
        after the frames queued before it."""
        self._link(conn).close(code, reason)

    # ---- the next hello.ack ---------------------------------------------------------------

    def withhold_ack(self) -> None:
        """The next ``hello.ack`` is never sent (the app's handshake times out)."""
        self._host._ack_faults.append(lambda conn, frame: None)

    def delay_ack(self, ms: int) -> None:
        """The next ``hello.ack`` goes out ``ms`` milliseconds late (unless its connection
        closed meanwhile)."""
        if isinstance(ms, bool) or not isinstance(ms, int) or ms < 0:
            raise ValueError(f"ms must be a non-negative int, got {ms!r}")

        def later(conn: int, frame: str) -> None:
            self._host._loop.call_later(ms / 1000.0, self._send_if_open, conn, frame)

        self._host._ack_faults.append(later)

    def replace_ack(self, replacement: str | Callable[[dict[str, Any]], Any]) -> None:
        """The next ``hello.ack`` is replaced: by ``replacement`` when it is a string (sent as
        is), else by what ``replacement(ack)`` returns for the ack as a dict (a string is sent
        as is, anything else as JSON), for example an ack announcing protocol 2::

            faults.replace_ack(lambda ack: {**ack, "payload": {**ack["payload"], "versions": {"protocol": 2, "viewer": "x"}}})
        """

        def replace(conn: int, frame: str) -> None:
            if isinstance(replacement, str):
                out = replacement
            else:
                value = replacement(json.loads(frame))
                out = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
            self._send_if_open(conn, out)

        self._host._ack_faults.append(replace)

    @property
    def pending_ack_faults(self) -> int:
        """Ack faults not yet applied."""
        return len(self._host._ack_faults)

    # ---- plumbing -------------------------------------------------------------------------

    def _link(self, conn: int) -> Any:
        link = self._host._links.get(conn)
        if link is None:
            raise KeyError(f"connection {conn} is not open")
        return link

    def _send(self, conn: int, frame: str | bytes, logged: str) -> None:
        self._link(conn).send(frame)
        on_frame = self._host._on_frame
        if on_frame is not None:
            on_frame(FrameLog("viewer->app", conn, logged))

    def _send_if_open(self, conn: int, frame: str) -> None:
        if conn in self._host._links:
            self._send(conn, frame, frame)

