#!/usr/bin/env python3
"""The floor of a `str`-returning serializer in an abi3 extension: every limited-API way to
build a `str` from finished text, timed against `orjson.dumps` of the same envelopes.

    python str_floor.py CORPUS.jsonl [--frames N] [--rounds 5]

The frames are `serialize_envelope_bytes` of every envelope the corpus parses to (what
`serialize_envelope` would return as `str`), and `orjson.dumps` serializes the same
envelopes' `to_dict()`, made anew before each round (`bench.py` makes them before each timed
part; a `str` dumped once keeps its UTF-8 form, which later dumps copy). Each constructor gets
its input ready in the encoding it reads (UTF-8, UTF-16-LE, UTF-32-LE as `wchar_t` on Linux),
made before timing: the transcoding a serializer would have to do to produce UTF-16 or
UTF-32 is not counted, so each row is a lower bound for a serializer taking that route. The constructors are called through
`ctypes.pythonapi`; the `ctypes call overhead` row (a zero-length `PyUnicode_FromStringAndSize`
through the same route) is subtracted from every ctypes row. Prints µs per frame, best of the
rounds, and orjson's time over each row's (below 1: the row alone is slower than
`orjson.dumps`). docs/performance.md quotes it; CPython and Linux only.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import sys
import time
from pathlib import Path
from typing import Callable

import orjson

import wirecontract.graphmind as gm


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--frames", type=int, default=0, help="the first N frames (0: all)")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()

    lines = [f for f in a.corpus.read_bytes().split(b"\n") if f]
    if a.frames:
        lines = lines[: a.frames]
    envs = [e for e in (getattr(gm.parse_envelope_json(f), "envelope", None) for f in lines) if e is not None]
    if not envs:
        raise SystemExit(f"{a.corpus}: no frame parses to an envelope")
    utf8 = [gm.serialize_envelope_bytes(e) for e in envs]
    texts = [b.decode("utf-8") for b in utf8]
    utf16 = [t.encode("utf-16-le") for t in texts]
    utf32 = [t.encode("utf-32-le") for t in texts]
    # `wchar_t` text is in the machine's byte order.
    wide = utf32 if sys.byteorder == "little" else [t.encode("utf-32-be") for t in texts]

    api = ctypes.pythonapi
    from_utf8 = api.PyUnicode_FromStringAndSize
    from_utf8.restype, from_utf8.argtypes = ctypes.py_object, [ctypes.c_char_p, ctypes.c_ssize_t]
    from_wide = api.PyUnicode_FromWideChar
    from_wide.restype, from_wide.argtypes = ctypes.py_object, [ctypes.c_char_p, ctypes.c_ssize_t]
    decode16 = api.PyUnicode_DecodeUTF16
    decode32 = api.PyUnicode_DecodeUTF32
    for f in (decode16, decode32):
        f.restype, f.argtypes = ctypes.py_object, [ctypes.c_char_p, ctypes.c_ssize_t, ctypes.c_char_p, ctypes.c_void_p]
    little = ctypes.c_int(-1)  # byte order: little-endian, no BOM expected
    order = ctypes.byref(little)
    wchar = ctypes.sizeof(ctypes.c_wchar)
    # Each route must build exactly the text; a mismatch would time the wrong thing (checked
    # with `if`, not `assert`, which `python -O` drops).
    for k in range(min(50, len(texts))):
        built = [from_utf8(utf8[k], len(utf8[k])), decode16(utf16[k], len(utf16[k]), None, order), decode32(utf32[k], len(utf32[k]), None, order)]
        if wchar == 4:
            built.append(from_wide(wide[k], len(wide[k]) // 4))
        if any(b != texts[k] for b in built):
            raise SystemExit(f"frame {k}: a constructor built other text than bytes.decode")
    del texts

    # Each result is dropped at once, as in bench.py: kept, the results of a pass would be new
    # memory to fault in, which is not the constructor's cost.
    def each(make: Callable[[bytes], object], inputs: list[bytes]) -> Callable[[], None]:
        def run() -> None:
            for x in inputs:
                make(x)

        return run

    def orjson_fresh() -> None:
        for d in fresh:
            orjson.dumps(d)

    rows: dict[str, Callable[[], None]] = {
        "orjson.dumps(dict) -> bytes": orjson_fresh,
        "bytes.decode('utf-8') (the bench's str floor)": each(bytes.decode, utf8),
        "ctypes call overhead": each(lambda b: from_utf8(b, 0 * len(b)), utf8),
        "PyUnicode_FromStringAndSize (UTF-8)": each(lambda b: from_utf8(b, len(b)), utf8),
        "PyUnicode_DecodeUTF16 (UTF-16 ready)": each(lambda b: decode16(b, len(b), None, order), utf16),
        "PyUnicode_DecodeUTF32 (UTF-32 ready)": each(lambda b: decode32(b, len(b), None, order), utf32),
    }
    if wchar == 4:
        rows["PyUnicode_FromWideChar (UTF-32 ready)"] = each(lambda b: from_wide(b, len(b) // 4), wide)
    fresh: list[dict[str, object]] = []
    best: dict[str, float] = {}
    for _ in range(a.rounds):
        for name, run in rows.items():  # interleaved: load hits every row alike
            fresh = [e.to_dict() for e in envs] if name.startswith("orjson") else []
            gc.collect()
            t = time.perf_counter()
            run()
            best[name] = min(best.get(name, float("inf")), time.perf_counter() - t)
    n = len(envs)
    over = best["ctypes call overhead"] / n
    orjson_us = best["orjson.dumps(dict) -> bytes"] / n * 1e6
    print(f"{a.corpus.name}: {n:,} envelopes, mean {sum(map(len, utf8)) // n:,} B, best of {a.rounds}")
    for name, secs in best.items():
        us = secs / n
        if name.startswith("PyUnicode"):
            us = max(us - over, 0.0)
        us *= 1e6
        ratio = "" if name == "ctypes call overhead" or us == 0 else f"{orjson_us / us:6.2f}x"
        print(f"  {name:48s} {us:9.3f} us/frame  {ratio}")


if __name__ == "__main__":
    main()
