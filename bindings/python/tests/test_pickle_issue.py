"""Issues and the errors that carry them cross process boundaries: ``Issue`` pickles (through
its constructor), ``BuildError``, Graphorin's ``ParseError`` and ``ResumeError`` raised by real
bad input unpickle with every attribute, also through a ``ProcessPoolExecutor``. ``Issue``
refuses a code the contract does not define. The enum constants come from the registry."""

from __future__ import annotations

import copy
import pickle
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import pytest

import wirecontract
from wirecontract import BuildError, Issue
from wirecontract import graphmind as gm
from wirecontract import graphorin as go
from wirecontract.graphmind import session as s

# The contract's IssueCode values (contract/src/wire/issue.rs), spelled out so a change to them
# is a visible, reviewed change of this public behaviour.
ISSUE_CODES = (
    "invalid_type", "invalid_literal", "unrecognized_keys", "too_small", "too_big", "invalid_enum",
    "invalid_discriminator", "custom",
)


def real_build_error() -> BuildError:
    with pytest.raises(BuildError) as ei:
        gm.create_envelope("node.token", {"nodeId": "n", "deltas": [{"t": "bogus", "v": 1}]}, 1, "r")
    return ei.value


def real_parse_error() -> go.ParseError:
    with pytest.raises(go.ParseError) as ei:
        go.parse_client_message('{"v":"1","jsonrpc":"2.0","id":"abc","method":"ping","extra":1}')
    return ei.value


def real_resume_error() -> s.ResumeError:
    v = s.ViewerSession(breakpoints=[], token_prefix="t_")
    with pytest.raises(s.ResumeError) as ei:
        v.resume("nope", "continue", 5)
    return ei.value


def test_issue_round_trips_through_pickle() -> None:
    for issue in (Issue("payload.mode", "bad"), Issue("", "root", "custom"), Issue("a.0", "x", code=None)):
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            back = pickle.loads(pickle.dumps(issue, protocol=protocol))
            assert type(back) is Issue
            assert back == issue and hash(back) == hash(issue)
            assert (back.path, back.message, back.code) == (issue.path, issue.message, issue.code)
    assert Issue("p", "m") != Issue("p", "m", "custom")


def test_issue_segments_are_the_path_root_first() -> None:
    # From a parser: the build error's issue path and its segments say the same place.
    issue = real_build_error().issues[0]
    assert issue.path == "payload.deltas.0.t"
    assert issue.segments == ("payload", "deltas", 0, "t")
    assert go_issue_segments() == [("extra",)]
    # Built by hand: the path split at ".", a run of digits an index; the root has none.
    assert Issue("a.0.b", "m").segments == ("a", 0, "b")
    assert Issue("", "m").segments == ()
    # A key holding "." (or all digits) needs its segments: they must spell the path.
    dotted_key = Issue("p.a.b", "m", segments=["p", "a.b"])
    assert dotted_key.segments == ("p", "a.b") and dotted_key.path == "p.a.b"
    assert dotted_key != Issue("p.a.b", "m")
    assert Issue("a.0", "m", segments=("a", 0)) == Issue("a.0", "m")
    assert hash(Issue("a.0", "m", segments=("a", 0))) == hash(Issue("a.0", "m"))
    with pytest.raises(ValueError, match="join to"):
        Issue("a.b", "m", segments=["a", "c"])
    with pytest.raises(TypeError):
        Issue("a.1", "m", segments=["a", True])
    with pytest.raises(ValueError):
        Issue("a.-1", "m", segments=["a", -1])
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(dotted_key, protocol=protocol))
        assert back == dotted_key and back.segments == ("p", "a.b") and hash(back) == hash(dotted_key)


def test_a_zero_padded_or_huge_segment_is_a_key_and_round_trips() -> None:
    # Only an index as the dotted form writes one is an index, so the segments spell the path
    # again and pickling, which rebuilds through the constructor, accepts them.
    for path, segments in [("x.007", ("x", "007")), ("a.00", ("a", "00")), ("x.18446744073709551616", ("x", "18446744073709551616"))]:
        issue = Issue(path, "m")
        assert issue.segments == segments
        assert pickle.loads(pickle.dumps(issue)) == issue and copy.deepcopy(issue) == issue and copy.copy(issue) == issue


def go_issue_segments() -> list[tuple[str | int, ...]]:
    return [i.segments for i in real_parse_error().issues]


def test_build_error_from_bad_input_round_trips() -> None:
    e = real_build_error()
    assert e.issues and all(isinstance(i, Issue) for i in e.issues)
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is BuildError and isinstance(back, ValueError)
    assert str(back) == str(e) and back.reason == e.reason and back.issues == e.issues
    # A BuildError about one argument (lone surrogate) too.
    with pytest.raises(BuildError) as ei:
        gm.create_envelope("mode.set", {"mode": "run"}, 1, "\udc00")
    back = pickle.loads(pickle.dumps(ei.value))
    assert back.issues == ei.value.issues and back.reason == ei.value.reason


def test_graphorin_parse_error_round_trips() -> None:
    e = real_parse_error()
    assert e.issues and e.issues[0].code is not None
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is go.ParseError
    assert str(back) == str(e) and back.issues == e.issues
    assert (back.id, back.reply_id, back.is_syntax_error, back.is_json, back.rpc_error_code) == (
        e.id, e.reply_id, e.is_syntax_error, e.is_json, e.rpc_error_code,
    )


def test_resume_error_round_trips() -> None:
    e = real_resume_error()
    assert type(e).__module__ == "wirecontract.graphmind.session"
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is s.ResumeError and back.code == e.code == "unknown-pause" and str(back) == str(e)


def _raise_build_error() -> None:
    gm.create_envelope("node.token", {"nodeId": "n", "deltas": [{"t": "bogus", "v": 1}]}, 1, "r")


def _raise_parse_error() -> None:
    go.parse_client_message('{"v":"1","jsonrpc":"2.0","id":"abc","method":"ping","extra":1}')


def _issues_of_bad_frame() -> list[Issue]:
    out = gm.parse_envelope_json('{"gm":1,"seq":1,"ts":1,"runId":"r","type":"mode.set","payload":{"mode":"walk"}}')
    assert isinstance(out, gm.Invalid)
    return list(out.issues)


def test_errors_cross_a_process_pool() -> None:
    # spawn: a fresh interpreter that shares nothing with this one, so everything is pickled.
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        with pytest.raises(BuildError) as ei:
            pool.submit(_raise_build_error).result()
        local = real_build_error()
        assert ei.value.issues == local.issues and ei.value.reason == local.reason
        with pytest.raises(go.ParseError) as pe:
            pool.submit(_raise_parse_error).result()
        assert pe.value.issues == real_parse_error().issues and pe.value.id == "abc"
        issues = pool.submit(_issues_of_bad_frame).result()
        assert issues == _issues_of_bad_frame() and issues[0].path == "payload.mode"


def test_issue_refuses_an_unknown_code() -> None:
    with pytest.raises(ValueError) as ei:
        Issue("p", "m", "bogus")
    text = str(ei.value)
    assert "bogus" in text and all(code in text for code in ISSUE_CODES)
    with pytest.raises(ValueError):
        Issue("p", "m", code="")
    with pytest.raises(ValueError):
        Issue("p", "m", code="Invalid_Type")  # codes are exact
    for code in ISSUE_CODES:
        assert Issue("p", "m", code).code == code


def test_issue_codes_given_by_parsers_are_accepted_by_the_constructor() -> None:
    e = real_parse_error()
    for i in e.issues:
        assert Issue(i.path, i.message, i.code) == i


def test_enum_constants_keep_their_names_and_values() -> None:
    # The values in the order of the JSON Schema (schemars' path from the declarations), so a value
    # added to the contract needs no edit here.
    defs = gm.export_json_schema()["$defs"]
    for name, enum in [("NODE_KINDS", "NodeKind"), ("RUN_STATUSES", "RunStatus"), ("PAUSE_POINTS", "PausePoint"),
                       ("RESUME_ACTIONS", "ResumeAction"), ("RUN_MODES", "RunMode")]:
        assert getattr(gm, name) == tuple(defs[enum]["enum"]), name
    assert gm.FINISH_REASONS == ("stop", "length", "tool-calls", "content-filter", "error", "other")
    assert set(gm._ENUM_CONSTANTS) == {"NODE_KINDS", "RUN_STATUSES", "PAUSE_POINTS", "RESUME_ACTIONS", "RUN_MODES", "FINISH_REASONS"}
    assert go.LIFECYCLE_STATUSES == ("running", "paused", "completed", "aborted", "failed")
    assert go.METHODS == go.CLIENT_VARIANTS
    assert set(go.SERVER_VARIANTS) >= set(go.KINDS) | {"rpc-success", "rpc-failure"}
    assert set(go._ENUM_CONSTANTS) == {"LIFECYCLE_STATUSES", "SERVER_VARIANTS", "CLIENT_VARIANTS"}
    for module in (gm, go):
        for name, enum in module._impl._ENUM_CONSTANTS.items():
            assert name in module.__all__
            assert getattr(module, name) == module._impl._ENUM_VALUES[enum]
    assert wirecontract.graphmind.NODE_KINDS is gm._impl.NODE_KINDS
