"""Hostile input against the documented limits, from Python (docs/robustness.md).

Depth (spec §5.8): 10,000 levels inside opaque values parse and convert; 1,000,000 levels are
``Invalid`` with a clear reason, also on a thread with a 256 KiB stack. Size (§5.10): an
over-cap frame is refused before it is read. Huge strings, objects and numbers: bounded
time and memory, measured in a child process as peak RSS (``VmHWM``, reset after the frame is
built) above the memory the frame itself takes. Time bounds are generous: they only prove
"not quadratic".
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from wirecontract import graphmind as gm

HEAD = '{"gm":1,"seq":1,"ts":1756200000000,"runId":"r",'
DEFAULT_DEPTH = gm.DEFAULT_MAX_DEPTH


def frame(message_type: str, payload: str) -> str:
    return f'{HEAD}"type":"{message_type}","payload":{payload}}}'


def node_started(input_json: str) -> str:
    return frame("node.started", f'{{"nodeId":"n","kind":"tool","name":"x","instanceId":"i","input":{input_json}}}')


def nested_arrays(levels: int) -> str:
    return "[" * levels + "]" * levels


def nested_objects(levels: int) -> str:
    return '{"a":' * (levels - 1) + "{}" + "}" * (levels - 1)


def depth_of(value: object) -> int:
    """Nesting depth of a converted value, iteratively."""
    depth, cur = 0, value
    while isinstance(cur, (list, dict)):
        depth += 1
        cur = next(iter(cur.values() if isinstance(cur, dict) else cur), None)
    return depth


def on_small_stack(fn, stack_bytes: int = 256 * 1024):
    """Runs fn() on a thread with a small stack; re-raises what it raised."""
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed back to the caller
            box["error"] = e

    old = threading.stack_size(stack_bytes)
    try:
        t = threading.Thread(target=run)
        t.start()
    finally:
        threading.stack_size(old)
    t.join()
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box.get("value")


# -- depth (§5.8) ---------------------------------------------------------------------------


def _ten_thousand_levels() -> None:
    for nest in (nested_arrays(10_000), nested_objects(10_000)):
        f = node_started(nest)
        r = gm.parse_envelope_json(f)
        assert r.kind == "ok", r
        assert depth_of(r.envelope.payload.input) == 10_000
        assert gm.serialize_envelope(r.envelope) == f
        assert depth_of(r.envelope.to_dict()["payload"]["input"]) == 10_000
        u = gm.parse_envelope_json(frame("future.x", nest))
        assert u.kind == "unknown-type" and depth_of(u.envelope.payload) == 10_000
        # Building from host values of the same depth works too (iterative conversion).
        built = gm.create_envelope("future.x", u.envelope.payload, 1, "r", 1)
        assert gm.serialize_envelope(built).endswith(f'"payload":{nest}}}')


def test_10_000_levels_inside_opaque_values_parse_and_convert() -> None:
    _ten_thousand_levels()


# CPython 3.13 itself needs more than 512 KiB of C stack to free a 10,000-level list (a plain
# `x = [x]` loop crashes there on a 256 KiB thread, without wirecontract); earlier versions
# need far less. The conversion is iterative either way: this bounds the interpreter, not us.
SMALL_STACK_FOR_10_000_LEVELS = 256 * 1024 if sys.version_info < (3, 13) else 1024 * 1024


def test_10_000_levels_parse_and_convert_on_a_256_kib_thread_stack() -> None:
    on_small_stack(_ten_thousand_levels, SMALL_STACK_FOR_10_000_LEVELS)


def _million_levels() -> list[str]:
    deep = 1_000_000
    reasons = []
    for f in (node_started(nested_arrays(deep)), node_started("[" * deep), "[" * deep + "]" * deep, node_started('[{"a":' * (deep // 2) + "}]" * (deep // 2))):
        for data in (f, f.encode()):
            r = gm.parse_envelope_json(data)
            assert isinstance(r, gm.Invalid), r
            assert r.issues is None
            reasons.append(r.reason)
    return reasons


def test_1_000_000_levels_are_invalid_with_a_clear_reason() -> None:
    for reason in _million_levels():
        assert reason.startswith(f"frame nests deeper than {DEFAULT_DEPTH} levels (at byte "), reason


def test_1_000_000_levels_are_invalid_on_a_256_kib_thread_stack() -> None:
    reasons = on_small_stack(_million_levels)
    assert reasons and all(r.startswith("frame nests deeper than") for r in reasons)


def test_1_000_000_levels_of_host_values_are_refused_not_a_crash() -> None:
    def build_and_refuse() -> None:
        deep: list = []
        for _ in range(1_000_000):
            deep = [deep]
        r = gm.parse_envelope({"gm": 1, "seq": 1, "ts": 1, "runId": "r", "type": "future.x", "payload": deep})
        assert isinstance(r, gm.Invalid) and "nests deeper than" in r.reason, r
        with pytest.raises(gm.BuildError, match="nests deeper than"):
            gm.create_envelope("future.x", deep, 1, "r", 1)
        with pytest.raises(gm.BuildError, match="nests deeper than"):
            gm.create_envelope("node.started", {"nodeId": "n", "kind": "tool", "name": "x", "instanceId": "i", "input": deep}, 1, "r", 1)

    on_small_stack(build_and_refuse)


def test_the_depth_cap_is_configurable_and_exact() -> None:
    assert gm.parse_envelope_json(frame("future.x", nested_arrays(9)), max_depth=10).kind == "unknown-type"
    r = gm.parse_envelope_json(frame("future.x", nested_arrays(10)), max_depth=10)
    assert isinstance(r, gm.Invalid) and r.reason.startswith("frame nests deeper than 10 levels")


# -- size (§5.10) ---------------------------------------------------------------------------


def frame_of_len(n: int) -> str:
    base = frame("mode.set", '{"mode":"run","pad":""}')
    return frame("mode.set", '{"mode":"run","pad":"' + "p" * (n - len(base)) + '"}')


def test_frames_above_a_custom_cap_are_refused_before_they_are_read() -> None:
    assert gm.parse_envelope_json(frame_of_len(1024), max_frame_bytes=1024).kind == "ok"
    for data in (frame_of_len(1025), frame_of_len(1025).encode(), bytearray(frame_of_len(1025).encode()), b"\xff" * 1025, "[" * 1025, "x" * 1025):
        r = gm.parse_envelope_json(data, max_frame_bytes=1024)
        assert isinstance(r, gm.Invalid), r
        assert (r.reason, r.issues) == ("frame exceeds 1024 bytes", None)


def test_the_default_cap_is_16_mib_and_refusing_is_cheap() -> None:
    assert gm.DEFAULT_MAX_FRAME_BYTES == 16 * 1024 * 1024
    huge = b"[" * (gm.DEFAULT_MAX_FRAME_BYTES + 1)
    start = time.monotonic()
    for _ in range(200):
        r = gm.parse_envelope_json(huge)
        assert r.reason == f"frame exceeds {gm.DEFAULT_MAX_FRAME_BYTES} bytes"
    # 200 scans of 16 MiB would take far longer than this.
    assert time.monotonic() - start < 5


# -- huge values: bounded time and memory ---------------------------------------------------

CHILD = textwrap.dedent(
    r'''
    import json, sys, time
    from wirecontract import graphmind as gm

    def status(field):
        for line in open("/proc/self/status"):
            if line.startswith(field):
                return int(line.split()[1]) * 1024
        raise SystemExit("no " + field)

    HEAD = '{"gm":1,"seq":1,"ts":1,"runId":"r",'
    scenario = sys.argv[1]
    big = 256 << 20
    if scenario == "string_100mb":
        frame = (HEAD + '"type":"node.started","payload":{"nodeId":"n","kind":"tool","name":"x","instanceId":"i","input":"' + "x" * 100_000_000 + '"}}').encode()
        expect, touch = "ok", lambda env: env.payload.input
    elif scenario == "keys_1m":
        keys = "{" + ",".join(f'"k{i}":{i}' for i in range(1_000_000)) + "}"
        frame = (HEAD + '"type":"run.started","payload":{"app":"a","sdk":{"name":"n","version":"1"},"meta":' + keys + "}}").encode()
        del keys
        expect, touch = "ok", lambda env: env.payload.meta
    elif scenario == "keys_1m_unknown_type":
        keys = "{" + ",".join(f'"k{i}":{i}' for i in range(1_000_000)) + "}"
        frame = (HEAD + '"type":"future.x","payload":' + keys + "}").encode()
        del keys
        expect, touch = "unknown-type", lambda env: env.payload
    elif scenario == "digits_100k":
        n = "7" * 100_000
        frame = (HEAD + '"type":"node.started","payload":{"nodeId":"n","kind":"tool","name":"x","instanceId":"i","input":[' + ",".join([n] * 100) + "]}}").encode()
        expect, touch = "ok", lambda env: gm.serialize_envelope(env)
    elif scenario == "issues_1m":
        frame = (HEAD + '"type":"node.token","payload":{"nodeId":"n","deltas":[' + "0," * 999_999 + "0]}}").encode()
        expect, touch = "invalid", None
    else:
        raise SystemExit("unknown scenario " + scenario)
    try:
        open("/proc/self/clear_refs", "w").write("5")
        baseline = status("VmRSS:")
    except OSError:
        baseline = status("VmHWM:")
    start = time.monotonic()
    r = gm.parse_envelope_json(frame, max_frame_bytes=big)
    assert r.kind == expect, r
    touched = touch(r.envelope) if touch else len(r.issues)
    seconds = time.monotonic() - start
    print(json.dumps({"frame": len(frame), "extra_peak": status("VmHWM:") - baseline, "seconds": seconds}))
    '''
)


def measure(scenario: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, scenario], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    m = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"{scenario}: frame {m['frame']} B, peak +{m['extra_peak']} B ({m['extra_peak'] / m['frame']:.2f}x), {m['seconds']:.2f} s")
    return m


def assert_bounded(scenario: str, multiple: float, max_seconds: float) -> None:
    m = measure(scenario)
    assert m["extra_peak"] <= multiple * m["frame"], f"{scenario}: peak {m['extra_peak']} B over {multiple}x the {m['frame']} B frame"
    assert m["seconds"] < max_seconds, m


linux_only = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak RSS is read from /proc (Linux)")


@pytest.mark.load
@linux_only
def test_a_100_mb_string_costs_linear_memory() -> None:
    # The opaque copy kept by the envelope and the Python str made on access.
    assert_bounded("string_100mb", 4.0, 20.0)


@pytest.mark.load
@linux_only
def test_1_000_000_keys_cost_linear_time_and_memory() -> None:
    # Opaque (unknown type), converted to a dict on access.
    assert_bounded("keys_1m_unknown_type", 12.0, 20.0)
    # Kept member by member (meta record), converted to a dict on access.
    assert_bounded("keys_1m", 32.0, 20.0)


@linux_only
def test_numbers_with_100_000_digits_cost_linear_time_and_memory() -> None:
    # The peak while the serialized `str` is built is 3.2x or one frame size more, 4.2x: CPython
    # 3.10 always takes the higher one; 3.13 takes either, depending on the allocator's layout
    # (measured 4.19x under pytest and 3.19x from a shell with the same wheel, and 3.21x/4.18x
    # for two builds of the extension that differ only in code this path never runs). Still
    # linear; the bound allows the higher mode everywhere.
    assert_bounded("digits_100k", 5.0, 20.0)


@pytest.mark.load
@linux_only
def test_1_000_000_issues_cost_linear_time_and_memory() -> None:
    # Each issue is a Rust value and then a Python object: about 450 bytes each (docs/robustness.md).
    assert_bounded("issues_1m", 300.0, 20.0)


def test_a_100_000_digit_integer_survives_and_converts_like_json_loads() -> None:
    digits = "7" * 100_000
    f = node_started(f"[{digits}]")
    r = gm.parse_envelope_json(f)
    assert r.kind == "ok"
    assert gm.serialize_envelope(r.envelope) == f
    # Conversion to a host int follows json.loads, CPython's digit limit included.
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    if limit:
        with pytest.raises(ValueError):
            json.loads(digits)
        with pytest.raises(ValueError):
            r.envelope.payload.input
    old = limit
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    try:
        assert r.envelope.payload.input == [int(digits)]
    finally:
        if hasattr(sys, "set_int_max_str_digits"):
            sys.set_int_max_str_digits(old)
    # A typed number field: Infinity is not a number; a 100,000-digit seq is not a safe integer.
    r = gm.parse_envelope_json(frame("node.finished", f'{{"nodeId":"n","durationMs":{digits},"status":"ok"}}'))
    assert isinstance(r, gm.Invalid) and [i.path for i in r.issues] == ["payload.durationMs"]
    r = gm.parse_envelope_json(f'{{"gm":1,"seq":{digits},"ts":1,"runId":"r","type":"mode.set","payload":{{"mode":"run"}}}}')
    assert isinstance(r, gm.Invalid) and [i.path for i in r.issues] == ["seq"]


@pytest.mark.load
def test_a_list_of_1_000_000_objects_reads_in_linear_time() -> None:
    n = 1_000_000
    f = frame("node.token", '{"nodeId":"n","deltas":[' + ",".join(['{"t":"text","v":"a"}'] * n) + "]}")
    r = gm.parse_envelope_json(f, max_frame_bytes=64 << 20)
    start = time.monotonic()
    deltas = r.envelope.payload.deltas
    assert sum(len(d.v) for d in deltas) == n
    assert deltas[0] == deltas[-1] and deltas[0].to_dict() == {"t": "text", "v": "a"}
    # Going back through the list on every access was quadratic: hours for this loop.
    assert time.monotonic() - start < 30
