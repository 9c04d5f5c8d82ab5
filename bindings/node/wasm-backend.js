'use strict';
// The WASM backend of @wirecontract/node: the addon's entry points (gmVerdict, goParse, ...)
// over the wasm-bindgen build of bindings/wasm, so that index.js runs unchanged on either.
//
// Frames cross as UTF-8: TextEncoder.encodeInto writes the string straight into a buffer in
// the module's memory. A string with a lone surrogate (no UTF-8 form) is written as UTF-16
// code units instead and converted inside the module as the addon converts it, so both
// backends decide every string as JSON.parse does. A trap (a panic: wasm32 aborts) becomes an
// Error and the module is instantiated again, so one bad call never poisons the next.

const encoder = new TextEncoder();
let glue; // the wasm-bindgen module (its exports plus initSync)
let compiled; // the WebAssembly.Module, kept to instantiate again after a trap
let wasm; // the instance's raw exports (memory)

/** Binds the backend to an initialized wasm-bindgen module: `glue` is the module namespace,
 *  `module` the compiled WebAssembly.Module and `exports` what its init returned. */
function bind(g, module, exports) {
  glue = g;
  compiled = module;
  wasm = exports;
}

function reinstantiate() {
  wasm = glue.initSync({ module: compiled });
}

/** Runs a call into the module; a trap becomes an Error after a fresh instance is made. */
function call(f) {
  try {
    return f();
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) {
      reinstantiate();
      // The one internal-error text of every binding (wirecontract-glue's PANIC_PREFIX).
      throw new Error(`internal error in wirecontract (please report): ${e.message}`);
    }
    throw e;
  }
}

/** Writes `text` into the module's frame buffer; its length in UTF-8 bytes. */
function put(text) {
  if (typeof text !== 'string') throw new TypeError('expected a string');
  if (!text.isWellFormed()) {
    const n = text.length;
    const at = glue.units_buffer(n);
    const units = new Uint16Array(wasm.memory.buffer, at, n);
    for (let i = 0; i < n; i++) units[i] = text.charCodeAt(i);
    return glue.units_to_frame(n);
  }
  // Exact for ASCII; a string that needs more bytes is written again into room for the
  // worst case (3 bytes per UTF-16 unit).
  let at = glue.frame_buffer(text.length);
  let { read, written } = encoder.encodeInto(text, new Uint8Array(wasm.memory.buffer, at, text.length));
  if (read < text.length) {
    at = glue.frame_buffer(text.length * 3);
    ({ written } = encoder.encodeInto(text, new Uint8Array(wasm.memory.buffer, at, text.length * 3)));
  }
  return written;
}

/** A verdict code as the addon returns it: 0/1, or the result object's JSON text. */
function verdictOf(code) {
  return code === 2 ? glue.take_text() : code;
}

const list = (items) => JSON.stringify(items);

/** The contract's ViewerSession over the module's class (wasm-bindgen), with the addon's
 *  methods and arguments (a frame crosses as UTF-8 through the frame buffer); viewer.js wraps
 *  either. */
class ViewerSession {
  #s;
  constructor(config) {
    this.#s = call(() => new glue.ViewerSession(config));
  }
  connectionOpened(conn) {
    call(() => this.#s.connectionOpened(conn));
  }
  connectionClosed(conn, nowMs) {
    call(() => this.#s.connectionClosed(conn, nowMs));
  }
  frameReceived(conn, text, nowMs) {
    return call(() => this.#s.frameReceived(conn, put(text), nowMs));
  }
  setBreakpoint(matcher, nowMs) {
    return call(() => this.#s.setBreakpoint(matcher, nowMs));
  }
  clearBreakpoint(matcher, nowMs) {
    return call(() => this.#s.clearBreakpoint(matcher, nowMs));
  }
  setMode(mode, nowMs) {
    call(() => this.#s.setMode(mode, nowMs));
  }
  resume(pauseId, action, nowMs, output, requestId) {
    call(() => this.#s.resume(pauseId, action, nowMs, output ?? undefined, requestId ?? undefined));
  }
  handleTimeout(nowMs) {
    call(() => this.#s.handleTimeout(nowMs));
  }
  pollAction() {
    return call(() => this.#s.pollAction()) ?? null;
  }
  pollTimeout() {
    return call(() => this.#s.pollTimeout()) ?? null;
  }
  breakpointsJson() {
    return call(() => this.#s.breakpointsJson());
  }
  mode() {
    return call(() => this.#s.mode());
  }
  openPausesJson() {
    return call(() => this.#s.openPausesJson());
  }
  retainsRun(runId) {
    return call(() => this.#s.retainsRun(runId));
  }
  retainedRuns() {
    return call(() => this.#s.retainedRuns());
  }
  retainedBytes() {
    return call(() => this.#s.retainedBytes());
  }
}

let schemas;
function schemaText(name) {
  // The committed schemas (generated/schema, copied in by build.sh): the module generates none.
  schemas ??= require('./schema/schemas.js');
  return schemas[name];
}

module.exports = {
  bind,
  backend: 'wasm',
  // api.js parses a frame with JSON.parse first and asks this module only when the generated
  // acceptance test (accept.js) cannot tell: an accepted frame then never crosses.
  acceptsFirst: true,
  gmVerdict: (text) => call(() => verdictOf(glue.gmVerdict(put(text)))),
  gmCheckWritten: (text) => call(() => verdictOf(glue.gmCheckWritten(put(text)))),
  gmBudgetPayload: (type, payload, max) =>
    call(() => {
      const tier = glue.gmBudgetPayload(type, put(payload), max);
      if (tier === 1) return { tier, json: null, error: null };
      const text = glue.take_text();
      return tier === 0 ? { tier, json: null, error: text } : { tier, json: text, error: null };
    }),
  gmShrinkPayloadJson: (text, max, type) =>
    call(() => {
      const tier = glue.gmShrinkPayloadJson(put(text), max, type ?? undefined);
      return { json: glue.take_text(), tier };
    }),
  gmShrinkUnserializable: (projection, keys, arrays, max, type) =>
    call(() => {
      const has = projection !== null && projection !== undefined;
      const tier = glue.gmShrinkUnserializable(has, has ? put(projection) : 0, list(keys), list(arrays), max, type ?? undefined);
      return { json: glue.take_text(), tier };
    }),
  gmNormalizeFinishReason: (raw, hasToolCalls) => call(() => glue.gmNormalizeFinishReason(raw, hasToolCalls) ?? null),
  gmReadUsage: (text) => call(() => glue.gmReadUsage(put(text)) ?? null),
  gmSchemaString: () => schemaText('graphmind'),
  gmMatchersEqual: (a, b) => call(() => glue.gmMatchersEqual(a, b)),
  gmMatcherMatches: (m, kind, name, point) => call(() => glue.gmMatcherMatches(m, kind, name, point)),
  gmShouldPause: (mode, bps, kind, name, point) => call(() => glue.gmPauseReason(mode, list(bps), kind, name, point) !== undefined),
  gmPauseReason: (mode, bps, kind, name, point) => call(() => glue.gmPauseReason(mode, list(bps), kind, name, point) ?? null),
  gmNegotiateHello: (hello, caps) => call(() => glue.gmNegotiateHello(hello, list(caps))),
  gmHelloAck: (hello, viewer, bps, mode, token, caps) =>
    call(() => glue.gmHelloAck(hello, viewer, list(bps), mode, token ?? undefined, caps == null ? undefined : list(caps))),
  goParse: (direction, text) => call(() => glue.goParse(direction, put(text))),
  parseFrameJson: (protocol, text) => call(() => glue.parseFrameJson(protocol, put(text))),
  goNegotiate: (offer) => call(() => glue.goNegotiate(list(offer)) ?? null),
  goParseTicket: (offer) => call(() => glue.goParseTicket(list(offer)) ?? null),
  goFormatTicket: (ticket) => call(() => glue.goFormatTicket(ticket)),
  goSchemaString: () => schemaText('graphorin'),
  registryJson: () => call(() => glue.registryJson()),
  constantsJson: () => call(() => glue.constantsJson()),
  contractId: () => call(() => glue.contractId()),
  version: () => call(() => glue.version()),
  ViewerSession,
};
