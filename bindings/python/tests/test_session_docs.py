"""docs/session.md keeps its promises: every Python example runs (those marked
``listen="FLAGS"`` against ``wirecontract listen FLAGS``, whose record is then checked) and
type-checks with ``mypy --strict`` against the shipped stubs; the Kotlin and Swift examples are
the source files the Kotlin and Swift steps compile and run, quoted verbatim."""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from session_support import REPO, listener

DOC = REPO / "docs" / "session.md"
BLOCK = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```$", re.S | re.M)


def blocks(lang: str) -> list[tuple[str, str]]:
    """(info string after the language, code) of every fenced block in ``lang``."""
    text = DOC.read_text(encoding="utf-8")
    return [(info.strip(), code) for found, info, code in BLOCK.findall(text) if found == lang]


def python_examples() -> list[tuple[str, str]]:
    found = blocks("python")
    assert len(found) >= 3, "docs/session.md lost its Python examples"
    return found


@pytest.mark.parametrize("index", range(len(python_examples())))
def test_python_example_runs(index: int, tmp_path: Path) -> None:
    info, code = python_examples()[index]
    script = tmp_path / f"example_{index}.py"
    script.write_text(code, encoding="utf-8")
    flags = re.fullmatch(r'listen="([^"]*)"', info)

    async def main() -> None:
        env = dict(os.environ)
        if flags is None:
            proc = await asyncio.create_subprocess_exec(sys.executable, str(script), cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
            out, _ = await asyncio.wait_for(proc.communicate(), 60)
            assert proc.returncode == 0, out.decode()
            return
        async with listener(tmp_path, *shlex.split(flags.group(1))) as lst:
            env["GRAPHMIND_URL"] = lst.url
            proc = await asyncio.create_subprocess_exec(sys.executable, str(script), cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
            out, _ = await asyncio.wait_for(proc.communicate(), 60)
            assert proc.returncode == 0, out.decode()
            assert await lst.wait_exit() == 0, lst.output()
            rows = lst.frames()
        app = [r["env"] for r in rows if r["dir"] == "app->viewer"]
        assert all(r["expect"] == "ok" for r in rows)
        paused = [e["payload"]["pauseId"] for e in app if e["type"] == "exec.paused"]
        resumed = [e["payload"]["pauseId"] for e in app if e["type"] == "exec.resumed"]
        assert paused and paused == resumed
        assert app[-1]["type"] == "run.finished" and app[-1]["payload"]["status"] == "ok"
        assert any(e["type"] == "node.token" for e in app)

    asyncio.run(main())


def test_python_examples_type_check(tmp_path: Path) -> None:
    files = []
    for i, (_, code) in enumerate(python_examples()):
        f = tmp_path / f"example_{i}.py"
        f.write_text(code, encoding="utf-8")
        files.append(str(f))
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / ".mypy"), *files],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.parametrize(
    ("lang", "source"),
    [
        ("kotlin", "bindings/uniffi/kotlin/src/test/kotlin/dev/wirecontract/graphmind/docs/AdapterExample.kt"),
        ("swift", "bindings/uniffi/swift/Examples/AdapterExample.swift"),
    ],
)
def test_other_languages_quote_compiled_sources(lang: str, source: str) -> None:
    quoted = [code for _, code in blocks(lang)]
    text = (REPO / source).read_text(encoding="utf-8")
    assert text in quoted, f"docs/session.md's {lang} example is not {source} verbatim"
    assert source in DOC.read_text(encoding="utf-8"), f"docs/session.md does not name {source}"
