#!/usr/bin/env python3
"""One benchmark row as a plain loop, for exact instruction counts under cachegrind.

Timings on a shared 2-core machine move by 2-3x between runs; instruction counts do not. Run
the loop with 1 and with 3 passes and take the difference, so interpreter start-up, imports
and loading the corpus cancel out:

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python instructions.py CORPUS.jsonl ROW --frames 3000 --passes 1   # then --passes 3
    per frame = (I refs with 3 passes - I refs with 1 pass) / (2 * frames)

ROW is one of: parse (wirecontract parse_envelope_json on bytes), msgspec-raw (msgspec tagged
Structs with opaque values as msgspec.Raw), to-dict (parse + Envelope.to_dict), msgspec-any
(msgspec decode with opaque values as Any + msgspec.to_builtins), simdjson (pysimdjson's DOM
parse, the validating reference; a SIMD kernel's instructions each do more than a scalar
one's, so compare it in time first). The rows are the ones
`scripts/bench` times (benches/python/bench.py); docs/performance.md quotes the counts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Callable

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))
import models  # noqa: E402

from wirecontract import graphmind as gm  # noqa: E402


def row(name: str) -> Callable[[bytes], object]:
    """The per-frame operation of one row."""
    if name == "parse":
        return gm.parse_envelope_json
    if name == "msgspec-raw":
        return models.msgspec_classifier(msgspec.Raw)
    if name == "to-dict":
        parse = gm.parse_envelope_json

        def to_dict(f: bytes) -> object:
            env = getattr(parse(f), "envelope", None)
            return None if env is None else env.to_dict()

        return to_dict
    if name == "msgspec-any":
        decode = models.msgspec_models(Any)[0].decode
        to_builtins = msgspec.to_builtins

        def builtins(f: bytes) -> object:
            try:
                return to_builtins(decode(f))
            except msgspec.MsgspecError:
                return None

        return builtins
    if name == "simdjson":
        import simdjson

        parse_doc = simdjson.Parser().parse

        def dom(f: bytes) -> object:
            try:
                parse_doc(f)  # dropped at once: the parser reuses its buffers
            except ValueError:  # not JSON, or not UTF-8
                pass
            except RuntimeError as e:  # too deep; anything else is a bug
                if not str(e).startswith("DEPTH_ERROR"):
                    raise
            return None

        return dom
    raise SystemExit(f"unknown row {name!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("row", choices=["parse", "msgspec-raw", "to-dict", "msgspec-any", "simdjson"])
    ap.add_argument("--frames", type=int, default=3000, help="the first N frames of the corpus")
    ap.add_argument("--passes", type=int, default=1)
    a = ap.parse_args()
    frames = a.corpus.read_bytes().split(b"\n")[: a.frames]
    op = row(a.row)
    op(frames[0])  # first-call costs (lazy imports, caches) stay out of the difference
    for _ in range(a.passes):
        for f in frames:
            op(f)


if __name__ == "__main__":
    main()
