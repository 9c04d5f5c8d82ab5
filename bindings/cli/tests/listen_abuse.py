"""``wirecontract listen`` under abuse, on loopback, bounded in count and time.

One listener takes the attacks in two waves (slow readers, oversized frames, hostile runIds and
half-open handshakes; then churn, 10,000 runs and silent connections) while a well-behaved
scripted app runs beside them throughout:

- 20 slow readers: each arms pauses (1,000 at once, then 50 a second) whose 16 KiB answers it never reads (dropped with 1013,
  the close frame best effort behind a full socket);
- connection churn: 1,000 connections that say hello and go, 50 at a time;
- 10,000 runs from one app (run.started + run.finished each);
- 10 oversized frames (17 MiB, closed with 1009);
- hostile runIds: 50 frames with distinct 256 KiB runIds carrying newlines and ANSI escapes;
- 100 silent connections (closed with 1008 after --idle-timeout 15) and 100 that never finish
  the handshake (dropped after --handshake-timeout);

and then, on a second listener under ``ulimit -n 64``, 200 connections that exhaust its
descriptors (accept backs off; CPU stays low; it recovers).

Asserted: the listener's peak RSS (VmHWM); every abuser was closed as documented; the good
app's frames were each stored exactly once, including the ones it replayed after a dropped
connection (no frame lost from its ring); every pause it opened live was answered; no
escape byte or forged ``==`` line reached stdout; stdout stayed within the log rate.

With ``--soak SECONDS`` (``scripts/soak``, 600 s by default) it runs the same attackers in
loops for that long instead, beside four good apps doing runs, pauses and reconnects, samples
the listener's RSS every 5 s, and asserts the good apps' pauses were all answered, no loop
failed, and RSS levelled off (the last third's peak within 25% + 16 MiB of the middle third's).

Usage: python listen_abuse.py --cli PATH/TO/wirecontract --out DIR [--soak SECONDS]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import websockets

T_STEP = 60.0  # bound on each phase
PEAK_RSS_MIB = 200  # the listener's VmHWM bound under the attacks (debug build; 100 MiB measured)
INJECT = json.dumps({"blob": "z" * (16 << 10)})
LISTEN_FLAGS = [
    "--break", "tool", "--on-pause", f"inject={INJECT}", "--max-queued-mib", "2",
    "--idle-timeout", "15", "--handshake-timeout", "2", "--max-connections", "400", "--log-rate", "500",
]


class Failed(AssertionError):
    pass


def check(cond: bool, what: str) -> None:
    if not cond:
        raise Failed(what)


def proc_kib(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise Failed(f"no {key} for {pid}")


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


class Listener:
    """The listener as a child process; stdout lines collected by a thread."""

    def __init__(self, cli: str, out: Path, name: str, flags: list[str], nofile: int | None = None, record: bool = True) -> None:
        self.record = out / f"{name}.ndjson"
        cmd = [cli, "listen", "--listen", "127.0.0.1:0", *(["--record", str(self.record)] if record else []), *flags]
        if nofile is not None:
            cmd = ["sh", "-c", f'ulimit -n {nofile} && exec "$0" "$@"', *cmd]
        self.log = open(out / f"{name}.log", "wb")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log)
        self.lines: list[bytes] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        deadline = time.monotonic() + 10
        while not self.lines:
            check(time.monotonic() < deadline and self.proc.poll() is None, f"{name}: no URL line")
            time.sleep(0.01)
        self.url = self.lines[0].decode().strip().removeprefix("listening on ")
        self.addr = self.url.removeprefix("ws://").removesuffix("/ingest")

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)
            self.log.write(line)

    def text(self) -> str:
        return b"".join(self.lines).decode("utf-8", "replace")

    def count(self, needle: str) -> int:
        return sum(needle in line.decode("utf-8", "replace") for line in self.lines)

    async def wait_line(self, needle: str, timeout: float = T_STEP) -> None:
        deadline = time.monotonic() + timeout
        while self.count(needle) == 0:
            check(time.monotonic() < deadline, f"no line with {needle!r}")
            await asyncio.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.reader.join(5)
        self.log.close()


def frame(seq: int, run: str, ty: str, payload: dict[str, Any]) -> str:
    return json.dumps({"gm": 1, "seq": seq, "ts": 1_700_000_000_000 + seq, "runId": run, "type": ty, "payload": payload})


def hello(seq: int, token: str | None = None, app: str = "abuse") -> str:
    p: dict[str, Any] = {"versions": {"protocol": 1, "client": "abuse"}, "capabilities": ["pause", "inject"], "app": app}
    if token:
        p["resumeToken"] = token
    return frame(seq, "*", "hello", p)


async def connect(url: str, **kw: Any) -> Any:
    return await asyncio.wait_for(websockets.connect(url, max_size=None, ping_interval=None, **kw), T_STEP)


async def close_code(ws: Any) -> int | None:
    try:
        async with asyncio.timeout(T_STEP):
            async for _ in ws:
                pass
    except websockets.ConnectionClosed:
        pass
    return ws.close_code


# -- the good app ---------------------------------------------------------------------------


class GoodApp:
    """A scripted app with a ring: 5 runs of 3 paused tools each; after the second run its
    connection is dropped without a close and it reconnects, replaying everything sent."""

    RUN = "good-run"

    def __init__(self, url: str, prefix: str = RUN) -> None:
        self.url = url
        self.prefix = prefix
        self.seq = 0
        self.ring: list[str] = []
        self.sent: set[tuple[str, int]] = set()
        self.paused: list[str] = []
        self.answered: set[str] = set()

    def next(self, run: str, ty: str, payload: dict[str, Any]) -> str:
        self.seq += 1
        text = frame(self.seq, run, ty, payload)
        self.ring.append(text)
        self.sent.add((run, self.seq))
        return text

    async def attach(self, token: str | None) -> tuple[Any, str]:
        ws = await asyncio.wait_for(websockets.connect(self.url, max_size=None, ping_interval=1), T_STEP)  # pings: never idle
        self.seq += 1
        await ws.send(hello(self.seq, token, app="good"))
        ack = json.loads(await asyncio.wait_for(ws.recv(), T_STEP))
        check(ack["type"] == "hello.ack", f"good app: {ack}")
        return ws, ack["payload"]["sessionToken"]

    async def run(self) -> None:
        ws, token = await self.attach(None)
        for r in range(5):
            run = f"{self.prefix}-{r}"
            await ws.send(self.next(run, "run.started", {"app": "good", "sdk": {"name": "t", "version": "1"}}))
            for t in range(3):
                node = f"tool:t{t}"
                await ws.send(self.next(run, "node.started", {"nodeId": node, "kind": "tool", "name": f"t{t}", "instanceId": f"{run}-{t}"}))
                pause = f"{run}-p{t}"
                self.paused.append(pause)
                await ws.send(self.next(run, "exec.paused", {"pauseId": pause, "nodeId": node, "point": "before"}))
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), T_STEP))
                    if msg["type"] == "exec.resume":
                        break
                check(msg["payload"]["pauseId"] == pause, f"resume for {msg['payload']['pauseId']}, want {pause}")
                self.answered.add(pause)
                await ws.send(self.next(run, "exec.resumed", {"pauseId": pause, "action": msg["payload"]["action"]}))
                await ws.send(self.next(run, "node.finished", {"nodeId": node, "instanceId": f"{run}-{t}", "durationMs": 1, "status": "ok"}))
            await ws.send(self.next(run, "run.finished", {"status": "ok"}))
            if r == 1:
                ws.transport.abort()  # a dropped network: no close handshake
                ws, token = await self.attach(token)
                for text in self.ring:  # the whole ring, oldest first
                    await ws.send(text)
        await ws.close()


# -- the attacks ----------------------------------------------------------------------------


async def slow_reader(url: str, addr: str, i: int) -> int | None:
    # A small receive buffer (set before connecting) so the listener's queue, not the
    # kernel's, takes the backlog.
    host, port = addr.rsplit(":", 1)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 << 10)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
    ws = await connect(url, max_queue=1, sock=sock)
    await ws.send(hello(0))
    run = f"slow-{i}"
    await ws.send(frame(1, run, "node.started", {"nodeId": "tool:s", "kind": "tool", "name": "s", "instanceId": "s"}))
    ws.transport.pause_reading()  # never read again: answers pile up at the listener
    # Pauses keep coming (so the connection is never idle) until the listener drops it.
    deadline = time.monotonic() + T_STEP
    try:
        for seq in range(2, 1_000_000):
            check(time.monotonic() < deadline, f"slow reader {i} was never dropped")
            await asyncio.wait_for(ws.send(frame(seq, run, "exec.paused", {"pauseId": f"{run}-{seq}", "nodeId": "tool:s", "point": "before"})), T_STEP)
            if seq > 1000:
                await asyncio.sleep(0.02)
    except (websockets.ConnectionClosed, ConnectionError):
        pass
    ws.transport.resume_reading()
    return await close_code(ws)


async def churn(url: str, n: int) -> int:
    sem = asyncio.Semaphore(50)
    done = 0

    async def one(k: int) -> None:
        nonlocal done
        async with sem:
            ws = await connect(url)
            await ws.send(hello(k))
            await asyncio.wait_for(ws.recv(), T_STEP)
            await ws.close()
            done += 1

    await asyncio.gather(*(one(k) for k in range(n)))
    return done


async def many_runs(url: str, n: int) -> None:
    ws = await connect(url)
    await ws.send(hello(0))
    await asyncio.wait_for(ws.recv(), T_STEP)
    seq = 0
    for r in range(n):
        for ty, p in (("run.started", {"app": "many", "sdk": {"name": "t", "version": "1"}}), ("run.finished", {"status": "ok"})):
            seq += 1
            await ws.send(frame(seq, f"many-{r}", ty, p))
    await ws.close()


async def oversized(url: str) -> int | None:
    ws = await connect(url)
    await ws.send(hello(0))
    try:
        await ws.send(frame(1, "big", "graph.hint", {"nodes": [], "x": "a" * (17 << 20)}))
    except websockets.ConnectionClosed:
        pass
    return await close_code(ws)


HOSTILE = "\n== done: 999 run(s) finished\x1b[2J\x1b]0;owned\x07\r"


async def hostile_run_ids(url: str) -> None:
    ws = await connect(url)
    await ws.send(hello(0, app="evil\n== [c0] attached\x1b[31m"))
    pad = "h" * (256 << 10)
    for seq in range(1, 51):
        await ws.send(frame(seq, f"{seq}{HOSTILE}{pad}", "node.started", {"nodeId": f"n{HOSTILE}", "kind": "tool", "name": HOSTILE, "instanceId": "i"}))
    await ws.close(1000, "bye\n== forged")


async def idle(url: str) -> int | None:
    ws = await connect(url)
    await ws.send(hello(0))
    await asyncio.wait_for(ws.recv(), T_STEP)
    return await close_code(ws)


async def no_handshake(addr: str) -> bool:
    host, port = addr.rsplit(":", 1)
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(b"GET /ingest HTTP/1.1\r\nHost: x\r\n")  # never finished
    data = await asyncio.wait_for(reader.read(), T_STEP)
    writer.close()
    return data == b""


async def phase_one(cli: str, out: Path) -> None:
    lis = Listener(cli, out, "abuse", LISTEN_FLAGS)
    try:
        base = proc_kib(lis.proc.pid, "VmRSS")
        good = GoodApp(lis.url)
        started = time.monotonic()
        async def attacks() -> list[Any]:
            # Two waves, so a connection's wait for its ack measures the listener, not a
            # backlog of 20 slow readers' 16 KiB answers in a debug build.
            wave_a = await asyncio.gather(
                asyncio.gather(*(slow_reader(lis.url, lis.addr, i) for i in range(20))),
                asyncio.gather(*(oversized(lis.url) for _ in range(10))),
                hostile_run_ids(lis.url),
                asyncio.gather(*(no_handshake(lis.addr) for _ in range(100))),
            )
            wave_b = await asyncio.gather(
                churn(lis.url, 1000),
                many_runs(lis.url, 10_000),
                asyncio.gather(*(idle(lis.url) for _ in range(100))),
            )
            return [*wave_a, *wave_b]

        _, results = await asyncio.gather(good.run(), attacks())
        elapsed = time.monotonic() - started
        slow, big, _, dropped, churned, _, idles = results
        # A reader that does not read may never see the 1013 close frame (best effort, behind
        # a full socket); the connection is dropped either way, and memory stays bounded.
        check(all(c in (1013, 1006) for c in slow), f"slow readers closed with {slow}")
        check(churned == 1000, f"churn: {churned}")
        check(all(c == 1009 for c in big), f"oversized frames closed with {big}")
        check(all(c == 1008 for c in idles), f"idle connections closed with {sorted(set(idles), key=str)}")
        check(all(dropped), "every half-open handshake dropped")
        peak = proc_kib(lis.proc.pid, "VmHWM")
        check(peak < PEAK_RSS_MIB << 10, f"peak RSS {peak >> 10} MiB over {PEAK_RSS_MIB} MiB")
        check(set(good.paused) == good.answered, f"unanswered pauses: {set(good.paused) - good.answered}")
    finally:
        lis.stop()
    # The record: each good frame stored exactly once (first sightings), replays flagged.
    firsts: dict[tuple[str, int], int] = {}
    for line in lis.record.read_text().splitlines():
        r = json.loads(line)
        if r["dir"] != "app->viewer" or r.get("duplicate") or r["expect"] != "ok":
            continue
        f = json.loads(r["frame"])
        if f["runId"].startswith(GoodApp.RUN):
            key = (f["runId"], f["seq"])
            firsts[key] = firsts.get(key, 0) + 1
    check(set(firsts) == good.sent, f"good frames lost: {sorted(good.sent - set(firsts))[:5]}, extra: {sorted(set(firsts) - good.sent)[:5]}")
    check(all(n == 1 for n in firsts.values()), "a good frame stored twice")
    text = lis.text()
    check("\x1b" not in text and "\r" not in text and "\x07" not in text, "a raw control character reached stdout")
    forged = [line for line in text.splitlines() if line.startswith(("== done: 999", "== [c0] attached", "== forged"))]
    check(not forged, f"forged lines: {forged[:3]}")
    check("finished, " in text.splitlines()[-1], f"last line: {text.splitlines()[-1][:200]}")
    lines_per_s = len(text.splitlines()) / max(elapsed, 1.0)
    check(lines_per_s < 1200, f"{lines_per_s:.0f} lines/s over --log-rate 500")
    print(
        f"abuse: {elapsed:.1f} s, peak RSS {peak >> 10} MiB (start {base >> 10} MiB), {len(good.sent)} good frames stored once, "
        f"{len(good.paused)} pauses answered, 20 slow readers dropped (close codes {sorted(Counter(slow).items())}), 1000 churned, 10000 runs, 10 x 1009, 100 x 1008, 100 half-open dropped, "
        f"{len(text.splitlines())} stdout lines ({text.count('not shown')} suppression notes)"
    )


async def phase_two(cli: str, out: Path) -> None:
    lis = Listener(cli, out, "emfile", ["--log-rate", "0"], nofile=64)
    try:
        held = []
        for _ in range(200):
            host, port = lis.addr.rsplit(":", 1)
            held.append(await asyncio.open_connection(host, int(port)))
        await lis.wait_line("accept failed", 10)
        t0 = cpu_ticks(lis.proc.pid)
        await asyncio.sleep(3)
        ticks = cpu_ticks(lis.proc.pid) - t0
        failures = lis.count("accept failed")
        check(ticks < 60, f"{ticks} CPU ticks in 3 s out of descriptors")
        check(failures < 500, f"{failures} accept-failed lines")
        for _, w in held:
            w.close()
        deadline = time.monotonic() + 20
        while True:
            try:
                ws = await asyncio.wait_for(websockets.connect(lis.url, ping_interval=None), 3)
                break
            except (OSError, TimeoutError, websockets.InvalidHandshake, websockets.ConnectionClosed):
                check(time.monotonic() < deadline, "never accepted again")
                await asyncio.sleep(0.2)
        await ws.send(hello(0))
        check(json.loads(await asyncio.wait_for(ws.recv(), T_STEP))["type"] == "hello.ack", "ack after recovery")
        await ws.close()
        print(f"emfile: {ticks} CPU ticks in 3 s, {failures} accept-failed lines, recovered")
    finally:
        lis.stop()


async def soak(cli: str, out: Path, seconds: float) -> None:
    # No record file: ten minutes of 16 KiB answers would fill the disk, not test the listener.
    lis = Listener(cli, out, "soak", LISTEN_FLAGS, record=False)
    try:
        await soak_loops("soak", lis.url, lis.addr, lis.proc.pid, seconds)
    finally:
        lis.stop()


async def soak_loops(label: str, url: str, addr: Any, pid: int, seconds: float) -> None:
    """The soak against the host at ``url`` (process ``pid``) for ``seconds``: four good apps,
    churn, slow readers, oversized frames, hostile runIds and 1,000-run floods in loops; asserts
    no error and RSS levelling off (the last third of the samples within 25% + 16 MiB of the
    middle third). The caller starts and stops the host."""
    end = time.monotonic() + seconds
    stats: Counter[str] = Counter()
    errors: list[str] = []
    samples: list[int] = []

    async def every(name: str, period: float, body: Any) -> None:
        while time.monotonic() < end:
            t0 = time.monotonic()
            try:
                await body()
                stats[name] += 1
            except Exception as e:  # counted and reported: the soak runs on
                errors.append(f"{name}: {type(e).__name__}: {e}")
            await asyncio.sleep(max(0.0, period - (time.monotonic() - t0)))

    def good(k: int) -> Any:
        async def body() -> None:
            app = GoodApp(url, f"good{k}-{stats[f'good{k}']}")
            await app.run()
            check(set(app.paused) == app.answered, f"unanswered pauses {set(app.paused) - app.answered}")
            stats["good frames"] += len(app.sent)
            stats["pauses answered"] += len(app.answered)
        return body

    async def sample() -> None:
        samples.append(proc_kib(pid, "VmRSS"))

    async def runs() -> None:
        await many_runs(url, 1000)
        stats["runs"] += 1000

    await asyncio.gather(
        *(every(f"good{k}", 0.5, good(k)) for k in range(4)),
        every("churn", 1.0, lambda: churn(url, 50)),
        every("slow", 15.0, lambda: slow_reader(url, addr, stats["slow"])),
        every("oversized", 20.0, lambda: oversized(url)),
        every("hostile", 20.0, lambda: hostile_run_ids(url)),
        every("10k-runs", 10.0, runs),
        every("sample", 5.0, sample),
    )
    peak = proc_kib(pid, "VmHWM")
    third = max(1, len(samples) // 3)
    middle, last = max(samples[third : 2 * third] or samples), max(samples[2 * third :] or samples)
    print(
        f"{label}: {seconds:.0f} s, peak RSS {peak >> 10} MiB, RSS middle third {middle >> 10} MiB, last third {last >> 10} MiB, "
        f"{stats['good frames']} good frames, {stats['pauses answered']} pauses answered, {stats['runs']} flood runs, "
        f"{stats['churn'] * 50} churned connections, {stats['slow']} slow readers, {stats['oversized']} oversized frames, "
        f"{stats['hostile']} hostile batches, {len(errors)} errors"
    )
    check(not errors, f"{len(errors)} errors, first: {errors[:3]}")
    check(last <= middle * 1.25 + (16 << 10), f"RSS still growing: {middle >> 10} -> {last >> 10} MiB")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--soak", type=float, metavar="SECONDS")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    try:
        if args.soak:
            asyncio.run(soak(args.cli, out, args.soak))
            return 0
        asyncio.run(phase_one(args.cli, out))
        asyncio.run(phase_two(args.cli, out))
    except Failed as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
