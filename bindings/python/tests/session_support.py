"""Helpers for the session host tests: ``wirecontract listen`` as a child process, a TCP
relay that can drop connections (a network outage between app and viewer), and record
reading. Every wait is bounded; listeners are killed on every exit path."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]

T_START = 10.0  # the listener prints its URL
T_EXIT = 10.0  # the listener exits after its runs
T_STEP = 10.0  # one wait inside a test


def cli_path() -> str:
    """The ``wirecontract`` command: ``$WIRECONTRACT_CLI`` (step 30-python builds it and sets
    it), else ``<target>/debug/wirecontract``. Missing is a failure, not a skip."""
    env = os.environ.get("WIRECONTRACT_CLI")
    candidates = [Path(env)] if env else []
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    candidates.append(target / "debug" / "wirecontract")
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return str(c)
    found = shutil.which("wirecontract")
    if found:
        return found
    raise FileNotFoundError(f"wirecontract CLI not found (tried {[str(c) for c in candidates]}); build it with cargo build -p wirecontract-cli and set WIRECONTRACT_CLI")


class Listener:
    """``wirecontract listen --listen 127.0.0.1:0 --record FILE --exit-after-runs N FLAGS``."""

    def __init__(self, proc: asyncio.subprocess.Process, record: Path, url: str) -> None:
        self.proc, self.record, self.url = proc, record, url
        self.port = int(url.rsplit(":", 1)[1].split("/")[0])
        self.lines: list[str] = []
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            self.lines.append(line.decode("utf-8", "replace").rstrip("\n"))

    def output(self) -> str:
        return "\n".join(self.lines)

    async def wait_exit(self) -> int:
        try:
            code = await asyncio.wait_for(self.proc.wait(), T_EXIT)
        except asyncio.TimeoutError:
            raise AssertionError(f"listener did not exit after its runs:\n{self.output()}") from None
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._reader, T_EXIT)
        return code

    def frames(self) -> list[dict[str, Any]]:
        """The record, each line with its frame decoded as ``env``."""
        out = []
        for line in self.record.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                row["env"] = json.loads(row["frame"])
                out.append(row)
        return out


@contextlib.asynccontextmanager
async def listener(tmp: Path, *flags: str, runs: int = 1) -> AsyncIterator[Listener]:
    record = tmp / "record.jsonl"
    proc = await asyncio.create_subprocess_exec(
        cli_path(), "listen", "--listen", "127.0.0.1:0", "--record", str(record), "--exit-after-runs", str(runs), *flags,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    try:
        assert proc.stdout is not None
        first = (await asyncio.wait_for(proc.stdout.readline(), T_START)).decode().strip()
        assert first.startswith("listening on ws://"), f"first line: {first!r}"
        yield Listener(proc, record, first.removeprefix("listening on "))
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


class Proxy:
    """A loopback TCP relay that can go down (drop every relayed connection and refuse new
    ones, like an outage) and come back up while the listener keeps running."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.down = False
        self.connections = 0
        self._writers: list[asyncio.StreamWriter] = []
        self._server: asyncio.AbstractServer | None = None
        self.port = 0

    async def start(self) -> Proxy:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ingest"

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.down:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.transport.abort()
            return
        self.connections += 1
        self._writers += [writer, up_writer]

        async def pump(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
            try:
                while data := await r.read(65536):
                    w.write(data)
                    await w.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                w.transport.abort()

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))

    def go_down(self) -> None:
        self.down = True
        for w in self._writers:
            w.transport.abort()
        self._writers.clear()

    def come_up(self) -> None:
        self.down = False

    async def close(self) -> None:
        self.go_down()
        if self._server is not None:
            self._server.close()


async def until(cond: Any, what: str, timeout: float = T_STEP) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not cond():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)
