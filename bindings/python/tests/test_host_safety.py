"""Host safety: the native module never takes the host down and never surprises a thread.

- Garbage into every public function and method raises only ``Exception`` subclasses (never
  pyo3's ``PanicException``, a ``BaseException`` that ``except Exception`` misses) or returns.
- Parsing a large frame releases the GIL: another thread keeps running meanwhile.
- Eight threads parsing at once get exactly the results of one thread parsing alone.
"""

from __future__ import annotations

import itertools
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from wirecontract import graphmind as gm
from wirecontract import graphorin as go

# Garbage goes into every public function, the deprecated create_unknown_envelope too; its
# warning is expected (test_api.py checks it is raised).
pytestmark = pytest.mark.filterwarnings("ignore:create_unknown_envelope is deprecated:DeprecationWarning")

DEEP = [[[[[[[[[[[]]]]]]]]]]]


def garbage() -> list[object]:
    lone = "\ud800x"
    return [
        None, True, 0, -1, 2**64, 2**53, -(2**63) - 1, 1.5, float("nan"), float("inf"), -0.0,
        "", "x", lone, "\x00", "{", "[" * 1000, '{"gm":1}', "null", "1e400", "\ufeff{}",
        b"", b"\xff\xfe", b"{}", b'{"gm":1,"seq":1,"ts":1,"runId":"r","type":"x"}', bytearray(b"[1]"), memoryview(b"{}"),
        {}, [], (), set(), {"a": lone}, {1: 2}, {"gm": float("nan")}, {"x": object()}, [DEEP], {"": {"": [{}]}},
        {"kind": "tool", "name": lone, "point": "before"}, {"mode": "step"}, {"type": "hello", "payload": {}},
        object(), type, print, Exception("x"), gm, threading.Lock(),
    ]


def public_callables(module) -> list:
    return [getattr(module, n) for n in dir(module) if not n.startswith("__") and callable(getattr(module, n)) and not isinstance(getattr(module, n), type)]


def assert_plain_exception(e: BaseException, what: str) -> None:
    assert type(e).__name__ != "PanicException", f"{what} panicked: {e!r}"
    assert isinstance(e, Exception), f"{what} raised a BaseException that is not an Exception: {type(e).__mro__}"


def call(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except BaseException as e:  # noqa: BLE001 - the point of the test
        assert_plain_exception(e, f"{getattr(fn, '__name__', fn)}{args!r:.200}")
        return e


@pytest.mark.parametrize("module", [gm, go], ids=["graphmind", "graphorin"])
def test_garbage_into_every_function_raises_only_exceptions(module) -> None:
    rng = random.Random(1234)
    values = garbage()
    fns = public_callables(module)
    assert len(fns) >= 10
    for fn in fns:
        call(fn)
        for v in values:
            call(fn, v)
        for arity in range(2, 6):
            for _ in range(150):
                call(fn, *rng.choices(values, k=arity))
        for kw in ("max_frame_bytes", "max_depth", "ts", "omit_payload", "direction"):
            for v in (None, -1, 0, 2**70, "x", 1.5):
                call(fn, '{"gm":1}', **{kw: v})
                call(fn, "x", {}, 1, "r", **{kw: v})


def every_attribute(obj: object, what: str, depth: int = 0) -> None:
    """Reads every public attribute and calls every method without arguments, recursively."""
    names = call(dir, obj)
    if isinstance(names, BaseException):
        return
    for name in names:
        if name.startswith("__") and name not in ("__repr__", "__str__", "__hash__"):
            continue
        value = call(getattr, obj, name)
        if callable(value) and not isinstance(value, type):
            value = call(value)
        if depth < 4 and isinstance(value, (gm.WireObject, gm.Envelope)):
            every_attribute(value, f"{what}.{name}", depth + 1)
        if isinstance(value, list):
            for item in value[:5]:
                if isinstance(item, gm.WireObject):
                    every_attribute(item, f"{what}.{name}[]", depth + 1)
    for other in garbage()[:25]:
        call(lambda o: obj == o, other)
        call(lambda o: obj != o, other)
    call(getattr, obj, "no_such_attribute")
    call(setattr, obj, "seq", 5)
    call(hash, obj)


def test_every_result_object_and_payload_survives_poking(vectors) -> None:
    seen = set()
    for v in vectors:
        r = gm.parse_envelope_json(v["frame"])
        key = (r.kind, v.get("type"))
        if key in seen:
            continue
        seen.add(key)
        every_attribute(r, v["id"])
    assert len(seen) > 20
    for cls in [gm.Envelope, gm.Ok, gm.Invalid, gm.Issue, gm.WireObject, gm.NodeStarted]:
        call(cls)
        call(cls, "x", 1)


def test_graphorin_frames_survive_poking() -> None:
    frames = [
        '{"v":"1","jsonrpc":"2.0","id":"req-1","result":{"ok":true}}',
        '{"v":"1","kind":"pong"}',
        '{"v":"1","jsonrpc":"2.0","id":1,"method":"ping"}',
    ]
    for f in frames:
        for parse in (go.parse_server_message, go.parse_client_message):
            msg = call(parse, f)
            every_attribute(msg, f)


def test_every_exception_class_is_an_exception() -> None:
    for module in (gm, go):
        for name in dir(module):
            value = getattr(module, name)
            if isinstance(value, type) and issubclass(value, BaseException):
                assert issubclass(value, Exception), name


# -- the GIL --------------------------------------------------------------------------------


def big_frame() -> bytes:
    keys = ",".join(f'"k{i}":[{i},"v{i}"]' for i in range(400_000))  # about 11 MB
    return ('{"gm":1,"seq":1,"ts":1,"runId":"r","type":"run.started","payload":{"app":"a","sdk":{"name":"n","version":"1"},"meta":{' + keys + "}}}").encode()


@pytest.mark.parametrize("as_text", [False, True], ids=["bytes", "str"])
def test_parsing_a_large_frame_releases_the_gil(as_text: bool) -> None:
    data = big_frame()
    frame = data.decode() if as_text else data
    counter = [0]
    stop = threading.Event()
    started = threading.Event()

    def spin() -> None:
        started.set()
        while not stop.is_set():
            counter[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    started.wait()
    try:
        t0 = time.monotonic()
        before = counter[0]
        r = gm.parse_envelope_json(frame)
        during = counter[0] - before
        elapsed = time.monotonic() - t0
    finally:
        stop.set()
        t.join()
    assert r.kind == "ok"
    # With the GIL held for the whole parse the other thread could not run at all; with it
    # released, it counts throughout (hundreds of thousands of increments per second).
    assert elapsed > 0.05, "frame too small to tell"
    assert during > 1000, f"the counter thread advanced {during} times in {elapsed:.2f} s"


def test_graphorin_parsing_of_a_large_frame_releases_the_gil() -> None:
    payload = ",".join(f'"k{i}":[{i}]' for i in range(600_000))
    frame = '{"v":"1","kind":"event","subscriptionId":"s","event":"e","payload":{' + payload + "}}"
    counter = [0]
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            counter[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        time.sleep(0.01)
        before = counter[0]
        call(go.parse_server_message, frame)
        during = counter[0] - before
    finally:
        stop.set()
        t.join()
    assert during > 1000, during


# -- threads --------------------------------------------------------------------------------


def summary(r) -> tuple:
    if isinstance(r, gm.Invalid):
        return ("invalid", r.reason, None if r.issues is None else tuple((i.path, i.message) for i in r.issues))
    if isinstance(r, gm.VersionMismatch):
        return ("version-mismatch", r.received, r.supported)
    return (r.kind, gm.serialize_envelope(r.envelope), r.envelope.type)


@pytest.mark.load
@pytest.mark.threads
def test_eight_threads_get_the_results_of_one(vectors) -> None:
    frames = [v["frame"] for v in vectors]
    # Large frames too, so the threads really run in parallel without the GIL.
    frames += [big_frame(), ("[" * 200_000 + "]" * 200_000), '{"gm":1,"seq":1,"ts":1,"runId":"r","type":"future.x","payload":' + "[" * 50_000 + "]" * 50_000 + "}"]
    work = list(itertools.chain.from_iterable([frames] * 4))
    random.Random(7).shuffle(work)
    sequential = [summary(gm.parse_envelope_json(f)) for f in work]
    with ThreadPoolExecutor(max_workers=8) as pool:
        concurrent = list(pool.map(lambda f: summary(gm.parse_envelope_json(f)), work))
    assert concurrent == sequential
    # Serializing shared envelopes from many threads at once is just as stable.
    envs = [r.envelope for r in map(gm.parse_envelope_json, frames) if isinstance(r, (gm.Ok, gm.UnknownType))]
    with ThreadPoolExecutor(max_workers=8) as pool:
        texts = list(pool.map(gm.serialize_envelope, envs * 4))
    assert texts == [gm.serialize_envelope(e) for e in envs * 4]
