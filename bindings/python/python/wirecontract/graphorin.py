"""Graphorin's strict JSON-RPC frames (protocol v1, spec graphorin-v1).

Opposite policy to GraphMind: no negotiation, no tolerance. A frame parses into its typed
object or raises :class:`ParseError` (a ``ValueError``) with ``.issues`` (path, code,
message), ``.id`` (the raw id, JSON type kept) and ``.is_json`` (syntax vs schema)::

    try:
        msg = parse_client_message(frame)
    except ParseError as e:
        reply_error(e.reply_id, e.rpc_error_code, e.issues)
    else:
        if is_ping_request(msg): ...
"""

from typing import Any as _Any, Literal as _Literal, Union as _Union

from wirecontract._native import graphorin as _impl
from wirecontract._native import Issue
from wirecontract.graphmind import WireObject

ParseError = _impl.ParseError
parse_server_message = _impl.parse_server_message
parse_client_message = _impl.parse_client_message
parse_server_value = _impl.parse_server_value
parse_client_value = _impl.parse_client_value
build_server_message = _impl.build_server_message
build_client_message = _impl.build_client_message
serialize_message = _impl.serialize_message
variant = _impl.variant
negotiate = _impl.negotiate
parse_ticket = _impl.parse_ticket
format_ticket = _impl.format_ticket
close_code_for = _impl.close_code_for
close_code_reason = _impl.close_code_reason
export_json_schema = _impl.export_json_schema
export_json_schema_string = _impl.export_json_schema_string

PROTOCOL_VERSION = _impl.PROTOCOL_VERSION
SUBPROTOCOL_NAME = _impl.SUBPROTOCOL_NAME
TICKET_SUBPROTOCOL_PREFIX = _impl.TICKET_SUBPROTOCOL_PREFIX
WS_PATH = _impl.WS_PATH
JSONRPC_VERSION = _impl.JSONRPC_VERSION
SCHEMA_ID = _impl.SCHEMA_ID
KINDS = _impl.KINDS
METHODS = _impl.METHODS
# One tuple of wire values per enum whose declaration names a public constant
# (LIFECYCLE_STATUSES, SERVER_VARIANTS, CLIENT_VARIANTS), read from the registry.
_ENUM_CONSTANTS = tuple(_impl._ENUM_CONSTANTS)
globals().update({name: getattr(_impl, name) for name in _ENUM_CONSTANTS})
CLOSE_CODES = _impl.CLOSE_CODES
RPC_ERROR_CODES = _impl.RPC_ERROR_CODES

# Contract object classes, constructible with snake_case keyword arguments (constant members
# such as ``jsonrpc`` are filled in); the reader's strict rules apply.
_OBJECT_CLASSES = tuple(name for name in dir(_impl) if isinstance(getattr(_impl, name), type) and name != "ParseError")
globals().update({name: getattr(_impl, name) for name in _OBJECT_CLASSES})

# Type aliases the stubs use, as runtime objects: one Literal alias per closed enum of the
# registry (ServerVariant, CloseReason, ...), one union per frame union (ServerMessage,
# ClientMessage), and the JSON value type.
JsonValue = _Any
"""A JSON value converted to Python: dict, list, str, int, float, bool or None."""
_ENUM_ALIASES = tuple(_impl._ENUM_VALUES)
globals().update({name: _Literal[values] for name, values in _impl._ENUM_VALUES.items()})
_UNION_ALIASES = tuple(_impl._UNIONS)
globals().update({name: _Union[tuple(getattr(_impl, frame) for frame in frames)] for name, frames in _impl._UNIONS.items()})


def _guard(wire_variant: str):
    def guard(message, /) -> bool:
        try:
            return _impl.variant(message) == wire_variant
        except TypeError:
            return False

    return guard


_GUARD_NAMES = []
for _variant, _name in _impl.GUARDS:
    globals()[_name] = _guard(_variant)
    globals()[_name].__name__ = _name
    globals()[_name].__doc__ = f"True only for a {_variant!r} frame (exactly one guard is true per message)."
    _GUARD_NAMES.append(_name)

__all__ = [
    "ParseError", "parse_server_message", "parse_client_message", "parse_server_value", "parse_client_value",
    "build_server_message", "build_client_message", "serialize_message", "variant", "negotiate", "parse_ticket",
    "format_ticket", "close_code_for", "close_code_reason", "export_json_schema", "export_json_schema_string",
    "PROTOCOL_VERSION", "SUBPROTOCOL_NAME", "TICKET_SUBPROTOCOL_PREFIX", "WS_PATH", "JSONRPC_VERSION", "SCHEMA_ID",
    "KINDS", "METHODS", "CLOSE_CODES", "RPC_ERROR_CODES", *_ENUM_CONSTANTS,
    "Issue", "WireObject", "JsonValue", *_ENUM_ALIASES, *_UNION_ALIASES, *_OBJECT_CLASSES, *_GUARD_NAMES,
]
