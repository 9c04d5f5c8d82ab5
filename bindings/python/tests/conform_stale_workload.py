"""A deliberately broken adapter for ``test_conform_judge.py``: the asyncio workload
(``../conform/workload_async.py``) on a host whose core keeps the viewer's controls across a
detach. Every ``breakpoint.set``, ``breakpoint.clear`` and ``mode.set`` it receives is fed to the
core again after each later ``hello.ack``, as an adapter that stored the controls itself and
re-applied them would. Guarantee 3 ("a detach disarms") forbids that; ``wirecontract conform``
must say so in ``rearm``.
"""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from typing import Any

import wirecontract.graphmind.session as session

CONTROLS = {"breakpoint.set", "breakpoint.clear", "mode.set"}


class StaleCore:
    """The ``AppSession`` with the bug: controls survive a detach."""

    def __init__(self, core: Any) -> None:
        self._core = core
        self._controls: list[str | bytes] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._core, name)

    def frame_received(self, frame: str | bytes, now_ms: float) -> Any:
        result = self._core.frame_received(frame, now_ms)
        try:
            kind = json.loads(frame).get("type")
        except (ValueError, AttributeError):
            return result
        if kind in CONTROLS:
            self._controls.append(frame)
        elif kind == "hello.ack":
            for control in self._controls:
                self._core.frame_received(control, now_ms)
        return result


_connect = session.connect


def stale_connect(*args: Any, **config: Any) -> session.Session:
    s = _connect(*args, **config)
    s.core = StaleCore(s.core)  # type: ignore[assignment]
    return s


session.connect = stale_connect  # type: ignore[assignment]
runpy.run_path(str(Path(__file__).resolve().parents[1] / "conform" / "workload_async.py"), run_name="__main__")
