"""Records the adapter-core scenarios (``adapter_core_scenarios.SCENARIOS``) from the real
``graphmind-ai`` 0.5.1 client into ``vectors/graphmind/adapter-core/<scenario>.jsonl``: one JSON object per
line, ``{"dir", "frame"}``, both directions in wire order, frames exactly as they crossed the
loopback WebSocket.

Usage (in a venv with ``graphmind-ai==0.5.1`` and ``websockets``)::

    python bindings/python/tests/capture_adapter_core.py [scenario ...]
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from adapter_core_scenarios import DATA as OUT  # noqa: E402
from adapter_core_scenarios import SCENARIOS, capture  # noqa: E402


def main(names: list[str]) -> None:
    import graphmind

    assert graphmind.__version__ == "0.5.1", f"expected graphmind-ai 0.5.1, found {graphmind.__version__}"
    OUT.mkdir(parents=True, exist_ok=True)
    for name in names or list(SCENARIOS):
        log = asyncio.run(capture("real", name))
        (OUT / f"{name}.jsonl").write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in log), encoding="utf-8")
        print(f"{name}: {len(log)} frames")


if __name__ == "__main__":
    main(sys.argv[1:])
