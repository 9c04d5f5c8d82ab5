"""The extension loads and works in any thread, in any order.

Each case runs in a fresh interpreter (a subprocess), so a crash in the extension (a SIGSEGV in
its allocator when a thread that used it has exited and another starts) fails that case
instead of taking pytest down:

- imported first in a worker thread, the main thread never using it;
- imported by the main thread first, or only at the end after worker threads used it;
- threads one after another, threads in parallel, and many short-lived threads.

Every thread parses (small frames and frames of 64 KiB and more, which are parsed with the GIL
released, as ``str`` and as ``bytes``), converts (``to_dict``), serializes and builds.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent(
    '''
    import sys, threading

    def token_frame(seq, text):
        return '{"gm":1,"seq":%d,"ts":1,"runId":"r","type":"node.token","payload":{"nodeId":"n","instanceId":"i","deltas":[{"t":"text","v":"%s"}]}}' % (seq, text)

    SMALL = token_frame(1, "\u00e9" * 5000)
    LARGE = token_frame(2, "x\u00e9" * 40000)
    FAILED = []

    def use(rounds):
        from wirecontract import graphmind as gm
        from wirecontract import graphorin as go
        for i in range(rounds):
            frame = LARGE if i % 20 == 0 else SMALL
            for data in (frame, frame.encode()):
                r = gm.parse_envelope_json(data)
                assert r.kind == "ok", r
            d = r.envelope.to_dict()
            assert d["payload"]["deltas"][0]["v"] == r.envelope.payload.deltas[0].v
            assert gm.parse_envelope_json(gm.serialize_envelope(r.envelope)).envelope.to_dict() == d
            e = gm.create_envelope("node.token", {"nodeId": "n", "instanceId": "i", "deltas": [{"t": "text", "v": "t" * i}]}, seq=i, run_id="r")
            assert gm.parse_envelope_json(gm.serialize_envelope_bytes(e)).kind == "ok"
            assert gm.parse_envelope_json(b"{").kind == "invalid"
            assert go.parse_client_message('{"v":"1","jsonrpc":"2.0","id":7,"method":"ping"}') is not None

    def worker(rounds):
        try:
            use(rounds)
        except BaseException as e:
            FAILED.append(repr(e))

    def sequence(n, rounds):
        for _ in range(n):
            t = threading.Thread(target=worker, args=(rounds,))
            t.start()
            t.join()

    def parallel(n, rounds):
        ts = [threading.Thread(target=worker, args=(rounds,)) for _ in range(n)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()

    case = sys.argv[1]
    if case == "import_in_worker":
        # The main thread never imports or uses it; the first thread to load it exits first.
        for _ in range(30):
            sequence(1, 100)
            parallel(3, 100)
        assert "wirecontract._native" in sys.modules
    elif case == "main_first":
        use(50)
        for _ in range(30):
            sequence(1, 100)
            parallel(3, 100)
        use(50)
    elif case == "main_last":
        for _ in range(30):
            parallel(3, 100)
            sequence(1, 100)
        use(50)
    elif case == "sequence":
        sequence(150, 100)
    elif case == "parallel":
        for _ in range(20):
            parallel(8, 50)
    elif case == "short_lived":
        # Many threads that each make one or two calls and exit, some overlapping.
        for _ in range(100):
            parallel(4, 2)
            sequence(2, 1)
    else:
        raise SystemExit("unknown case " + case)
    assert not FAILED, FAILED
    print("ok")
    '''
)

# Load tests (conftest.py): the same in any contract; `threads`: run on every interpreter
# (scripts/steps/30-python.sh).
pytestmark = [pytest.mark.load, pytest.mark.threads]

CASES = ["import_in_worker", "main_first", "main_last", "sequence", "parallel", "short_lived"]


@pytest.mark.parametrize("case", CASES)
def test_threads_in_any_order(case: str) -> None:
    out = subprocess.run([sys.executable, "-c", CHILD, case], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"{case}: exit status {out.returncode} (negative: killed by that signal)\n{out.stderr[-4000:]}"
    assert out.stdout.strip().splitlines()[-1:] == ["ok"], out.stdout[-2000:]
