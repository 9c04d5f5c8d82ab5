#!/usr/bin/env python3
"""Payload shrinking: wirecontract's Python ``shrink_payload`` against the real Python client's
``graphmind.shrink.serialize_payload`` (graphmind-ai 0.5.1), on the same payload in the same run.

The payload is one ``node.finished`` event of about 5 MB (``--mb``) whose ``output`` is a
retrieval result: a long answer text and thousands of document records, with non-ASCII and
astral characters. It is shrunk to the reference budget, 524,288 bytes (graphmind-shrink §1),
by each implementation, the calls interleaved within each round, best of ``--rounds``. Both
outputs are checked first, byte for byte (graphmind-ai 0.5.1 is the oracle of the shrink
vectors, §15); a disagreement fails the run.

Usage: shrink_bench.py [--mb 5] [--rounds 5] [--json OUT] [--payload-out FILE] [--expected-out FILE]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

from graphmind import shrink as graphmind_shrink

from wirecontract import graphmind as gm

MAX_BYTES = 524_288
TYPE = "node.finished"
WORDS = ["alpha", "beta", "gamma", "délta", "epsilon", "zeta", "ηta", "theta", "日本語", "emoji😀", "résumé", "naïve"]


def payload(target_bytes: int) -> dict[str, Any]:
    """A deterministic node.finished payload of about `target_bytes` bytes of compact JSON:
    half a long answer string, half document records (the fields a 0.5 client validates:
    no 0.6 usage fields, no array-index keys, so both implementations must agree, §13)."""
    rnd = random.Random(7)
    records: list[dict[str, Any]] = []
    size = 0
    while size < target_bytes // 2:
        i = len(records)
        r = {
            "id": f"doc-{i}",
            "title": " ".join(rnd.choice(WORDS) for _ in range(6)),
            "score": round(rnd.random(), 6),
            "rank": i,
            "tags": [rnd.choice(WORDS) for _ in range(3)],
            "body": " ".join(rnd.choice(WORDS) for _ in range(60)),
        }
        records.append(r)
        size += len(json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode()) + 1
    answer = " ".join(rnd.choice(WORDS) for _ in range(target_bytes // 2 // 7))
    return {
        "nodeId": "retriever:search",
        "instanceId": "call_1",
        "output": {"answer": answer, "documents": records, "count": len(records)},
        "usage": {"inputTokens": 1200, "outputTokens": 350},
        "durationMs": 1834.25,
        "status": "ok",
    }


def best_of_interleaved(rounds: int, runs: dict[str, Callable[[], object]]) -> dict[str, float]:
    best = {name: float("inf") for name in runs}
    for _ in range(rounds):
        for name, fn in runs.items():
            gc.collect()
            t = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=float, default=5.0, help="payload size in MB (10^6 bytes of compact JSON)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", type=Path, help="write the results here")
    ap.add_argument("--payload-out", type=Path, help="also write the payload's JSON text here (the Rust row reads it)")
    ap.add_argument("--expected-out", type=Path, help="also write graphmind-ai's output here (the Node.js row checks against it)")
    a = ap.parse_args()

    p = payload(int(a.mb * 1_000_000))
    text = json.dumps(p, ensure_ascii=False, separators=(",", ":"))
    data = text.encode()
    if a.payload_out:
        a.payload_out.parent.mkdir(parents=True, exist_ok=True)
        a.payload_out.write_bytes(data)

    # --- agreement, before any timing --------------------------------------------------------
    ours = gm.shrink_payload(p, MAX_BYTES, TYPE)
    ours_text = gm.shrink_payload_json(data, MAX_BYTES, TYPE)
    theirs, _, truncated = graphmind_shrink.serialize_payload(p, MAX_BYTES, TYPE)
    agree = ours.json == theirs and ours.truncated == truncated and ours_text == ours
    first_difference = None
    if not agree:
        first_difference = next((i for i, (x, y) in enumerate(zip(ours.json, theirs)) if x != y), min(len(ours.json), len(theirs)))

    if a.expected_out:
        a.expected_out.parent.mkdir(parents=True, exist_ok=True)
        a.expected_out.write_text(theirs, encoding="utf-8")

    runs: dict[str, Callable[[], object]] = {
        "wirecontract": lambda: gm.shrink_payload(p, MAX_BYTES, TYPE),
        "wirecontract_json": lambda: gm.shrink_payload_json(data, MAX_BYTES, TYPE),
        "graphmind_ai": lambda: graphmind_shrink.serialize_payload(p, MAX_BYTES, TYPE),
    }
    rows = best_of_interleaved(a.rounds, runs)
    results = {
        "type": TYPE,
        "payload_bytes": len(data),
        "max_bytes": MAX_BYTES,
        "rounds": a.rounds,
        "tier": ours.tier,
        "output_bytes": len(ours.json.encode()),
        "agree": agree,
        "first_difference": first_difference,
        "rows": rows,
    }
    out = json.dumps(results, indent=1)
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(out + "\n")
    print(out)
    if not agree:
        sys.exit(
            f"wirecontract and graphmind-ai disagree at character {first_difference}:\n"
            f"  wirecontract  {ours.json[max(0, first_difference - 60) : first_difference + 60]!r}\n"
            f"  graphmind-ai  {theirs[max(0, first_difference - 60) : first_difference + 60]!r}"
        )


if __name__ == "__main__":
    main()
