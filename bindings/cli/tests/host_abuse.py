"""The Python session hosts under abuse, on loopback, bounded in count and time: the same
attackers as ``listen_abuse.py`` against the viewer host ``serve``, and a hostile viewer against
the app host ``connect``. Each host runs in its own child process, so its peak RSS (VmHWM) is
its own.

``serve`` (the viewer host; phase ``serve``), beside the well-behaved ``GoodApp`` of
listen_abuse.py (5 runs of 3 paused tools, a dropped connection and a replay of its ring):
4 slow readers (pauses whose 64 KiB inject answers they never read: dropped with 1013 past
``max_queue_bytes``), 6 oversized frames (17 MiB: 1009), 50 hostile runIds of 256 KiB with
newlines and escapes, 50 half-open handshakes, then 300 churned connections, 10,000 runs from
one app and 50 silent connections (1008 after ``idle_timeout_ms``). Fewer than against
``listen``: the Python host answers each pause in Python, and the step's time is bounded. Asserted: the closes, the
host's peak RSS, every good frame accepted exactly once, every good pause answered, no raw
control character in the host's log.

``connect`` (the app host; phase ``connect``), its app doing 60 runs of 3 paused tools and then
10,000 runs without pauses (about 10 MB; its ring is sized to hold them all), against a viewer
that misbehaves on its first connections, one behaviour each: an oversized frame (over
``max_frame_bytes``: 1009); a storm of 5,000 distinct ``breakpoint.set`` (capped at 1,024, one
warning) and then a drop while a pause is held (fail-open); garbage and out-of-state controls
(text, binary, ``gm: 2``, unknown pauses, a bogus action before each real answer); 20
connections closed right after the ack (churn); then it behaves. When the app has done its
runs, the viewer's connection of the moment stops reading and the app emits 8 MiB more (past
what the kernel's socket buffers absorb): ``write_stall_timeout_ms`` drops that connection
(1013) and the next one gets the replay. Asserted: the
app host's peak RSS, every seq the app took reached the viewer (live or replayed: none lost
from its ring), every gate returned and every ``exec.paused`` has its ``exec.resumed``, the
warnings and log lines the limits promise.

Usage: python host_abuse.py --out DIR [--phase serve|connect|all] [--soak SECONDS]
(``--soak``: the serve host against the attackers in loops, as ``listen_abuse.py --soak``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import json
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import websockets

import listen_abuse as la
from listen_abuse import Failed, check, proc_kib

SERVE_PEAK_MIB = 200  # the serve host's VmHWM bound (80 MiB measured; it reads a 17 MiB frame header and refuses it)
APP_PEAK_MIB = 400  # the app host's VmHWM bound (340 MiB measured with a debug wheel: a 10 MB ring replayed whole on
# each attachment, then the 8 MiB flood held by the ring, the stalled connection's queue and the replay)
SLOW, BIG, CHURN = 4, 6, 300  # attackers in the serve phase (a Python host on 2 shared cores)
INJECT = {"blob": "z" * (64 << 10)}  # large answers: a slow reader is dropped after few of them


# -- the hosts, each run as a child process of this script --------------------------------


def run_serve_host(summary: Path) -> None:
    from wirecontract.graphmind.session import serve

    accepted: Counter[tuple[str, int]] = Counter()
    other = Counter[str]()

    def on_frame(f: Any) -> None:
        if f.dir != "app->viewer" or f.received is None or '"runId": "good-run' not in f.frame[:400]:
            return
        if f.received.kind == "accepted":
            env = json.loads(f.frame)
            accepted[(env["runId"], env["seq"])] += 1
        else:
            other[f.received.kind] += 1

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        async with serve(
            port=0, breakpoints=[{"kind": "tool"}], on_pause=lambda p: ("inject", INJECT), on_frame=on_frame,
            max_queue_bytes=256 << 10, idle_timeout_ms=15_000, max_connections=400,
        ) as viewer:
            print(f"listening on {viewer.url}", flush=True)
            await stop.wait()
            refused = viewer.connections_refused
        summary.write_text(json.dumps({
            "accepted": [[r, q, n] for (r, q), n in accepted.items()], "other": other, "refused": refused,
        }))

    asyncio.run(main())


def run_app_host(url: str, summary: Path) -> None:
    from wirecontract.graphmind.session import GateNode, connect

    async def main() -> None:
        decisions: Counter[str] = Counter()
        rules: Counter[str] = Counter()
        async with connect(
            url, app="abused", connect_timeout_ms=3000, handshake_timeout_ms=3000, retry_interval_ms=300,
            fast_retry_ms=[50, 100], ring_max_frames=100_000, ring_max_bytes=64 << 20, max_queue_bytes=64 << 20, write_stall_timeout_ms=1500,
            max_frame_bytes=1 << 20, on_warn=lambda w: rules.update([w.rule]), flush_timeout_ms=5000,
        ) as s:
            for r in range(60):
                async with s.run(f"work-{r}") as run:
                    for t in range(3):
                        node = GateNode(f"tool:t{t}", "tool", f"t{t}", f"{r}-{t}")
                        run.emit("node.started", {"nodeId": node.node_id, "kind": "tool", "name": node.name, "instanceId": node.instance_id, "input": "i" * 2000})
                        d = await asyncio.wait_for(run.gate("before", node), 60)
                        decisions[d.action] += 1
                        run.emit("node.finished", {"nodeId": node.node_id, "instanceId": node.instance_id, "durationMs": 1, "status": "ok"})
            # 10,000 runs without pauses, about 10 MB (the ring holds them all: none may be lost).
            for r in range(10_000):
                async with s.run(f"many-{r}", meta={"pad": "p" * 400}):
                    pass
                if r % 500 == 0:
                    await asyncio.sleep(0)  # let the socket drain
            # The viewer stops reading at "ready"; at "flood" the app writes 8 MiB it cannot take,
            # so the write stall must drop that connection (1013) and a new one gets the replay.
            print("ready", flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
            for r in range(32):
                async with s.run(f"flood-{r}", meta={"pad": "f" * (256 << 10)}):
                    pass
            # Every seq taken so far: the viewer says when it has them all (or the step fails),
            # meanwhile the host keeps reconnecting and replaying as it must.
            final_seq = s.core.next_seq
            print(f"done {final_seq}", flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        summary.write_text(json.dumps({"decisions": decisions, "rules": rules, "next_seq": final_seq}))

    asyncio.run(main())


class Child:
    """A host child process; its stdout's first line names the URL (serve) or nothing (app)."""

    def __init__(self, out: Path, name: str, args: list[str], wants_url: bool) -> None:
        self.log = open(out / f"{name}.log", "wb")
        self.proc = subprocess.Popen([sys.executable, __file__, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log)
        self.url = ""
        if wants_url:
            assert self.proc.stdout is not None
            line = self.proc.stdout.readline().decode().strip()
            check(line.startswith("listening on "), f"{name}: first line {line!r}")
            self.url = line.removeprefix("listening on ")
            self.addr = self.url.removeprefix("ws://").removesuffix("/ingest")

    def peak_kib(self) -> int:
        return proc_kib(self.proc.pid, "VmHWM")

    def stop(self, timeout: float = 30) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise Failed("host did not stop") from None
        finally:
            self.log.close()


# -- serve ------------------------------------------------------------------------------------


async def phase_serve(out: Path) -> None:
    summary = out / "serve-summary.json"
    host = Child(out, "serve", ["--serve-host", str(summary)], wants_url=True)
    try:
        good = la.GoodApp(host.url)
        started = time.monotonic()

        async def attacks() -> list[Any]:
            wave_a = await asyncio.gather(
                asyncio.gather(*(la.slow_reader(host.url, host.addr, i) for i in range(SLOW))),
                asyncio.gather(*(la.oversized(host.url) for _ in range(BIG))),
                la.hostile_run_ids(host.url),
                asyncio.gather(*(la.no_handshake(host.addr) for _ in range(50))),
            )
            wave_b = await asyncio.gather(
                la.churn(host.url, CHURN),
                la.many_runs(host.url, 10_000),
                asyncio.gather(*(la.idle(host.url) for _ in range(50))),
            )
            return [*wave_a, *wave_b]

        _, results = await asyncio.gather(good.run(), attacks())
        elapsed = time.monotonic() - started
        slow, big, _, dropped, churned, _, idles = results
        check(all(c in (1013, 1006) for c in slow), f"slow readers closed with {slow}")
        check(churned == CHURN, f"churn: {churned}")
        check(all(c == 1009 for c in big), f"oversized frames closed with {big}")
        check(all(c == 1008 for c in idles), f"idle connections closed with {sorted(set(idles), key=str)}")
        check(all(dropped), "every half-open handshake dropped")
        peak = host.peak_kib()
        check(peak < SERVE_PEAK_MIB << 10, f"serve: peak RSS {peak >> 10} MiB over {SERVE_PEAK_MIB} MiB")
        check(set(good.paused) == good.answered, f"unanswered pauses: {set(good.paused) - good.answered}")
    finally:
        code = host.stop()
    check(code == 0, f"serve host exited {code}")
    s = json.loads(summary.read_text())
    firsts = {(r, q): n for r, q, n in s["accepted"]}
    check(set(firsts) == good.sent, f"good frames lost: {sorted(good.sent - set(firsts))[:5]}, extra: {sorted(set(firsts) - good.sent)[:5]}")
    check(all(n == 1 for n in firsts.values()), "a good frame accepted twice")
    log = (out / "serve.log").read_bytes()
    check(b"\x1b" not in log and b"\r" not in log and b"\x07" not in log, "a raw control character reached the serve host's log")
    print(
        f"serve: {elapsed:.1f} s, peak RSS {peak >> 10} MiB, {len(good.sent)} good frames accepted once ({dict(s['other'])} replays), "
        f"{len(good.paused)} pauses answered, {SLOW} slow readers dropped ({sorted(Counter(slow).items())}), {CHURN} churned, "
        f"10000 runs, {BIG} x 1009, 50 x 1008, 50 half-open dropped, {log.count(b'graphmind viewer')} log lines"
    )


# -- connect ----------------------------------------------------------------------------------


def vframe(seq: int, ty: str, payload: dict[str, Any], run: str = "*", gm: int = 1) -> str:
    return json.dumps({"gm": gm, "seq": seq, "ts": 1_700_000_000_000 + seq, "runId": run, "type": ty, "payload": payload})


ACK = {"versions": {"protocol": 1, "viewer": "hostile/1"}, "capabilities": ["pause", "inject"], "breakpoints": [{"kind": "tool"}], "mode": "run", "sessionToken": "t"}


_conn: contextvars.ContextVar[int] = contextvars.ContextVar("conn", default=-1)  # the handler's connection


class HostileViewer:
    """Misbehaves on the app's first connections (one behaviour each, in order), then answers
    every pause with continue. Records every app frame's seq, on every connection."""

    CHURN = 20

    def __init__(self) -> None:
        self.conns = 0
        self.seqs: set[int] = set()
        self.closes: list[int | None] = []
        self.answered = 0
        self.paused: set[str] = set()
        self.resumed: set[str] = set()
        self.done = asyncio.Event()
        self.freeze = asyncio.Event()  # set by the test: the connection of the moment stops reading
        self.frozen: int | None = None  # which connection stopped reading
        self.live: int | None = None  # the newest connection: the app's connection of the moment
        self.per_conn: dict[int, int] = {}  # frames noted per good connection
        self.read_on: dict[int, int] = {}  # seq -> the connection it was last read on
        self.after_freeze: dict[int, int] = {}  # of them, noted after the freeze
        self.behaviours = [self.oversized, self.storm_then_drop, self.garbage, *([self.churn] * self.CHURN)]

    async def handler(self, ws: Any) -> None:
        k = self.conns
        self.conns += 1
        self.live = k
        _conn.set(k)
        behave = self.behaviours[k] if k < len(self.behaviours) else self.good
        try:
            hello = json.loads(await asyncio.wait_for(ws.recv(), la.T_STEP))
            self.seqs.add(hello["seq"])
            self.vseq = 0
            await ws.send(vframe(0, "hello.ack", ACK))
            await (self.good(ws, k) if behave == self.good else behave(ws))
        except websockets.ConnectionClosed:
            pass
        self.closes.append(ws.close_code)

    def note(self, text: str | bytes) -> dict[str, Any] | None:
        if not isinstance(text, str):
            return None
        env = json.loads(text)
        self.seqs.add(env["seq"])
        k = _conn.get()
        self.read_on[env["seq"]] = k
        self.per_conn[k] = self.per_conn.get(k, 0) + 1
        if self.frozen is not None:
            self.after_freeze[k] = self.after_freeze.get(k, 0) + 1
        if env["type"] == "exec.paused":
            self.paused.add(env["payload"]["pauseId"])
        elif env["type"] == "exec.resumed":
            self.resumed.add(env["payload"]["pauseId"])
        return env

    async def answer(self, ws: Any, env: dict[str, Any] | None, action: str = "continue") -> None:
        if env is not None and env["type"] == "exec.paused":
            self.vseq += 1
            await ws.send(vframe(self.vseq, "exec.resume", {"pauseId": env["payload"]["pauseId"], "action": action}, env["runId"]))
            self.answered += 1

    async def good(self, ws: Any, k: int) -> None:
        """Answers every pause; at the freeze, the app's connection of the moment stops
        reading, once: the newest connection, even if its hello is still on its way (an older
        one still open is one the app has left and the viewer has not seen close yet). Every
        other connection keeps reading."""

        async def read() -> None:
            async for text in ws:
                await self.answer(ws, self.note(text))

        if self.frozen is not None:
            await read()
            return
        reader = asyncio.ensure_future(read())
        freeze = asyncio.ensure_future(self.freeze.wait())
        await asyncio.wait({reader, freeze}, return_when=asyncio.FIRST_COMPLETED)
        if reader.done():
            freeze.cancel()
            reader.result()
            return
        if self.frozen is not None or self.live != k:
            await reader  # not the app's connection of the moment (or another froze): keep reading
            return
        self.frozen = k
        reader.cancel()
        await self.stop_reading(ws)

    async def oversized(self, ws: Any) -> None:
        n = 0
        async for text in ws:
            env = self.note(text)
            await self.answer(ws, env)
            if env is not None and env["type"] == "exec.paused":
                n += 1
                if n == 3:
                    await ws.send("{\"x\":\"" + "a" * (2 << 20) + "\"}")  # over the app's 1 MiB max_frame_bytes

    async def storm_then_drop(self, ws: Any) -> None:
        for i in range(5000):
            self.vseq += 1
            await ws.send(vframe(self.vseq, "breakpoint.set", {"matcher": {"kind": "tool", "name": f"storm-{i}"}}))
        n = 0
        async for text in ws:
            env = self.note(text)
            if env is not None and env["type"] == "exec.paused":
                n += 1
                if n == 4:
                    ws.transport.abort()  # dropped while a pause is held: fail-open
                    return
                await self.answer(ws, env)

    async def stop_reading(self, ws: Any) -> None:
        # No reading at all from now on: the app's writes back up until its limits drop it.
        sock = ws.transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        ws.transport.pause_reading()
        await self.done.wait()

    async def garbage(self, ws: Any) -> None:
        junk: list[str | bytes] = [
            "not json", "{", "[]", "null", b"\x00\xff binary",
            vframe(2, "exec.resume", {"pauseId": "nobody", "action": "continue"}, "r"),
            vframe(3, "exec.resume", {"pauseId": "nobody", "action": "warp"}, "r"),
            vframe(4, "mode.set", {"mode": "sideways"}), vframe(5, "hello.ack", ACK),
            vframe(6, "breakpoint.clear", {"matcher": {"kind": "tool", "name": "\x1b[2J\n== forged"}}),
            vframe(7, "node.started", {"nodeId": "x", "kind": "tool", "name": "x", "instanceId": "x"}),
        ]
        self.vseq = 7
        for j in junk:
            await ws.send(j)
        bogus = 0
        async for text in ws:
            env = self.note(text)
            if bogus == 3:
                # Last, a frame of another protocol version: the app closes (spec: gm != 1).
                await ws.send(vframe(8, "exec.resume", {"pauseId": "p", "action": "continue"}, gm=2))
                bogus += 1
            if env is not None and env["type"] == "exec.paused" and bogus < 3:
                # A bogus action first (the app refuses it and keeps the pause), then a real one.
                bogus += 1
                self.vseq += 1
                await ws.send(vframe(self.vseq, "exec.resume", {"pauseId": env["payload"]["pauseId"], "action": "warp"}, env["runId"]))
            await self.answer(ws, env)

    async def churn(self, ws: Any) -> None:
        await ws.close()


async def phase_connect(out: Path) -> None:
    viewer = HostileViewer()
    summary = out / "connect-summary.json"
    async with websockets.serve(viewer.handler, "127.0.0.1", 0, max_size=None, ping_interval=None) as server:
        port = server.sockets[0].getsockname()[1]
        started = time.monotonic()
        app = Child(out, "connect", ["--app-host", f"ws://127.0.0.1:{port}/ingest", str(summary)], wants_url=False)
        try:
            assert app.proc.stdout is not None and app.proc.stdin is not None
            line = await asyncio.wait_for(asyncio.to_thread(app.proc.stdout.readline), la.T_STEP)
            check(line.startswith(b"ready"), f"the app host did not finish its runs (gates answered: {viewer.answered}): {line!r}")
            viewer.freeze.set()
            app.proc.stdin.write(b"flood\n")
            app.proc.stdin.flush()
            line = await asyncio.wait_for(asyncio.to_thread(app.proc.stdout.readline), la.T_STEP)
            check(line.startswith(b"done "), f"the app host did not emit its flood: {line!r}")
            next_seq = int(line.split()[1])
            # Bounded: every frame must reach the viewer (live or replayed), with no 10 s without a
            # new one and within T_STEP. (A fixed 30 s failed 2 of 10 runs at a load average of
            # 12 here, the replay connection still reading: the phase then takes 50-57 s.)
            deadline, count = time.monotonic() + la.T_STEP, -1
            while not viewer.seqs.issuperset(range(next_seq)) and time.monotonic() < deadline:
                if len(viewer.seqs) != count:
                    count, stuck_at = len(viewer.seqs), time.monotonic() + 10
                elif time.monotonic() > stuck_at:
                    break
                await asyncio.sleep(0.1)
            # Read before the app closes: the 1013 must come from the flood, not from dispose. The app
            # logs it when the dropped socket's reader ends (its 1013 close is given 1 s, then the
            # socket is aborted), which may be after the replay on the next connection: bounded wait.
            line_by = time.monotonic() + 10
            while "the viewer stopped reading" not in (log_at_flood := (out / "connect.log").read_text("utf-8", "replace")):
                if time.monotonic() > line_by:
                    break
                await asyncio.sleep(0.1)
            peak = app.peak_kib()
            app.proc.stdin.write(b"close\n")
            app.proc.stdin.flush()
            await asyncio.wait_for(asyncio.to_thread(app.proc.wait), la.T_STEP)
        finally:
            viewer.done.set()
            code = app.stop()
        elapsed = time.monotonic() - started
    check(code == 0, f"app host exited {code}: {(out / 'connect.log').read_text()[-2000:]}")
    s = json.loads(summary.read_text())
    check(peak < APP_PEAK_MIB << 10, f"connect: peak RSS {peak >> 10} MiB over {APP_PEAK_MIB} MiB")
    missing = sorted(set(range(s["next_seq"])) - viewer.seqs)
    ranges = [(a, b) for a, b in zip([m for i, m in enumerate(missing) if i == 0 or missing[i - 1] != m - 1], [m for i, m in enumerate(missing) if i == len(missing) - 1 or missing[i + 1] != m + 1])]
    check(not missing, f"{len(missing)} frames of the app never reached the viewer (seqs {ranges[:5]}; {viewer.conns} connections, closes {viewer.closes})")
    check(sum(s["decisions"].values()) == 180, f"gates: {s['decisions']}")
    check(viewer.paused and viewer.paused == viewer.resumed, f"pauses without exec.resumed: {sorted(viewer.paused - viewer.resumed)[:5]}")
    check(s["rules"].get("breakpoint-limit") == 1, f"breakpoint-limit warnings: {s['rules']}")
    log = (out / "connect.log").read_text("utf-8", "replace")
    check("exceeded max_frame_bytes" in log, "no 1009 log line for the oversized frame")
    path = (
        f"{elapsed:.1f} s, {viewer.conns} connections, connection {viewer.frozen} stopped reading, frames read per connection "
        f"{viewer.per_conn}, after the freeze {viewer.after_freeze}, closes {viewer.closes}, warnings {dict(s['rules'])}"
    )
    check(
        "the viewer stopped reading" in log_at_flood,
        f"no 1013 log line for the viewer that stopped reading before the app closed ({path}); the app host's log:\n{log[-4000:]!r}",
    )
    check("\x1b" not in log, "a raw escape reached the app host's log")
    check(1009 in viewer.closes, f"closes seen by the viewer: {viewer.closes}")
    # The intended path: the connection that stopped reading was the app's (the write stall dropped
    # it, the line above), the app connected again after it (it opens a connection only once it has
    # dropped the one before) and the replay brought the flood there. Issue 40: a connection the app
    # had closed with 1002 used to carry the whole ring and the flood after the close.
    last = s["next_seq"] - 1
    check(
        viewer.frozen is not None and viewer.conns > viewer.frozen + 1 and viewer.read_on.get(last, -1) > viewer.frozen,
        f"the app did not reconnect after the connection that stopped reading and replay its flood there (seq {last} read on "
        f"connection {viewer.read_on.get(last)}; {path})",
    )
    print(
        f"connect: {elapsed:.1f} s, peak RSS {peak >> 10} MiB, {s['next_seq']} frames all at the viewer over {viewer.conns} connections "
        f"(connection {viewer.frozen} stopped reading, the flood replayed on {viewer.read_on[last]}; read per connection {viewer.per_conn}), "
        f"gates {dict(s['decisions'])} ({len(viewer.paused)} paused, {viewer.answered} answered by the viewer, every one resumed), "
        f"warnings {dict(s['rules'])}, closes {sorted(Counter(viewer.closes).items(), key=str)}"
    )


# -- soak ---------------------------------------------------------------------------------------


async def soak(out: Path, seconds: float) -> None:
    """``listen_abuse.soak_loops`` against a ``serve`` host."""
    summary = out / "soak-summary.json"
    host = Child(out, "soak-serve", ["--serve-host", str(summary)], wants_url=True)
    try:
        await la.soak_loops("soak (serve)", host.url, host.addr, host.proc.pid, seconds)
    finally:
        host.stop()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--phase", choices=["serve", "connect", "all"], default="all")
    ap.add_argument("--soak", type=float, metavar="SECONDS")
    ap.add_argument("--serve-host", metavar="SUMMARY")
    ap.add_argument("--app-host", nargs=2, metavar=("URL", "SUMMARY"))
    args = ap.parse_args()
    if args.serve_host:
        run_serve_host(Path(args.serve_host))
        return 0
    if args.app_host:
        run_app_host(args.app_host[0], Path(args.app_host[1]))
        return 0
    if not args.out:
        ap.error("--out is required")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    try:
        if args.soak:
            asyncio.run(soak(out, args.soak))
            return 0
        if args.phase in ("serve", "all"):
            asyncio.run(phase_serve(out))
        if args.phase in ("connect", "all"):
            asyncio.run(phase_connect(out))
    except Failed as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
