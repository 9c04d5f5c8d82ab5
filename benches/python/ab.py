#!/usr/bin/env python3
"""Before/after of a change to the Python parse: the two parse rows of `bench.py`, for one
package tree, in the ratio form `scripts/bench` prints.

Run it alternately for two unpacked wheels (say main's and a branch's), several times, so
that load on the machine hits both alike:

    python ab.py TREE CORPUS.jsonl [--rounds 5] [--frames N]

TREE is a directory holding the `wirecontract` package (an unzipped wheel). Prints one line:
parse vs msgspec Structs + `Raw`, and parse + `to_dict` vs msgspec decode(Any) +
`to_builtins`, each as µs per frame and as msgspec's time over ours (best of the rounds,
rows interleaved within a round). `bench.py` checks verdicts against the corpus labels;
this script only times.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import Any, Callable


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree", type=Path)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--frames", type=int, default=0, help="the first N frames only (0: all)")
    a = ap.parse_args()
    sys.path.insert(0, str(a.tree))
    sys.path.insert(1, str(Path(__file__).resolve().parent))
    import msgspec
    import models

    from wirecontract import graphmind as gm

    frames = a.corpus.read_bytes().split(b"\n")
    if frames and frames[-1] == b"":
        frames.pop()
    if a.frames:
        frames = frames[: a.frames]
    parse = gm.parse_envelope_json
    raw = models.msgspec_classifier(msgspec.Raw)
    decode = models.msgspec_models(Any)[0].decode
    to_builtins = msgspec.to_builtins

    def ours() -> None:
        for f in frames:
            parse(f)

    def theirs() -> None:
        for f in frames:
            raw(f)

    def ours_dict() -> None:
        for f in frames:
            env = getattr(parse(f), "envelope", None)
            if env is not None:
                env.to_dict()

    def theirs_dict() -> None:
        for f in frames:
            try:
                to_builtins(decode(f))
            except msgspec.MsgspecError:
                pass

    runs: dict[str, Callable[[], None]] = {"parse": ours, "raw": theirs, "dict": ours_dict, "any": theirs_dict}
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(a.rounds):
        for name, fn in runs.items():
            gc.collect()
            t = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - t)
    us = {k: v / len(frames) * 1e6 for k, v in best.items()}
    print(
        f"{a.tree.name}: parse {us['parse']:.2f} us, msgspec Raw {us['raw']:.2f} us, {best['raw'] / best['parse']:.2f}x | "
        f"parse + to_dict {us['dict']:.2f} us, msgspec Any + to_builtins {us['any']:.2f} us, {best['any'] / best['dict']:.2f}x"
    )


if __name__ == "__main__":
    main()
