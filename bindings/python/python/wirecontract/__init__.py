"""wirecontract: agent-debugger wire contracts, compiled from one Rust contract crate.

Submodules:

- :mod:`wirecontract.graphmind`: the GraphMind live-debugger protocol v1.
- :mod:`wirecontract.graphorin`: Graphorin's strict JSON-RPC frames v1.
"""

from wirecontract._native import BuildError, __version__
from wirecontract import graphmind, graphorin

__all__ = ["BuildError", "__version__", "graphmind", "graphorin"]
