"""The GraphMind wire protocol v1 (``gm: 1``).

``parse_envelope_json(frame)`` never raises for bad input; it returns one of four result
classes, usable in ``match`` statements::

    match parse_envelope_json(frame):
        case Ok(envelope): ...
        case UnknownType(envelope): ...
        case VersionMismatch(received, supported): ...
        case Invalid(reason, issues): ...

Payloads are typed objects (``NodeStarted``, ``ExecPaused``, ...) with snake_case attributes;
opaque values (``input``, ``output``, ``meta`` values, unknown fields) convert to Python values
on access; ``.to_dict()`` gives the wire-shaped dict. Spec: graphmind-v1.md.
"""

from typing import Any as _Any, Literal as _Literal, Union as _Union

from wirecontract._native import BuildError, Issue
from wirecontract._native import graphmind as _impl

# Result classes.
Ok = _impl.Ok
UnknownType = _impl.UnknownType
VersionMismatch = _impl.VersionMismatch
Invalid = _impl.Invalid
Envelope = _impl.Envelope
WireObject = _impl.WireObject
Shrunk = _impl.Shrunk
Accepted = _impl.Accepted
Refused = _impl.Refused

# Functions.
parse_envelope_json = _impl.parse_envelope_json
parse_envelope = _impl.parse_envelope
create_envelope = _impl.create_envelope
create_unknown_envelope = _impl.create_unknown_envelope
serialize_envelope = _impl.serialize_envelope
serialize_envelope_bytes = _impl.serialize_envelope_bytes
export_json_schema = _impl.export_json_schema
export_json_schema_string = _impl.export_json_schema_string
matchers_equal = _impl.matchers_equal
matcher_matches = _impl.matcher_matches
should_pause = _impl.should_pause
pause_reason = _impl.pause_reason
negotiate_hello = _impl.negotiate_hello
hello_ack = _impl.hello_ack
breakpoint_matcher = _impl.breakpoint_matcher
shrink_payload = _impl.shrink_payload
shrink_payload_json = _impl.shrink_payload_json
normalize_finish_reason = _impl.normalize_finish_reason
read_usage = _impl.read_usage
UsageView = _impl.UsageView

# Constants.
PROTOCOL_VERSION = _impl.PROTOCOL_VERSION
WILDCARD_RUN_ID = _impl.WILDCARD_RUN_ID
DEFAULT_MAX_FRAME_BYTES = _impl.DEFAULT_MAX_FRAME_BYTES
DEFAULT_MAX_DEPTH = _impl.DEFAULT_MAX_DEPTH
DEFAULT_MAX_PAYLOAD_BYTES = _impl.DEFAULT_MAX_PAYLOAD_BYTES
MESSAGE_TYPES = _impl.MESSAGE_TYPES
EVENT_TYPES = _impl.EVENT_TYPES
CONTROL_TYPES = _impl.CONTROL_TYPES
HANDSHAKE_TYPES = _impl.HANDSHAKE_TYPES
KNOWN_CAPABILITIES = _impl.KNOWN_CAPABILITIES
SCHEMA_ID = _impl.SCHEMA_ID
# One tuple of wire values per enum whose declaration names a public constant (NODE_KINDS,
# RUN_STATUSES, ...), read from the registry.
_ENUM_CONSTANTS = tuple(_impl._ENUM_CONSTANTS)
globals().update({name: getattr(_impl, name) for name in _ENUM_CONSTANTS})

# Contract object classes (payloads and nested objects): constructible with snake_case
# keyword arguments (``NodeToken(node_id="n", deltas=[TokenDelta(t="text", v="hi")])``),
# unknown members through ``extra=``; ``"output" in payload`` tells present (even null) from
# absent.
OBJECT_TYPES = _impl.OBJECT_TYPES
_OBJECT_CLASSES = OBJECT_TYPES
globals().update({name: getattr(_impl, name) for name in _OBJECT_CLASSES})

# Type aliases the stubs use, as runtime objects (so annotations evaluate and
# typing.get_type_hints works): one Literal alias per closed enum of the registry
# (NodeKind, PausePoint, ...), the payload union and the JSON value type.
JsonValue = _Any
"""A JSON value converted to Python: dict, list, str, int, float, bool or None."""
_ENUM_ALIASES = tuple(_impl._ENUM_VALUES)
globals().update({name: _Literal[values] for name, values in _impl._ENUM_VALUES.items()})
Payload = _Union[tuple(getattr(_impl, name) for name in dict.fromkeys(_impl._PAYLOAD_TYPES.values()))]
"""Every message type's payload class."""

ParseResult = Ok | UnknownType | VersionMismatch | Invalid

__all__ = [
    "BuildError", "Ok", "UnknownType", "VersionMismatch", "Invalid", "Issue", "Envelope", "WireObject", "Shrunk", "Accepted", "Refused",
    "ParseResult", "parse_envelope_json", "parse_envelope", "create_envelope", "create_unknown_envelope",
    "serialize_envelope", "serialize_envelope_bytes", "export_json_schema", "export_json_schema_string", "matchers_equal",
    "matcher_matches", "should_pause", "pause_reason", "negotiate_hello", "hello_ack", "breakpoint_matcher", "shrink_payload", "shrink_payload_json", "normalize_finish_reason", "read_usage", "UsageView", "PROTOCOL_VERSION", "WILDCARD_RUN_ID",
    "DEFAULT_MAX_FRAME_BYTES", "DEFAULT_MAX_DEPTH", "DEFAULT_MAX_PAYLOAD_BYTES", "MESSAGE_TYPES", "EVENT_TYPES", "CONTROL_TYPES",
    "HANDSHAKE_TYPES", "KNOWN_CAPABILITIES", "SCHEMA_ID", "OBJECT_TYPES", "JsonValue", "Payload",
    *_ENUM_CONSTANTS, *_ENUM_ALIASES, *_OBJECT_CLASSES,
]
