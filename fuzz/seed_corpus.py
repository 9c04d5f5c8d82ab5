#!/usr/bin/env python3
"""Seeds the fuzz corpora from the conformance material (not committed: made on demand).

Usage: fuzz/seed_corpus.py [SHARED_DIR]

Writes every frame of shared/vectors/**/conformance.jsonl, shared/real-client/*.jsonl and
vectors/**/extra.jsonl into fuzz/corpus/<target>/seed-<sha1> for the byte-level targets
(GraphMind frames for the GraphMind targets, Graphorin frames for graphorin_parse, both for
json_reader, json_unescape and utf32), and a libFuzzer dictionary fuzz/corpus/json.dict with the JSON punctuation plus
every object key and short string value seen in those frames. Existing corpus files are kept,
so a corpus grown by earlier runs is reused.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
REPO = FUZZ.parent
MAX_SEED_BYTES = 64 * 1024

TARGETS = {
    "graphmind_parse": ("graphmind",),
    "graphmind_roundtrip": ("graphmind",),
    "json_reader": ("graphmind", "graphorin"),
    "graphorin_parse": ("graphorin",),
    "graphmind_build": (),
    "graphmind_shrink": ("graphmind",),
    "json_unescape": ("graphmind", "graphorin"),
    "utf32": ("graphmind", "graphorin"),
}


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def frames(shared: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"graphmind": [], "graphorin": []}
    sources = {
        "graphmind": [shared / "vectors/graphmind/conformance.jsonl", REPO / "vectors/graphmind/extra.jsonl", *sorted((shared / "real-client").glob("*.jsonl"))],
        "graphorin": [shared / "vectors/graphorin/conformance.jsonl", REPO / "vectors/graphorin/extra.jsonl"],
    }
    for proto, paths in sources.items():
        for p in paths:
            if p.exists():
                out[proto].extend(v["frame"] for v in jsonl(p) if isinstance(v.get("frame"), str))
    if not out["graphmind"]:
        sys.exit(f"no GraphMind frames found under {shared} (pass the shared/ folder as an argument)")
    return out


def tokens(frame: str, into: set[str]) -> None:
    """Object keys and short string values of a frame, iteratively."""
    try:
        stack = [json.loads(frame)]
    except (ValueError, RecursionError):
        return
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            for k, x in v.items():
                if len(k) <= 24:
                    into.add(k)
                stack.append(x)
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, str) and 0 < len(v) <= 24:
            into.add(v)


def dict_entry(token: str) -> str:
    """A libFuzzer dictionary line for the exact bytes of `token` (UTF-8)."""
    body = "".join(chr(b) if 0x20 <= b < 0x7F and chr(b) not in '"\\' else f"\\x{b:02X}" for b in token.encode("utf-8", "surrogatepass"))
    return f'"{body}"'


def main() -> None:
    shared = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("WIRECONTRACT_SHARED", REPO.parent / "shared"))
    by_proto = frames(shared)
    corpus = FUZZ / "corpus"
    counts = {}
    for target, protos in TARGETS.items():
        d = corpus / target
        d.mkdir(parents=True, exist_ok=True)
        n = 0
        for proto in protos:
            for f in by_proto[proto]:
                data = f.encode("utf-8", "surrogatepass")
                if len(data) > MAX_SEED_BYTES:
                    continue
                (d / f"seed-{hashlib.sha1(data).hexdigest()[:16]}").write_bytes(data)
                n += 1
        counts[target] = n
    words: set[str] = set()
    for proto in by_proto.values():
        for f in proto:
            tokens(f, words)
    punct = ["{", "}", "[", "]", ":", ",", '"', "\\u", "\\ud800", "\\udc00", "true", "false", "null", "-0", "1e400", "1.0", "1e3", "9007199254740992"]
    lines = [dict_entry(p) for p in punct] + sorted(dict_entry(json.dumps(w, ensure_ascii=False)) for w in words)
    (corpus / "json.dict").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("seeded " + ", ".join(f"{t}: {n}" for t, n in counts.items()) + f"; dictionary: {len(lines)} tokens")


if __name__ == "__main__":
    main()
