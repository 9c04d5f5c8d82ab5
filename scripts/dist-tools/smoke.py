"""The smoke suite of an installed wirecontract wheel, run where the wheel's platform runs (under
qemu for aarch64 and for x86-64 without AVX2), with only the standard library and the wheel:

    PYTHONPATH=<installed wheel> WIRECONTRACT_SHARED=<shared> python smoke.py REPO

1. Every shared GraphMind and Graphorin conformance vector gives its expected verdict (and, for an
   accepted frame, its type or variant).
2. One frame of each GraphMind message type (the payload of the first accepted vector of that
   type) is built with create_envelope, serialized and parsed back to an equal envelope; each
   accepted Graphorin vector is serialized and parsed back to an equal message.
3. Every shared shrink vector gives its expected text and tier.
4. Strings made by the UTF-32 route's size range (64 bytes to 64 KiB, non-ASCII: one, two,
   three and four-byte characters) and around its bounds come back equal to json.loads' strings.
   Which route ran is the processor's choice (AVX-512/AVX2 on x86-64, the portable fallback
   elsewhere): the caller runs this on a processor without AVX2 (an emulated one: /proc/cpuinfo
   under qemu user-mode is the host's, so the suite cannot ask) to test the fallback.

Prints one line per section and exits 1 at the first failure, naming it.
"""

import json
import os
import platform
import sys
import time
from pathlib import Path

from wirecontract import graphmind as gm
from wirecontract import graphorin as go

SHARED = Path(os.environ["WIRECONTRACT_SHARED"])


def jsonl(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def fail(msg):
    print(f"smoke: FAILED: {msg}")
    sys.exit(1)


def graphmind_vectors():
    vectors = jsonl(SHARED / "vectors/graphmind/conformance.jsonl")
    for v in vectors:
        r = gm.parse_envelope_json(v["frame"])
        if r.kind != v["expect"]:
            fail(f"graphmind {v['name']}: verdict {r.kind}, expected {v['expect']}")
        if v["expect"] in ("ok", "unknown-type") and r.envelope.type != v["type"]:
            fail(f"graphmind {v['name']}: type {r.envelope.type}, expected {v['type']}")
    print(f"smoke: {len(vectors)} GraphMind vectors give their verdicts")
    return vectors


def graphorin_vectors():
    vectors = jsonl(SHARED / "vectors/graphorin/conformance.jsonl")
    variants = set()
    for v in vectors:
        parse = go.parse_server_message if v["direction"] == "server" else go.parse_client_message
        try:
            msg = parse(v["frame"])
        except go.ParseError:
            if v["expect"] == "ok":
                fail(f"graphorin {v['name']}: refused, expected ok")
            continue
        if v["expect"] != "ok":
            fail(f"graphorin {v['name']}: accepted, expected {v['expect']}")
        if go.variant(msg) != v["variant"]:
            fail(f"graphorin {v['name']}: variant {go.variant(msg)}, expected {v['variant']}")
        text = go.serialize_message(msg)
        if parse(text) != msg:
            fail(f"graphorin {v['name']}: serialized and parsed back differs")
        variants.add(v["variant"])
    print(f"smoke: {len(vectors)} Graphorin vectors give their verdicts; {len(variants)} variants round-trip")


def each_message_type(vectors):
    payloads = {}
    for v in vectors:
        if v["expect"] == "ok" and v["type"] not in payloads:
            try:
                payloads[v["type"]] = json.loads(v["frame"])["payload"]
            except RecursionError:  # the 10,000-deep vectors: Python's own decoder gives up
                pass
    missing = sorted(set(gm.MESSAGE_TYPES) - set(payloads))
    if missing:
        fail(f"no accepted vector to take a payload from for {missing}")
    for t in gm.MESSAGE_TYPES:
        env = gm.create_envelope(t, payloads[t], 7, "run_smoke", ts=1)
        text = gm.serialize_envelope(env)
        back = gm.parse_envelope_json(text)
        if back.kind != "ok" or back.envelope != env or gm.serialize_envelope(back.envelope) != text:
            fail(f"{t}: built, serialized and parsed back differs ({back.kind})")
    print(f"smoke: {len(gm.MESSAGE_TYPES)} message types built, serialized and parsed back")


def shrink():
    vectors = jsonl(SHARED / "vectors/graphmind/shrink.jsonl")
    for v in vectors:
        got = gm.shrink_payload_json(v["payload_json"], v["max_bytes"], v["type"])
        if (got.tier, got.json) != (v["tier"], v["expect_json"]):
            fail(f"shrink {v['name']}: tier {got.tier}, expected {v['tier']}")
    print(f"smoke: {len(vectors)} shrink vectors give their text and tier")


def utf32_route():
    pieces = ["\u00e9", "\u4e2d", "\U0001f600", "a"]
    count = 0
    for size in (63, 64, 65, 100, 1000, 4096, 65535, 65536, 65537, 70000):
        for lead in pieces:
            text = (lead + "xy\u00e9\u4e2d\U0001f600") * (size // 8 + 1)
            # At most `size` UTF-8 bytes: cut the bytes, drop a character cut in two.
            text = text.encode()[:size].decode("utf-8", "ignore")
            frame = json.dumps({"gm": 1, "seq": 1, "ts": 1, "runId": "r", "type": "node.started",
                                "payload": {"nodeId": "n", "kind": "tool", "name": text, "instanceId": "i", "input": {"t": text}}},
                               ensure_ascii=False)
            r = gm.parse_envelope_json(frame)
            if r.kind != "ok":
                fail(f"utf32 frame of {size} bytes: {r.kind} {getattr(r, 'reason', '')}")
            want = json.loads(frame)["payload"]
            if r.envelope.to_dict()["payload"] != want:
                fail(f"utf32: a {len(text.encode())}-byte string differs from json.loads'")
            count += 1
    print(f"smoke: {count} non-ASCII strings of 63 B to 70 kB equal json.loads' ({platform.machine()})")


def main():
    print(f"smoke: CPython {platform.python_version()} on {platform.machine()}, {gm.__file__}")
    t = time.perf_counter()
    vectors = graphmind_vectors()
    for section in (graphorin_vectors, lambda: each_message_type(vectors), shrink, utf32_route):
        print(f"smoke:   ({time.perf_counter() - t:.1f} s)")
        t = time.perf_counter()
        section()
    print(f"smoke:   ({time.perf_counter() - t:.1f} s)")
    print("smoke: all passed")


if __name__ == "__main__":
    main()
