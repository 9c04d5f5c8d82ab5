"""Shared fixtures: the conformance material beside the repository."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("WIRECONTRACT_SHARED", REPO.parent / "shared"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "load: the extension under threads, size or volume (linear time and memory, caps, storms); "
        "the work is the same whatever the contract declares, so scripts/contract-change, which runs "
        "this suite on an unoptimized wheel of a changed contract, leaves these out (-m 'not load')",
    )
    config.addinivalue_line(
        "markers",
        "threads: a load test of the extension under threads, which depends on the interpreter's "
        "threading, so step 30 runs it on every supported interpreter",
    )


def _jsonl(path: Path) -> list[dict]:
    if not path.exists():
        raise FileNotFoundError(f"conformance material missing: {path} (set WIRECONTRACT_SHARED)")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def graphmind_vectors() -> list[dict]:
    """Shared vectors, our own extra vectors, and every real-client frame (with an id)."""
    out = []
    for label, path in (
        ("conformance", SHARED / "vectors/graphmind/conformance.jsonl"),
        ("extra", REPO / "vectors/graphmind/extra.jsonl"),
    ):
        for v in _jsonl(path):
            out.append({**v, "id": f"{label}/{v['name']}"})
    files = sorted((SHARED / "real-client").glob("*.jsonl"))
    assert len(files) >= 8, "real-client captures missing"
    for f in files:
        for i, v in enumerate(_jsonl(f), 1):
            out.append({**v, "id": f"real-client/{f.stem}:{i}"})
    assert len(out) > 500
    return out


@pytest.fixture(scope="session")
def vectors() -> list[dict]:
    return graphmind_vectors()
