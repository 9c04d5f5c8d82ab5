#!/usr/bin/env python3
"""Python throughput of wirecontract.graphmind against orjson, json, msgspec and pydantic v2,
with simdjson's whole-document parse (pysimdjson: SIMD stage 1, UTF-8 checked) as a reference.

Single thread, frames already in memory as ``bytes``; each row is the sum over ten parts of its
inputs of the best time of each part in ``--rounds`` rounds, the rows taking turns part by part
(``rows``; the best round's whole pass is kept too, as ``rows_best_pass``).
Every validating library's verdict is checked per frame against the corpus's ``.labels``
file first. The generator's one known label error — unknown-type frames with ``seq: -1``,
labelled ``u`` although spec graphmind-v1 §2 step 2 (and vector ``unknown.bad_seq_first``)
make them ``invalid`` — is recognised precisely (the frame is an unknown-type envelope
whose only structural defect is ``seq: -1``) and counted apart; any other difference is a
disagreement and, for wirecontract, fails the run.

Usage: bench.py CORPUS.jsonl [--rounds N] [--json OUT] [--skip-pydantic]
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable

import msgspec
import orjson
import simdjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
import models  # noqa: E402

from wirecontract import graphmind as gm  # noqa: E402

KIND_LABEL = {"ok": "o", "unknown-type": "u", "version-mismatch": "v", "invalid": "i"}
# Each row is timed in this many consecutive parts of its inputs (best_of_interleaved).
PARTS = 10


def load(path: Path) -> tuple[list[bytes], str]:
    frames = path.read_bytes().split(b"\n")
    if frames and frames[-1] == b"":
        frames.pop()
    labels = Path(str(path) + ".labels").read_text()
    if len(labels) != len(frames):
        raise SystemExit(f"{path}: {len(frames)} frames but {len(labels)} labels")
    return frames, labels


def is_seq_label_error(frame: bytes) -> bool:
    """The generator's documented label error: with `seq` set to 0 the frame is a valid
    unknown-type envelope, and its `seq` is exactly -1."""
    try:
        obj = json.loads(frame)
    except ValueError:
        return False
    if not isinstance(obj, dict) or obj.get("seq") != -1 or isinstance(obj.get("seq"), bool):
        return False
    fixed = dict(obj, seq=0)
    return gm.parse_envelope_json(json.dumps(fixed)).kind == "unknown-type"


def agreement(frames: list[bytes], labels: str, verdict: Callable[[bytes], str]) -> dict[str, Any]:
    agree = label_errors = 0
    bad: list[str] = []
    for frame, want in zip(frames, labels):
        got = verdict(frame)
        if got == want:
            agree += 1
        elif want == "u" and got == "i" and is_seq_label_error(frame):
            label_errors += 1
        else:
            if len(bad) < 5:
                bad.append(f"label {want} got {got}: {frame[:160]!r}")
    return {"agree": agree, "label_errors": label_errors, "disagree": len(frames) - agree - label_errors, "examples": bad}


class Run:
    """A row: `body(part)` timed on each part of `items`. With `fresh`, the part's input is
    made anew by `fresh(part)`, untimed, before each timed part."""

    def __init__(self, items: list[Any], body: Callable[[Any], None], fresh: Callable[[list[Any]], Any] | None = None) -> None:
        self.items, self.body, self.fresh = items, body, fresh


def parts_of(items: list[Any], parts: int) -> list[list[Any]]:
    """`items` cut into `parts` consecutive parts (every item in exactly one)."""
    n = len(items)
    return [items[n * j // parts : n * (j + 1) // parts] for j in range(parts)]


def best_of_interleaved(rounds: int, runs: dict[str, Run], parts: int = PARTS) -> tuple[dict[str, float], dict[str, float]]:
    """Each row's time over its whole `items`, two ways: the sum over `parts` consecutive
    parts of each part's best time in `rounds` rounds (the rows the targets use), and the best
    round's sum (a whole pass: never below the first, so a target met on both is not met by
    the choice of estimator). Within a round the rows take turns part by part, so the times a
    ratio compares are taken within a fraction of a second of each other and a burst of load
    on a shared machine hits both alike; a whole-corpus pass per row (a second or more) let
    one burst move a ratio by up to ~25% between runs of the same code. The turn order
    rotates with the part and the round, so that no row is always the first to read a part's
    inputs from memory (docs/performance.md, "11. Timing on a shared machine")."""
    names = list(runs)
    split = {name: parts_of(runs[name].items, parts) for name in names}
    # Everything made so far lives to the end: out of the collector's way, so that the
    # (untimed) collection before each timed part walks only what the last part made.
    gc.freeze()
    best = {name: [float("inf")] * parts for name in names}
    best_pass = {name: float("inf") for name in names}
    for r in range(rounds):
        this_pass = dict.fromkeys(names, 0.0)
        for j in range(parts):
            start = (j + r) % len(names)
            for name in names[start:] + names[:start]:
                run = runs[name]
                part = split[name][j]
                arg = run.fresh(part) if run.fresh else part
                gc.collect()
                t = time.perf_counter()
                run.body(arg)
                dt = time.perf_counter() - t
                best[name][j] = min(best[name][j], dt)
                this_pass[name] += dt
                del arg  # a fresh input is freed before the next row
        for name in names:
            best_pass[name] = min(best_pass[name], this_pass[name])
    return {name: sum(b) for name, b in best.items()}, best_pass


def _status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(field)


def rss_probe(corpus: Path, offset: int, length: int) -> None:
    """Run in a fresh process: peak RSS growth per parse of one frame already in memory,
    printed as JSON. The high-water mark is reset first (Linux `clear_refs` 5), so the figure
    is the peak during the parses above the resident set just before them."""
    with corpus.open("rb") as fh:
        fh.seek(offset)
        frame = fh.read(length)
    gm.parse_envelope_json(b'{"gm":1,"seq":1,"ts":1,"runId":"r","type":"mode.set","payload":{"mode":"run"}}')
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")
    before = _status_kib("VmRSS")
    # Several parses, results kept: one alone can land in pages the allocator has already
    # touched and read as ~0. The average is what one parsed frame costs at its peak.
    n = 4
    kept = [gm.parse_envelope_json(frame) for _ in range(n)]
    peak = _status_kib("VmHWM")
    print(json.dumps({"frame_bytes": len(frame), "kind": kept[0].kind, "peak_rss_growth": (peak - before) * 1024 // n}))


def memory(corpus: Path, frames: list[bytes]) -> dict[str, Any]:
    """Peak RSS growth while parsing the corpus's largest frame, measured in a fresh process;
    `ratio` is (frame + growth) / frame: memory in use for the frame while it is parsed."""
    import subprocess

    index = max(range(len(frames)), key=lambda i: len(frames[i]))
    offset = sum(len(f) + 1 for f in frames[:index])
    cmd = [sys.executable, __file__, str(corpus), "--rss-probe", f"{offset}:{len(frames[index])}"]
    m = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    m["ratio"] = (m["frame_bytes"] + m["peak_rss_growth"]) / m["frame_bytes"]
    return m


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", type=Path, help="write the results here")
    ap.add_argument("--skip-pydantic", action="store_true", help="pydantic is ~10x slower; skip it on the large corpus")
    ap.add_argument("--rss-probe", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.rss_probe is not None:
        off, length = a.rss_probe.split(":")
        rss_probe(a.corpus, int(off), int(length))
        return

    frames, labels = load(a.corpus)
    nbytes = sum(len(f) for f in frames)
    name = a.corpus.name.removesuffix(".jsonl")
    parse = gm.parse_envelope_json
    ms_classify = models.msgspec_classifier(msgspec.Raw)
    ms_any_union, _ = models.msgspec_models(Any)
    ms_any_label_fn = models.msgspec_classifier(Any)

    def ms_any_label(f: bytes) -> str:
        return ms_any_label_fn(f)[0]

    results: dict[str, Any] = {"corpus": name, "frames": len(frames), "bytes": nbytes, "rows": {}, "agreement": {}}

    # --- agreement, per frame, before any timing ----------------------------------------
    results["agreement"]["wirecontract"] = agreement(frames, labels, lambda f: KIND_LABEL[parse(f).kind])
    results["agreement"]["msgspec"] = agreement(frames, labels, lambda f: ms_classify(f)[0])
    results["agreement"]["msgspec_any"] = agreement(frames, labels, ms_any_label)
    pd_classify = None
    if not a.skip_pydantic:
        pd_classify = models.pydantic_classifier()
        results["agreement"]["pydantic"] = agreement(frames, labels, lambda f: pd_classify(f)[0])

    # --- parse + validate ------------------------------------------------------------------
    def run_wirecontract(part: list[bytes]) -> None:
        for f in part:
            parse(f)

    def run_orjson(part: list[bytes]) -> None:
        loads = orjson.loads
        for f in part:
            try:
                loads(f)
            except orjson.JSONDecodeError:
                pass

    def run_json(part: list[bytes]) -> None:
        loads = json.loads
        for f in part:
            try:
                loads(f)
            except ValueError:
                pass

    def run_msgspec(part: list[bytes]) -> None:
        for f in part:
            ms_classify(f)

    # simdjson's DOM parse: every byte validated as JSON and UTF-8 (what a verdict needs) by
    # its SIMD kernel chosen at run time (AVX2 on the recorded machine), a tape built, nothing
    # typed. A reference for what a validating parse of these frames costs at the state of
    # the art, not a competitor: it decides no verdict. The result is dropped before the next
    # parse (the parser reuses its buffers only once no document object refers to them).
    sj_parse = simdjson.Parser().parse

    def run_simdjson(part: list[bytes]) -> None:
        for f in part:
            try:
                sj_parse(f)
            except ValueError:  # not JSON, or not UTF-8
                pass
            except RuntimeError as e:  # too deep; anything else (a parser still in use) is a bug
                if not str(e).startswith("DEPTH_ERROR"):
                    raise

    ms_any_classify = models.msgspec_classifier(Any)

    def run_msgspec_any(part: list[bytes]) -> None:
        for f in part:
            ms_any_classify(f)

    def run_pydantic(part: list[bytes]) -> None:
        assert pd_classify is not None
        for f in part:
            pd_classify(f)

    # --- parse + full to_dict vs msgspec decode + to_builtins ------------------------------
    def run_wirecontract_to_dict(part: list[bytes]) -> None:
        for f in part:
            env = getattr(parse(f), "envelope", None)
            if env is not None:
                env.to_dict()

    any_decode = ms_any_union.decode
    to_builtins = msgspec.to_builtins

    def run_msgspec_to_builtins(part: list[bytes]) -> None:
        for f in part:
            try:
                to_builtins(any_decode(f))
            except msgspec.MsgspecError:
                pass

    # --- serialize the same envelopes ------------------------------------------------------
    envs = [e for e in (getattr(parse(f), "envelope", None) for f in frames) if e is not None]
    dicts = [e.to_dict() for e in envs]
    ser = gm.serialize_envelope
    dumps = orjson.dumps

    def run_serialize(part: list[Any]) -> None:
        for e in part:
            ser(e)

    # orjson.dumps gets dicts it has not serialized before, as an adapter's every message is:
    # dumping a non-ASCII `str` makes CPython keep its UTF-8 form inside the object
    # (PyUnicode_AsUTF8AndSize), and every later dump of the same object copies that instead
    # of encoding. The same dicts dumped again are timed too, as a reference.
    def orjson_dumps(ds: list[dict[str, Any]]) -> None:
        for d in ds:
            dumps(d)

    run_orjson_dumps = Run(envs, orjson_dumps, fresh=lambda part: [e.to_dict() for e in part])
    orjson_dumps(dicts)  # every str of `dicts` now holds its UTF-8 form

    # An adapter's whole send from Python values, made anew before each timed part: build the
    # envelope (the payload validated against its type) and serialize it. A reference row
    # against the same orjson.dumps, which validates nothing: the target rows start from a
    # built Envelope and a built dict. An envelope without a payload is built with None.
    create = gm.create_envelope

    def create_args(part: list[Any]) -> list[tuple[Any, ...]]:
        return [(d["type"], d.get("payload"), d["seq"], d["runId"], d["ts"]) for d in (e.to_dict() for e in part)]

    def create_serialize(args: list[tuple[Any, ...]]) -> None:
        for t, payload, seq, run_id, ts in args:
            ser(create(t, payload, seq, run_id, ts))

    run_create_serialize = Run(envs, create_serialize, fresh=create_args)

    ser_bytes = gm.serialize_envelope_bytes

    def run_serialize_bytes(part: list[Any]) -> None:
        for e in part:
            ser_bytes(e)

    # The floor of any `str`-returning serializer in an abi3 extension: CPython building a
    # `str` from the UTF-8 text (the limited API has no way to write a `str`'s characters
    # directly), timed alone on the same frames' bytes.
    serialized = [ser_bytes(e) for e in envs]

    def run_str_floor(part: list[bytes]) -> None:
        for b in part:
            b.decode("utf-8")

    runs: dict[str, Run] = {
        "wirecontract": Run(frames, run_wirecontract),
        "orjson": Run(frames, run_orjson),
        "json": Run(frames, run_json),
        "msgspec": Run(frames, run_msgspec),
        "simdjson": Run(frames, run_simdjson),
        "msgspec_any": Run(frames, run_msgspec_any),
        "wirecontract_to_dict": Run(frames, run_wirecontract_to_dict),
        "msgspec_to_builtins": Run(frames, run_msgspec_to_builtins),
        "wirecontract_serialize": Run(envs, run_serialize),
        "wirecontract_serialize_bytes": Run(envs, run_serialize_bytes),
        "orjson_dumps": run_orjson_dumps,
        "orjson_dumps_again": Run(dicts, orjson_dumps),
        "wirecontract_create_serialize": run_create_serialize,
        "str_floor": Run(serialized, run_str_floor),
    }
    if pd_classify is not None:
        runs["pydantic"] = Run(frames, run_pydantic)
    results["rows"], results["rows_best_pass"] = best_of_interleaved(a.rounds, runs)
    results["serialized_frames"] = len(envs)
    results["serialized_bytes"] = sum(len(dumps(d)) for d in dicts)

    results["memory"] = memory(a.corpus, frames)

    out = json.dumps(results, indent=1)
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(out + "\n")
    print(out)
    if results["agreement"]["wirecontract"]["disagree"]:
        raise SystemExit("wirecontract disagrees with the labels")


if __name__ == "__main__":
    main()
