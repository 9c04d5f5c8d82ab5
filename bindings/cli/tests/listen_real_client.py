"""The real GraphMind Python client (``graphmind-ai==0.5.1``) against ``wirecontract listen``.

Each scenario starts the listener on a free loopback port with its own flags and a
``--record`` file, drives a small agent written against the client's public API (a run, an
LLM node streaming tokens through ``instrument_openai`` on a fake OpenAI client, tools with
their before/after/error gates, spans), waits for the listener to exit by itself
(``--exit-after-runs 1``), then checks the recording:

- every frame, both directions, parses ``ok`` and the record's ``expect``/``type`` agree
  with the frame;
- per connection and per run, app seqs strictly increase; over first-seen frames, per run
  seqs strictly increase and ``(runId, seq)`` is unique;
- a frame marked ``duplicate`` repeats an earlier one byte for byte; ``replayed`` means its
  seq is below its connection's hello seq;
- every first-seen ``exec.paused`` is followed by exactly one ``exec.resumed`` for its
  pause id; the listener resumes each pause at most once, and never a replayed one;
- the listener's summary counts each frame once, duplicates apart;

plus what each scenario is about (continue, inject, abort, step mode, reconnect with
replay, fail-open while held, answers typed at the listener's terminal prompt). Reconnects
go through a TCP proxy in this script that can drop the connection, so one listener process
sees both connections; the prompt is answered through a pseudo-terminal.

Usage: python listen_real_client.py --cli PATH/TO/wirecontract --out DIR [--only NAME]
Every wait is bounded; the script kills the listeners it started, also on failure.
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import graphmind
from graphmind import env as graphmind_env

CLIENT_VERSION = "0.5.1"
T_START = 10.0  # listener prints its URL
T_READY = 10.0  # client attaches
T_AGENT = 20.0  # the scripted agent finishes
T_EXIT = 10.0  # listener exits after the run
T_STEP = 10.0  # one driver-side wait inside a scenario


class Failed(AssertionError):
    pass


def check(cond: bool, what: str) -> None:
    if not cond:
        raise Failed(what)


def wait_for(cond: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise Failed(f"timed out waiting for {what}")
        time.sleep(0.005)


# -- the listener ---------------------------------------------------------------------------


class Listener:
    """``wirecontract listen`` as a child process; stdout lines are collected as they come."""

    def __init__(self, cli: str, record: Path, flags: list[str], answers: list[str] | None = None) -> None:
        self.record = record
        self.lines: list[str] = []
        self.prompts: list[str] = []
        self._lock = threading.Lock()
        self._first: queue.Queue[str] = queue.Queue()
        # With `answers`, standard input and error are a pseudo-terminal, so the listener asks
        # at each pause; a thread answers each prompt with the next answer.
        terminal = pty.openpty() if answers is not None else None
        self.proc = subprocess.Popen(
            [cli, "listen", "--listen", "127.0.0.1:0", "--record", str(record), "--exit-after-runs", "1", *flags],
            stdin=terminal[1] if terminal else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=terminal[1] if terminal else subprocess.STDOUT,
            text=True,
            encoding="utf-8",
        )
        if terminal:
            os.close(terminal[1])
            threading.Thread(target=self._answer, args=(terminal[0], list(answers or [])), daemon=True).start()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        try:
            first = self._first.get(timeout=T_START)
        except queue.Empty:
            self.kill()
            raise Failed("listener printed nothing") from None
        check(first.startswith("listening on ws://"), f"first line: {first!r}")
        self.url = first.removeprefix("listening on ")
        self.port = int(self.url.rsplit(":", 1)[1].split("/")[0])

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            with self._lock:
                first = not self.lines
                self.lines.append(line)
            if first:
                self._first.put(line)

    def _answer(self, fd: int, answers: list[str]) -> None:
        pending = ""
        try:
            while data := os.read(fd, 4096):
                pending += data.decode("utf-8", "replace")
                while "inject? " in pending:
                    prompt, pending = pending.split("inject? ", 1)
                    with self._lock:
                        self.prompts.append(prompt.strip())
                    os.write(fd, ((answers.pop(0) if answers else "c") + "\n").encode())
        except OSError:
            pass  # the listener exited: the terminal is gone
        finally:
            os.close(fd)

    def saw(self, text: str) -> bool:
        with self._lock:
            return any(text in line for line in self.lines)

    def wait_exit(self) -> int:
        try:
            code = self.proc.wait(timeout=T_EXIT)
        except subprocess.TimeoutExpired:
            self.kill()
            raise Failed("listener did not exit after the run") from None
        # The process is gone, but its last lines may still be in the pipe: read them all.
        self._reader.join(T_EXIT)
        check(not self._reader.is_alive(), "listener output did not end")
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=5)

    def output(self) -> str:
        with self._lock:
            return "\n".join(self.lines)


class Proxy:
    """A loopback TCP relay between the client and the listener that can go down (drop every
    relayed connection and refuse new ones, like a network outage) and come back up, while the
    listener keeps running. Refusing matters: the client may retry at once, and the scenario
    decides when it gets through."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.connections = 0
        self.down = False
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if self.down:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            for s in (client, upstream):  # no Nagle delay on small frames
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self.connections += 1
                self._socks += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def go_down(self) -> None:
        self.down = True
        self.drop()

    def come_up(self) -> None:
        self.down = False

    def drop(self) -> None:
        with self._lock:
            socks, self._socks = self._socks, []
        for s in socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def close(self) -> None:
        self.server.close()
        self.drop()

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ingest"


# -- the agent's pieces: a fake OpenAI client and tools ------------------------------------


def _chunk(text: str | None = None, finish: str | None = None, usage: dict[str, int] | None = None) -> Any:
    delta = SimpleNamespace(content=text, tool_calls=None)
    choices = [SimpleNamespace(delta=delta, finish_reason=finish)] if usage is None else []
    return SimpleNamespace(choices=choices, usage=SimpleNamespace(**usage) if usage else None)


class FakeCompletions:
    """``chat.completions.create`` with a canned answer: streamed as three text chunks and a
    usage chunk with ``stream=True``, one response object otherwise."""

    def __init__(self) -> None:
        self.calls = 0

    def create(self, **kwargs: Any) -> Any:
        self.calls += 1
        if kwargs.get("stream"):
            return iter([_chunk("It is "), _chunk("sunny "), _chunk("in Paris.", finish="stop"), _chunk(usage={"prompt_tokens": 12, "completion_tokens": 5})])
        message = SimpleNamespace(content="Call get_weather.", tool_calls=None, parsed=None)
        return SimpleNamespace(
            choices=[SimpleNamespace(message=message, finish_reason="stop")],
            usage=SimpleNamespace(prompt_tokens=9, completion_tokens=3),
        )


def fake_openai() -> Any:
    completions = FakeCompletions()
    return SimpleNamespace(chat=SimpleNamespace(completions=completions), _completions=completions)


MESSAGES = [{"role": "user", "content": "Weather in Paris?"}]


def stream_llm(llm: Any) -> str:
    return "".join(c.choices[0].delta.content for c in llm.chat.completions.create(model="gpt-fake", messages=MESSAGES, stream=True) if c.choices)


class Scenario:
    """One listener, one client, one agent run; ``agent`` runs in a worker thread and may use
    ``self.signal``/``self.await_signal`` to hand control to the driver between steps."""

    name = ""
    flags: list[str] = []
    proxied = False
    #: Answers typed at the listener's terminal prompt; `None`: no terminal.
    answers: list[str] | None = None

    def __init__(self) -> None:
        self.client: Any = None
        self.llm: Any = None
        self.result: dict[str, Any] = {"tool_calls": Counter()}
        self._events: dict[str, threading.Event] = defaultdict(threading.Event)

    def signal(self, name: str) -> None:
        self._events[name].set()

    def await_signal(self, name: str) -> None:
        if not self._events[name].wait(T_STEP):
            raise Failed(f"signal {name} never came")

    def make_tools(self) -> dict[str, Any]:
        calls = self.result["tool_calls"]

        @self.client.tool
        def get_weather(city: str) -> dict[str, Any]:
            calls["get_weather"] += 1
            return {"city": city, "tempC": 21.5}

        @self.client.tool
        def divide(a: int, b: int) -> float:
            calls["divide"] += 1
            return a / b

        return {"get_weather": get_weather, "divide": divide}

    def agent(self, tools: dict[str, Any]) -> None:
        raise NotImplementedError

    def drive(self, listener: Listener, proxy: Proxy | None) -> None:
        """Driver-side steps while the agent runs (reconnects)."""

    def expect(self, rec: Recording) -> None:
        raise NotImplementedError


# -- the recording and the checks every scenario gets -------------------------------------


class Recording:
    def __init__(self, path: Path, listener_output: str) -> None:
        self.output = listener_output
        self.rows: list[dict[str, Any]] = []
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            row = json.loads(line)
            row["frame_json"] = json.loads(row["frame"])
            row["n"] = n
            self.rows.append(row)

    def app(self, first_seen: bool = False) -> list[dict[str, Any]]:
        return [r for r in self.rows if r["dir"] == "app->viewer" and not (first_seen and r.get("duplicate"))]

    def viewer(self) -> list[dict[str, Any]]:
        return [r for r in self.rows if r["dir"] == "viewer->app"]

    def events(self, type_: str | None = None) -> list[dict[str, Any]]:
        """First-seen app frames of a run (not ``*``), optionally of one type."""
        return [r for r in self.app(first_seen=True) if r["frame_json"]["runId"] != "*" and (type_ is None or r["type"] == type_)]

    def payloads(self, type_: str) -> list[dict[str, Any]]:
        return [r["frame_json"]["payload"] for r in self.events(type_)]

    def check_common(self) -> None:
        rows = self.rows
        check(bool(rows), "empty recording")
        for r in rows:
            check(r["dir"] in ("app->viewer", "viewer->app"), f"dir of line {r['n']}")
            check(r["expect"] == "ok", f"line {r['n']} is {r['expect']}: {r['frame']}")
            check(r["type"] == r["frame_json"]["type"], f"type of line {r['n']}")
            check(isinstance(r["conn"], int) and r["conn"] >= 1, f"conn of line {r['n']}")
        # Handshake: one ack per hello, on its connection, right after it.
        for i, r in enumerate(rows):
            if r["type"] == "hello":
                nxt = next((x for x in rows[i + 1 :] if x["conn"] == r["conn"] and x["dir"] == "viewer->app"), None)
                check(nxt is not None and nxt["type"] == "hello.ack", f"hello on line {r['n']} has no ack")
                check(r["frame_json"]["payload"]["versions"] == {"protocol": 1, "client": CLIENT_VERSION}, "client version")
        # Seqs: per connection and run, strictly increasing; hello seqs mark replays.
        hello_seq: dict[int, int] = {}
        last: dict[tuple[int, str], int] = {}
        for r in self.app():
            env = r["frame_json"]
            if env["type"] == "hello":
                hello_seq[r["conn"]] = env["seq"]
                continue
            key = (r["conn"], env["runId"])
            check(env["seq"] > last.get(key, -1), f"seq not increasing on conn {r['conn']} run {env['runId']}: line {r['n']}")
            last[key] = env["seq"]
            check(bool(r.get("replayed")) == (env["seq"] < hello_seq[r["conn"]]), f"replayed flag of line {r['n']}")
        # First sightings: unique (runId, seq), increasing per run; duplicates repeat them exactly.
        first: dict[tuple[str, int], str] = {}
        per_run: dict[str, int] = {}
        for r in self.app():
            env = r["frame_json"]
            if env["runId"] == "*":
                continue
            key = (env["runId"], env["seq"])
            if r.get("duplicate"):
                check(key in first, f"line {r['n']} is marked duplicate but was not seen")
                check(first[key] == r["frame"], f"replayed frame differs from its first sending: line {r['n']}")
                continue
            check(key not in first, f"line {r['n']} repeats {key} but is not marked duplicate")
            first[key] = r["frame"]
            check(env["seq"] > per_run.get(env["runId"], -1), f"first-seen seq not increasing in run {env['runId']}: line {r['n']}")
            per_run[env["runId"]] = env["seq"]
        # Pauses: each live exec.paused gets exactly one exec.resumed, after it.
        paused = {p["pauseId"] for p in self.payloads("exec.paused")}
        resumed = Counter(p["pauseId"] for p in self.payloads("exec.resumed"))
        for pid in paused:
            check(resumed[pid] == 1, f"pause {pid} has {resumed[pid]} exec.resumed")
        check(set(resumed) <= paused, f"exec.resumed without exec.paused: {set(resumed) - paused}")
        order = {(r["type"], r["frame_json"]["payload"].get("pauseId")): r["n"] for r in self.events() if r["type"] in ("exec.paused", "exec.resumed")}
        for pid in paused:
            check(order[("exec.paused", pid)] < order[("exec.resumed", pid)], f"pause {pid} resumed before it paused")
        # The listener resumes each pause at most once, only live ones, on their connection.
        live = {r["frame_json"]["payload"]["pauseId"]: r["conn"] for r in self.events("exec.paused") if not r.get("replayed")}
        resumes = [(r["frame_json"]["payload"]["pauseId"], r["conn"]) for r in self.viewer() if r["type"] == "exec.resume"]
        check(len({p for p, _ in resumes}) == len(resumes), f"a pause resumed twice: {resumes}")
        for pid, conn in resumes:
            check(live.get(pid) == conn, f"resume of {pid} on conn {conn}, paused live on {live.get(pid)}")
        # The listener's own count: every first-seen frame once, duplicates apart.
        stored = len(self.events())
        dups = sum(1 for r in self.app() if r.get("duplicate"))
        check(f"{stored} frame(s) stored, {dups} duplicate(s) ignored" in self.output, f"listener summary (want {stored} stored, {dups} duplicates)")
        # The run tree lists each node instance once.
        started = len(self.events("node.started"))
        tree = [line for line in self.output.splitlines() if line.lstrip("│ ").startswith(("├─ ", "└─ "))]
        check(len(tree) == started, f"run tree has {len(tree)} nodes, {started} node.started")

    def pauses(self) -> list[tuple[str, str, str | None]]:
        """``(nodeId, point, action)`` of every pause, in order."""
        actions = {p["pauseId"]: p["action"] for p in self.payloads("exec.resumed")}
        return [(p["nodeId"], p["point"], actions.get(p["pauseId"])) for p in self.payloads("exec.paused")]

    def finished(self, node_id: str) -> dict[str, Any]:
        found = [p for p in self.payloads("node.finished") if p["nodeId"] == node_id]
        check(len(found) == 1, f"{len(found)} node.finished for {node_id}")
        return found[0]


# -- scenarios ---------------------------------------------------------------------------


class Continue(Scenario):
    """Tool gates before and on error, continued; an LLM node streaming tokens."""

    name = "continue"
    flags = ["--break", "tool", "--break", "@error", "--on-pause", "continue"]

    def agent(self, tools: dict[str, Any]) -> None:
        with self.client.run("continue-demo"):
            self.result["answer"] = stream_llm(self.llm)
            self.result["weather"] = tools["get_weather"]("Paris")
            try:
                tools["divide"](1, 0)
            except ZeroDivisionError:
                self.result["divide_error"] = True

    def expect(self, rec: Recording) -> None:
        check(self.result["answer"] == "It is sunny in Paris.", "streamed answer")
        check(self.result["weather"] == {"city": "Paris", "tempC": 21.5}, "tool result")
        check(self.result.get("divide_error") is True, "the original error is rethrown after continue")
        check(rec.pauses() == [("tool:get_weather", "before", "continue"), ("tool:divide", "before", "continue"), ("tool:divide", "error", "continue")], f"pauses {rec.pauses()}")
        tokens = [d for p in rec.payloads("node.token") for d in p["deltas"]]
        check("".join(d["v"] for d in tokens) == "It is sunny in Paris." and {d["t"] for d in tokens} == {"text"}, f"tokens {tokens}")
        check(rec.finished("llm:step")["usage"] == {"inputTokens": 12, "outputTokens": 5}, "llm usage")
        check(rec.finished("tool:divide")["status"] == "error", "divide status")
        check(rec.payloads("run.finished") == [{"status": "ok"}], "run status")
        check(len(rec.payloads("node.error")) == 1, "one node.error")
        check(len({r["conn"] for r in rec.rows}) == 1, "one connection")


class Inject(Scenario):
    """Inject before a tool (its body never runs) and after an LLM call (its result replaced)."""

    name = "inject"
    VALUE = {"injected": True, "by": "wirecontract listen"}
    flags = ["--break", "tool:get_weather", "--break", "llm:step@after", "--on-pause", "inject=" + json.dumps(VALUE)]

    def agent(self, tools: dict[str, Any]) -> None:
        with self.client.run("inject-demo"):
            self.result["llm"] = self.llm.chat.completions.create(model="gpt-fake", messages=MESSAGES)
            self.result["weather"] = tools["get_weather"]("Paris")

    def expect(self, rec: Recording) -> None:
        check(self.result["llm"] == self.VALUE, f"llm result {self.result['llm']!r}")
        check(self.llm._completions.calls == 1, "the model was called once")
        check(self.result["weather"] == self.VALUE, "tool result")
        check(self.result["tool_calls"]["get_weather"] == 0, "the tool body did not run")
        check(rec.pauses() == [("llm:step", "after", "inject"), ("tool:get_weather", "before", "inject")], f"pauses {rec.pauses()}")
        resumes = [r["frame_json"]["payload"] for r in rec.viewer() if r["type"] == "exec.resume"]
        check(all(p["action"] == "inject" and p["output"] == self.VALUE for p in resumes) and len(resumes) == 2, f"resumes {resumes}")
        check(all("output" not in p for p in rec.payloads("exec.resumed")), "exec.resumed never echoes the output")
        check(rec.finished("tool:get_weather")["output"] == self.VALUE, "tool output on the wire")


class Abort(Scenario):
    """Abort at a tool's before gate: the run ends aborted."""

    name = "abort"
    flags = ["--break", "tool", "--on-pause", "abort"]

    def agent(self, tools: dict[str, Any]) -> None:
        try:
            with self.client.run("abort-demo"):
                self.result["answer"] = stream_llm(self.llm)
                tools["get_weather"]("Paris")
                self.result["after_abort"] = True
        except BaseException as exc:  # the abort error reaches the caller
            self.result["aborted"] = graphmind.is_abort_error(exc)

    def expect(self, rec: Recording) -> None:
        check(self.result.get("aborted") is True and "after_abort" not in self.result, f"agent outcome {self.result}")
        check(self.result["tool_calls"]["get_weather"] == 0, "the tool body did not run")
        check(rec.pauses() == [("tool:get_weather", "before", "abort")], f"pauses {rec.pauses()}")
        check(rec.finished("tool:get_weather")["status"] == "aborted", "tool status")
        check(rec.payloads("run.finished")[0]["status"] == "aborted", "run status")


class Step(Scenario):
    """Step mode: every node pauses before (and on error), never after."""

    name = "step"
    flags = ["--step", "--break", "none", "--on-pause", "continue"]

    def agent(self, tools: dict[str, Any]) -> None:
        with self.client.run("step-demo"):
            with self.client.span("plan", kind="chain"):
                self.result["answer"] = stream_llm(self.llm)
                tools["get_weather"]("Paris")
            try:
                tools["divide"](1, 0)
            except ZeroDivisionError:
                pass

    def expect(self, rec: Recording) -> None:
        want = [
            ("chain:plan", "before", "continue"),
            ("llm:step", "before", "continue"),
            ("tool:get_weather", "before", "continue"),
            ("tool:divide", "before", "continue"),
            ("tool:divide", "error", "continue"),
        ]
        check(rec.pauses() == want, f"pauses {rec.pauses()}")
        ack = next(r for r in rec.viewer() if r["type"] == "hello.ack")["frame_json"]["payload"]
        check(ack["mode"] == "step" and ack["breakpoints"] == [], f"ack {ack}")
        check(self.result["answer"] == "It is sunny in Paris.", "streamed answer")


class Reconnect(Scenario):
    """A dropped connection between two tools: the client buffers while detached, reconnects
    with its resume token and replays its whole ring; the listener counts each frame once."""

    name = "reconnect"
    flags = ["--break", "tool:step_three", "--on-pause", "continue"]
    proxied = True

    def agent(self, tools: dict[str, Any]) -> None:
        @self.client.tool
        def step_one() -> str:
            return "one"

        @self.client.tool
        def step_two() -> str:
            return "two"

        @self.client.tool
        def step_three() -> str:
            return "three"

        with self.client.run("reconnect-demo"):
            self.result["answer"] = stream_llm(self.llm)
            step_one()
            self.signal("one-done")
            self.await_signal("dropped")
            step_two()  # detached: buffered, not sent; its gate passes (fail-open)
            self.signal("two-done")
            self.await_signal("reattached")
            step_three()  # paused live on the new connection

    def drive(self, listener: Listener, proxy: Proxy | None) -> None:
        assert proxy is not None
        self.await_signal("one-done")
        # Drop only once step_one's node.finished is through, so what was delivered live
        # and what is buffered dark is fixed, not a race with the client's writer.
        wait_for(lambda: listener.saw("node=tool:step_one status=ok"), T_STEP, "step_one to reach the listener")
        proxy.go_down()
        wait_for(lambda: not self.client.attached, T_STEP, "the client to detach")
        self.signal("dropped")
        self.await_signal("two-done")
        proxy.come_up()
        check(self.client.ready(T_READY), "the client reattaches")
        self.signal("reattached")

    def expect(self, rec: Recording) -> None:
        conns = sorted({r["conn"] for r in rec.rows})
        check(conns == [1, 2], f"connections {conns}")
        hellos = [r["frame_json"] for r in rec.app() if r["type"] == "hello"]
        acks = [r["frame_json"] for r in rec.viewer() if r["type"] == "hello.ack"]
        token = acks[0]["payload"]["sessionToken"]
        check("resumeToken" not in hellos[0]["payload"] and hellos[1]["payload"].get("resumeToken") == token, "the session token is carried")
        check(acks[1]["payload"]["sessionToken"] == token, "the token is reused")
        first_conn = [r["frame"] for r in rec.app() if r["conn"] == 1 and r["type"] != "hello"]
        replay_dups = [r["frame"] for r in rec.app() if r["conn"] == 2 and r.get("duplicate")]
        check(replay_dups == first_conn, "conn 2 replays everything conn 1 delivered, byte for byte, and only that is a duplicate")
        new_replayed = [(r["type"], r["frame_json"]["payload"].get("nodeId")) for r in rec.app() if r.get("replayed") and not r.get("duplicate")]
        check(new_replayed == [("node.started", "tool:step_two"), ("node.finished", "tool:step_two")], f"replayed new frames {new_replayed}")
        check(hellos[1]["seq"] > max(r["frame_json"]["seq"] for r in rec.app() if r.get("replayed")), "the hello seq is above every replayed seq")
        check(rec.pauses() == [("tool:step_three", "before", "continue")], f"pauses {rec.pauses()}")
        check([r["conn"] for r in rec.viewer() if r["type"] == "exec.resume"] == [2], "resumed on the new connection")
        steps = [p["nodeId"] for p in rec.payloads("node.finished")]
        check(steps == ["llm:step", "tool:step_one", "tool:step_two", "tool:step_three", "agent:reconnect-demo"], f"finished {steps}")


class FailOpen(Scenario):
    """The connection drops while a gate is held (the listener holds, never resumes): the
    client releases it with continue on its own, and the exec.resumed that says so reaches the
    listener only in the replay after reconnecting, with the rest of the run."""

    name = "fail-open"
    flags = ["--break", "tool:get_weather", "--on-pause", "hold"]
    proxied = True

    def agent(self, tools: dict[str, Any]) -> None:
        with self.client.run("fail-open-demo"):
            self.result["weather"] = tools["get_weather"]("Paris")  # held until the drop
            self.result["answer"] = stream_llm(self.llm)  # detached: buffered

    def drive(self, listener: Listener, proxy: Proxy | None) -> None:
        assert proxy is not None
        wait_for(lambda: self.client.stats().held_gates == 1, T_STEP, "the gate to be held")
        wait_for(lambda: listener.saw(": holding"), T_STEP, "the listener to hold the pause")
        proxy.go_down()
        wait_for(lambda: "weather" in self.result and "answer" in self.result, T_STEP, "the agent to finish detached")
        proxy.come_up()
        check(self.client.ready(T_READY), "the client reattaches")

    def expect(self, rec: Recording) -> None:
        check(self.result["tool_calls"]["get_weather"] == 1, "the released tool ran")
        check(rec.pauses() == [("tool:get_weather", "before", "continue")], f"pauses {rec.pauses()}")
        check(not [r for r in rec.viewer() if r["type"] == "exec.resume"], "the listener never resumed")
        paused = rec.events("exec.paused")[0]
        resumed = rec.events("exec.resumed")[0]
        check(paused["conn"] == 1 and not paused.get("replayed"), "paused live on conn 1")
        check(resumed["conn"] == 2 and resumed.get("replayed"), "exec.resumed arrives in the replay on conn 2")
        check(rec.events("run.finished")[0].get("replayed") is True, "the whole run finished while detached")
        check("released: [c1] closed, the app continued on its own (fail-open)" in rec.output, "the listener marked the pause released")
        check("settled: continue" in rec.output and "0 pause(s) still open" in rec.output, "the replayed exec.resumed settled it")


class Prompt(Scenario):
    """No --on-pause and a terminal: the listener asks at each pause, and the answers typed
    there (inject, retry, continue) are what the client applies."""

    name = "prompt"
    flags = ["--break", "tool", "--break", "tool:lookup@after"]
    answers = ['i {"from": "terminal"}', "r", "c"]

    def agent(self, tools: dict[str, Any]) -> None:
        calls = self.result["tool_calls"]

        @self.client.tool
        def lookup(key: str) -> str:
            calls["lookup"] += 1
            return key.upper()

        with self.client.run("prompt-demo"):
            self.result["weather"] = tools["get_weather"]("Paris")
            self.result["lookup"] = lookup("k")

    def expect(self, rec: Recording) -> None:
        want = [("tool:get_weather", "before", "inject"), ("tool:lookup", "before", "retry"), ("tool:lookup", "after", "continue")]
        check(rec.pauses() == want, f"pauses {rec.pauses()}")
        check(self.result["weather"] == {"from": "terminal"} and self.result["tool_calls"]["get_weather"] == 0, "the typed JSON was injected")
        check(self.result["lookup"] == "K" and self.result["tool_calls"]["lookup"] == 1, "retry before the body is continue; the body ran once")


SCENARIOS: list[type[Scenario]] = [Continue, Inject, Abort, Step, Reconnect, FailOpen, Prompt]


# -- running ------------------------------------------------------------------------------


def clean_environment() -> None:
    """No inherited kill switch, redaction, loop-guard or production flag may change what the
    client sends."""
    for name in list(os.environ):
        if name.startswith("GRAPHMIND"):
            del os.environ[name]
    for name in graphmind_env.ENV_VARS:
        os.environ.pop(name, None)


def run_scenario(cls: type[Scenario], cli: str, out: Path) -> float:
    started = time.monotonic()
    sc = cls()
    record = out / f"{sc.name}.ndjson"
    listener = Listener(cli, record, sc.flags, sc.answers)
    proxy = Proxy(listener.port) if sc.proxied else None
    warnings: list[str] = []
    try:
        sc.client = graphmind.GraphMind(
            app=f"listen-{sc.name}",
            url=proxy.url if proxy else listener.url,
            enabled=True,
            connect_timeout=3.0,
            handshake_timeout=3.0,
            loop_guard=False,
            logger=warnings.append,
        )
        sc.llm = sc.client.instrument_openai(fake_openai())
        try:
            check(sc.client.ready(T_READY), "the client attaches")
            tools = sc.make_tools()
            errors: list[str] = []

            def agent() -> None:
                try:
                    sc.agent(tools)
                except BaseException:
                    errors.append(traceback.format_exc())

            worker = threading.Thread(target=agent, name=f"agent-{sc.name}", daemon=True)
            worker.start()
            sc.drive(listener, proxy)
            worker.join(T_AGENT)
            check(not worker.is_alive(), "the agent did not finish")
            check(not errors, "agent failed:\n" + "".join(errors))
            check(listener.wait_exit() == 0, "listener exit code")
        finally:
            sc.client.dispose()
        (out / f"{sc.name}.log").write_text(listener.output() + "\n", encoding="utf-8")
        rec = Recording(record, listener.output())
        rec.check_common()
        sc.expect(rec)
        # Expected: a lost connection (the proxy's drop, or the listener closing when it
        # exits) and, after the listener is gone, a failed reconnect (ready() leaves the
        # client's reconnect kick set, so it retries at once; through the proxy the failure
        # is an empty HTTP answer). Anything else is a finding; a failed connect *during* a
        # scenario fails ready() or the recording checks anyway.
        expected = ("viewer connection lost", "failed to open WebSocket")
        unexpected = [w for w in warnings if not any(e in w for e in expected)]
        check(not unexpected, f"client warnings: {unexpected}")
        if sc.answers is not None:
            check(len(listener.prompts) == len(rec.pauses()), f"one prompt per pause: {listener.prompts}")
    except BaseException:
        sys.stderr.write(f"--- listener output ({sc.name}) ---\n{listener.output()}\n--- client warnings ---\n" + "\n".join(warnings) + "\n")
        if record.exists():
            sys.stderr.write(f"--- record {record} ---\n{record.read_text(encoding='utf-8')}\n")
        raise
    finally:
        if proxy:
            proxy.close()
        listener.kill()
    return time.monotonic() - started


def main(argv: list[str]) -> int:
    # SIGTERM (the step's timeout) unwinds like an exception, so every `finally` kills its
    # listener instead of leaving it behind.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--cli", required=True, help="the wirecontract binary")
    parser.add_argument("--out", required=True, type=Path, help="directory for records and listener logs")
    parser.add_argument("--only", action="append", default=[], help="run only this scenario (repeatable)")
    args = parser.parse_args(argv)
    check(graphmind.__version__ == CLIENT_VERSION, f"graphmind-ai {graphmind.__version__}, want {CLIENT_VERSION}")
    clean_environment()
    args.out.mkdir(parents=True, exist_ok=True)
    chosen = [s for s in SCENARIOS if not args.only or s.name in args.only]
    check(bool(chosen), f"no scenario named {args.only}")
    for cls in chosen:
        try:
            took = run_scenario(cls, args.cli, args.out)
        except Failed as e:
            print(f"FAILED {cls.name}: {e}", flush=True)
            return 1
        print(f"ok     {cls.name} ({took:.2f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
