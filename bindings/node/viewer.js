'use strict';
// ViewerSession: the contract's sans-IO viewer (graphmind-session §5; de-duplication, the
// handshake, pause bookkeeping, resume routing, fail-open, run tracking) with plain JavaScript
// arguments and results, over the backend's class (the addon's src/viewer.rs or the WASM
// build's; both convert with bindings/js-text's viewer_text). The host owns the sockets and the clock: it
// feeds frames and connection events in with a millisecond reading, then carries out every
// polled action. This file checks argument types only, so both backends refuse the same calls
// with the same TypeError; every rule is the contract's.

/** Builds the ViewerSession class over a backend (its `ViewerSession` class). */
function makeViewerSession(native) {
  const num = (v, what) => {
    if (typeof v !== 'number') throw new TypeError(`${what} must be a number, got ${v === null ? 'null' : typeof v}`);
    return v;
  };
  const str = (v, what) => {
    if (typeof v !== 'string') throw new TypeError(`${what} must be a string, got ${v === null ? 'null' : typeof v}`);
    return v;
  };
  const json = (v, what) => {
    let t;
    try {
      t = JSON.stringify(v);
    } catch (e) {
      throw new TypeError(`${what} is not JSON-serializable: ${e && e.message}`);
    }
    if (t === undefined) throw new TypeError(`${what} must be a JSON value`);
    return t;
  };
  const texts = (list, what) => {
    if (!Array.isArray(list)) throw new TypeError(`${what} must be an array`);
    return JSON.stringify(Array.from(list, (v, i) => json(v, `${what}[${i}]`)));
  };
  const strings = (list, what) => {
    if (!Array.isArray(list) || !list.every((s) => typeof s === 'string')) throw new TypeError(`${what} must be an array of strings`);
    return JSON.stringify(list);
  };
  const CODE = /^(unknown-pause|released-by-disconnect|owner-gone): /;
  // The contract's frame cap (graphmind-v1 §3). A frame longer than this in UTF-16 units is
  // longer in UTF-8 bytes too, and the contract refuses it from its length alone: it crosses
  // as its first MAX_FRAME_BYTES + 1 units, so a frame of any size never costs more than a
  // frame at the cap (the WASM build's memory grows and never shrinks; docs/robustness.md,
  // "Resource limits").
  const MAX_FRAME_BYTES = JSON.parse(native.constantsJson()).graphmind.DEFAULT_MAX_FRAME_BYTES;

  return class ViewerSession {
    #s;
    /** Options: `breakpoints` (matchers; default `[{point:'error'}]`), `mode` ('run'),
     *  `viewerVersion`, `hubCapabilities`, `tokenPrefix` (pass a random one), `resumeWaitMs`
     *  (5000), `abandonGraceMs` (15000), `maxResumeTokenLen`, `maxRetainedRuns`,
     *  `maxRetainedBytes`, `maxSeqsPerRun`, `maxTrackedPauses`. */
    constructor(options = {}) {
      if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
      // Every option goes to the contract, which refuses an unknown one (a misspelt option is
      // an error, not a default).
      const c = {};
      for (const [k, v] of Object.entries(options)) {
        if (v === undefined) continue;
        c[k] = k === 'breakpoints' ? texts(v, k) : k === 'hubCapabilities' ? strings(v, k) : v;
      }
      this.#s = new native.ViewerSession(json(c, 'options'));
    }
    /** A new app connection `conn` (an id the host picks; also implied by its first frame). */
    connectionOpened(conn) {
      this.#s.connectionOpened(num(conn, 'conn'));
    }
    /** `conn` closed: its open pauses are released (fail-open) and its runs start the abandon grace. */
    connectionClosed(conn, nowMs) {
      this.#s.connectionClosed(num(conn, 'conn'), num(nowMs, 'nowMs'));
    }
    /** One text frame from `conn`: `{kind, replayed}` (`kind` 'hello', 'accepted',
     *  'duplicate', 'wildcard' or 'rejected'); the actions it queued come from pollAction. */
    frameReceived(conn, text, nowMs) {
      let t = String(text);
      if (t.length > MAX_FRAME_BYTES) t = t.slice(0, MAX_FRAME_BYTES + 1);
      const r = this.#s.frameReceived(num(conn, 'conn'), t, num(nowMs, 'nowMs'));
      const replayed = r.endsWith('-replayed');
      return { kind: replayed ? r.slice(0, -9) : r, replayed };
    }
    /** Arms a breakpoint and broadcasts the set; whether it was new. */
    setBreakpoint(matcher, nowMs) {
      return this.#s.setBreakpoint(json(matcher, 'matcher'), num(nowMs, 'nowMs'));
    }
    /** Removes the breakpoints equal to `matcher`; how many were removed. */
    clearBreakpoint(matcher, nowMs) {
      return this.#s.clearBreakpoint(json(matcher, 'matcher'), num(nowMs, 'nowMs'));
    }
    /** Sets the run mode ('run' or 'step') and broadcasts it. */
    setMode(mode, nowMs) {
      this.#s.setMode(str(mode, 'mode'), num(nowMs, 'nowMs'));
    }
    /** Sends exec.resume for an open pause; throws an Error named ResumeError with `.code`
     *  ('unknown-pause', 'released-by-disconnect', 'owner-gone') when nothing was sent. */
    resume(pauseId, action, nowMs, { output, requestId } = {}) {
      const out = output === undefined ? undefined : json(output, 'output');
      const req = requestId === undefined || requestId === null ? undefined : str(requestId, 'requestId');
      try {
        this.#s.resume(str(pauseId, 'pauseId'), str(action, 'action'), num(nowMs, 'nowMs'), out, req);
      } catch (e) {
        const m = CODE.exec(e && e.message);
        if (m) {
          const err = new Error(e.message.slice(m[0].length));
          err.name = 'ResumeError';
          err.code = m[1];
          throw err;
        }
        throw e;
      }
    }
    /** Fires the resume waits and abandon graces due at `nowMs`. */
    handleTimeout(nowMs) {
      this.#s.handleTimeout(num(nowMs, 'nowMs'));
    }
    /** The next action (`{type:'send'|'close'|'app-attached'|'frame-accepted'|
     *  'pause-opened'|'pause-closed'|'pause-released'|'resume-refused'|'resume-timed-out'|
     *  'run-abandoned'|'warn', ...}`), or undefined. */
    pollAction() {
      const t = this.#s.pollAction();
      return t === null || t === undefined ? undefined : JSON.parse(t);
    }
    /** Every queued action, oldest first. */
    pollActions() {
      const out = [];
      for (let a = this.pollAction(); a !== undefined; a = this.pollAction()) out.push(a);
      return out;
    }
    /** When handleTimeout is next due (ms), or undefined. */
    pollTimeout() {
      return this.#s.pollTimeout() ?? undefined;
    }
    /** Whether the session still holds state for `runId` (its de-duplication keys, owner and
     *  pauses); a host keeping per-run state drops a run the session no longer retains. */
    retainsRun(runId) {
      return this.#s.retainsRun(str(runId, 'runId'));
    }
    get breakpoints() {
      return JSON.parse(this.#s.breakpointsJson());
    }
    get mode() {
      return this.#s.mode();
    }
    get openPauses() {
      return JSON.parse(this.#s.openPausesJson());
    }
    get retainedRuns() {
      return this.#s.retainedRuns();
    }
    get retainedBytes() {
      return this.#s.retainedBytes();
    }
  };
}

module.exports = { makeViewerSession };
