"""``wirecontract conform`` judges "a detach disarms" (guarantee 3, scenario ``rearm``): the
asyncio host passes it, and the same workload on a host whose controls survive a detach
(``conform_stale_workload.py``) fails it, the report citing the stale pause."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from session_support import cli_path

HERE = Path(__file__).resolve().parent


def rearm(tmp_path: Path, workload: Path) -> tuple[int, dict[str, Any]]:
    report = tmp_path / "report.json"
    done = subprocess.run(
        [cli_path(), "conform", "--scenario", "rearm", "--json", str(report), "--", sys.executable, str(workload)],
        capture_output=True, text=True, timeout=120,
    )
    scenario = json.loads(report.read_text(encoding="utf-8"))["scenarios"][0]
    return done.returncode, {c["id"]: c for c in scenario["checks"]}


def test_rearm_passes_the_asyncio_host(tmp_path: Path) -> None:
    code, checks = rearm(tmp_path, HERE.parent / "conform" / "workload_async.py")
    assert code == 0, checks
    assert checks["G3"]["status"] == "pass", checks["G3"]
    assert "ran under it unpaused" in checks["G3"]["detail"], checks["G3"]


def test_rearm_fails_an_adapter_whose_controls_survive_a_detach(tmp_path: Path) -> None:
    code, checks = rearm(tmp_path, HERE / "conform_stale_workload.py")
    assert code == 1
    failed = sorted(c for c, check in checks.items() if check["status"] == "fail")
    assert failed == ["G3"], checks
    detail = checks["G3"]["detail"]
    assert "survived the detach" in detail and "llm:planner" in detail, detail
