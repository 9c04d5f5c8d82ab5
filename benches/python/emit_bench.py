#!/usr/bin/env python3
"""Building and emitting events, as an adapter does: one ``node.token`` frame per token batch.

Each row is timed per event over the same stream of events (``--events``, made anew before
every round, so no ``str`` arrives with its UTF-8 form cached), the rows interleaved within each
round, best of ``--rounds``:

- ``orjson``: ``orjson.dumps`` of the envelope dict (no validation);
- ``wc_bytes`` / ``wc_str``: ``create_envelope(type, payload_dict, seq, run_id, ts)`` then
  ``serialize_envelope_bytes`` / ``serialize_envelope`` (validated);
- ``msgspec``: a ``msgspec.Struct`` envelope built and encoded;
- ``wc_typed``: ``gm.NodeToken(...)`` with ``gm.TokenDelta``s, ``create_envelope``, then
  ``serialize_envelope_bytes``;
- ``graphmind_ai_emit``: graphmind-ai 0.5.1's ``Session.emit`` (its redaction, budget,
  serialization and ring buffer; no viewer connected);
- ``wc_emit``: ``AppSession.emit`` (validation, seq, ring, serialization; no viewer connected).

Before timing, every frame the builders write is checked byte for byte against orjson's and
msgspec's text of the same envelope; a difference fails the run.

Usage: emit_bench.py [--events 20000] [--rounds 5] [--json OUT]
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable

import msgspec
import orjson

from wirecontract import graphmind as gm
from wirecontract.graphmind.session import AppSession

# graphmind-ai's package re-exports a `session()` function over its `session` module.
graphmind_session = importlib.import_module("graphmind.session")

TYPE = "node.token"
RUN_ID = "run_7f3a9c2e"
TS = 1_756_200_000_000
WORDS = ["The", " answer", " is", " forty", "-two", ",", " as", " computed", " by", " Deep", " Thought", ".", " Ça", " va", " 😀"]


class Delta(msgspec.Struct):
    t: str
    v: str


class NodeToken(msgspec.Struct, rename="camel"):
    node_id: str
    deltas: list[Delta]


class Envelope(msgspec.Struct, rename="camel"):
    gm: int
    seq: int
    ts: int
    run_id: str
    type: str
    payload: NodeToken


def batch(i: int) -> list[tuple[str, str]]:
    """Event i's token batch: one to three text deltas of one to three words, fresh strs."""
    return [("text", "".join(WORDS[(i * 7 + j * 3 + k) % len(WORDS)] for k in range(1 + (i + j) % 3))) for j in range(1 + i % 3)]


def payloads(n: int) -> list[dict[str, Any]]:
    return [{"nodeId": f"llm:{i % 5}", "deltas": [{"t": t, "v": v} for t, v in batch(i)]} for i in range(n)]


def envelopes(n: int) -> list[dict[str, Any]]:
    return [{"gm": 1, "seq": i, "ts": TS, "runId": RUN_ID, "type": TYPE, "payload": p} for i, p in enumerate(payloads(n))]


def check_agreement(n: int) -> None:
    """Every builder's frame equals orjson's and msgspec's text of the same envelope."""
    ce = gm.create_envelope
    for i, (p, e) in enumerate(zip(payloads(n), envelopes(n))):
        want = orjson.dumps(e)
        built = gm.serialize_envelope_bytes(ce(TYPE, p, i, RUN_ID, TS))
        typed = gm.NodeToken(node_id=p["nodeId"], deltas=[gm.TokenDelta(t=d["t"], v=d["v"]) for d in p["deltas"]])
        typed_frame = gm.serialize_envelope_bytes(ce(TYPE, typed, i, RUN_ID, TS))
        ms = msgspec.json.encode(Envelope(1, i, TS, RUN_ID, TYPE, NodeToken(p["nodeId"], [Delta(d["t"], d["v"]) for d in p["deltas"]])))
        if not (built == want == typed_frame == ms and gm.serialize_envelope(ce(TYPE, p, i, RUN_ID, TS)) == want.decode()):
            sys.exit(f"event {i}: frames differ:\n  orjson  {want!r}\n  dict    {built!r}\n  typed   {typed_frame!r}\n  msgspec {ms!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=20_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", type=Path, help="write the results here")
    a = ap.parse_args()
    n = a.events
    check_agreement(min(n, 2_000))

    def orjson_row(envs: list[dict[str, Any]]) -> None:
        dumps = orjson.dumps
        for e in envs:
            dumps(e)

    def wc_bytes_row(ps: list[dict[str, Any]]) -> None:
        ce, ser = gm.create_envelope, gm.serialize_envelope_bytes
        for i, p in enumerate(ps):
            ser(ce(TYPE, p, i, RUN_ID, TS))

    def wc_str_row(ps: list[dict[str, Any]]) -> None:
        ce, ser = gm.create_envelope, gm.serialize_envelope
        for i, p in enumerate(ps):
            ser(ce(TYPE, p, i, RUN_ID, TS))

    def msgspec_row(bs: list[list[tuple[str, str]]]) -> None:
        encode = msgspec.json.Encoder().encode
        for i, b in enumerate(bs):
            encode(Envelope(1, i, TS, RUN_ID, TYPE, NodeToken(f"llm:{i % 5}", [Delta(t, v) for t, v in b])))

    def wc_typed_row(bs: list[list[tuple[str, str]]]) -> None:
        ce, ser, nt, td = gm.create_envelope, gm.serialize_envelope_bytes, gm.NodeToken, gm.TokenDelta
        for i, b in enumerate(bs):
            ser(ce(TYPE, nt(node_id=f"llm:{i % 5}", deltas=[td(t=t, v=v) for t, v in b]), i, RUN_ID, TS))

    ref_session = graphmind_session.Session(url="ws://127.0.0.1:9/ingest", enabled=True, logger=lambda *_: None)
    core = AppSession()

    def graphmind_ai_row(ps: list[dict[str, Any]]) -> None:
        emit = ref_session.emit
        for p in ps:
            emit(TYPE, p)

    def wc_emit_row(ps: list[dict[str, Any]]) -> None:
        emit = core.emit
        for p in ps:
            emit(TYPE, p, 1_000.0)
        core.poll_actions()

    rows: dict[str, tuple[Callable[[], Any], Callable[[Any], None]]] = {
        "orjson": (lambda: envelopes(n), orjson_row),
        "wc_bytes": (lambda: payloads(n), wc_bytes_row),
        "wc_str": (lambda: payloads(n), wc_str_row),
        "msgspec": (lambda: [batch(i) for i in range(n)], msgspec_row),
        "wc_typed": (lambda: [batch(i) for i in range(n)], wc_typed_row),
        "graphmind_ai_emit": (lambda: payloads(n), graphmind_ai_row),
        "wc_emit": (lambda: payloads(n), wc_emit_row),
    }
    best = {name: float("inf") for name in rows}
    for _ in range(a.rounds):
        for name, (make, run) in rows.items():
            data = make()
            gc.collect()
            t = time.perf_counter()
            run(data)
            best[name] = min(best[name], time.perf_counter() - t)
    ref_session.dispose()
    results = {"events": n, "rounds": a.rounds, "type": TYPE, "ns_per_event": {k: v / n * 1e9 for k, v in best.items()}}
    out = json.dumps(results, indent=1)
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(out + "\n")
    print(out)


if __name__ == "__main__":
    main()
