'use strict';
// ViewerSession for the WASM backend: the contract's sans-IO viewer (graphmind-session §5;
// de-duplication, the handshake, pause bookkeeping, resume routing, fail-open) with plain
// JavaScript arguments and results. The host owns the sockets and the clock: it feeds frames
// and connection events in with a millisecond reading, then carries out every polled action.

/** Builds the ViewerSession class over a backend that has one (the WASM build). */
function makeViewerSession(native) {
  const texts = (list, what) => {
    if (!Array.isArray(list)) throw new TypeError(`${what} must be an array`);
    return JSON.stringify(Array.from(list, (v, i) => {
      const t = JSON.stringify(v);
      if (t === undefined) throw new TypeError(`${what}[${i}] is not JSON`);
      return t;
    }));
  };
  const strings = (list, what) => {
    if (!Array.isArray(list) || !list.every((s) => typeof s === 'string')) throw new TypeError(`${what} must be an array of strings`);
    return JSON.stringify(list);
  };
  const json = (v, what) => {
    const t = JSON.stringify(v);
    if (t === undefined) throw new TypeError(`${what} must be a JSON value`);
    return t;
  };
  const KEYS = ['mode', 'viewerVersion', 'tokenPrefix', 'maxResumeTokenLen', 'resumeWaitMs', 'abandonGraceMs', 'maxRetainedRuns', 'maxRetainedBytes', 'maxSeqsPerRun', 'maxTrackedPauses'];

  return class ViewerSession {
    #s;
    /** Options: `breakpoints` (matchers; default `[{point:'error'}]`), `mode` ('run'),
     *  `viewerVersion`, `hubCapabilities`, `tokenPrefix` (pass a random one), `resumeWaitMs`
     *  (5000), `abandonGraceMs` (15000), `maxResumeTokenLen`, `maxRetainedRuns`,
     *  `maxRetainedBytes`, `maxSeqsPerRun`, `maxTrackedPauses`. */
    constructor(options = {}) {
      if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
      const c = {};
      for (const k of KEYS) if (options[k] !== undefined) c[k] = options[k];
      if (options.breakpoints !== undefined) c.breakpoints = texts(options.breakpoints, 'breakpoints');
      if (options.hubCapabilities !== undefined) c.hubCapabilities = strings(options.hubCapabilities, 'hubCapabilities');
      this.#s = native.viewerSession(JSON.stringify(c));
    }
    connectionOpened(conn) {
      native.call(() => this.#s.connectionOpened(conn));
    }
    connectionClosed(conn, nowMs) {
      native.call(() => this.#s.connectionClosed(conn, nowMs));
    }
    /** One text frame from `conn`: `{kind, replayed}` (`kind` 'hello', 'accepted',
     *  'duplicate', 'wildcard' or 'rejected'); the actions it queued come from pollAction. */
    frameReceived(conn, text, nowMs) {
      const r = native.call(() => this.#s.frameReceived(conn, native.putFrame(String(text)), nowMs));
      const replayed = r.endsWith('-replayed');
      return { kind: replayed ? r.slice(0, -9) : r, replayed };
    }
    setBreakpoint(matcher, nowMs) {
      return native.call(() => this.#s.setBreakpoint(json(matcher, 'matcher'), nowMs));
    }
    clearBreakpoint(matcher, nowMs) {
      return native.call(() => this.#s.clearBreakpoint(json(matcher, 'matcher'), nowMs));
    }
    setMode(mode, nowMs) {
      native.call(() => this.#s.setMode(mode, nowMs));
    }
    /** Sends exec.resume for an open pause; throws an Error with `.code` ('unknown-pause',
     *  'released-by-disconnect', 'owner-gone') when nothing was sent. */
    resume(pauseId, action, nowMs, { output, requestId } = {}) {
      try {
        native.call(() => this.#s.resume(pauseId, action, nowMs, output === undefined ? undefined : json(output, 'output'), requestId ?? undefined));
      } catch (e) {
        const m = /^(unknown-pause|released-by-disconnect|owner-gone): /.exec(e.message);
        if (m) {
          const err = new Error(e.message.slice(m[0].length));
          err.name = 'ResumeError';
          err.code = m[1];
          throw err;
        }
        throw e;
      }
    }
    handleTimeout(nowMs) {
      native.call(() => this.#s.handleTimeout(nowMs));
    }
    /** The next action (`{type:'send'|'close'|'app-attached'|'frame-accepted'|
     *  'pause-opened'|'pause-closed'|'pause-released'|'resume-refused'|'resume-timed-out'|
     *  'run-abandoned'|'warn', ...}`), or undefined. */
    pollAction() {
      const t = native.call(() => this.#s.pollAction());
      return t === undefined ? undefined : JSON.parse(t);
    }
    pollActions() {
      const out = [];
      for (let a = this.pollAction(); a !== undefined; a = this.pollAction()) out.push(a);
      return out;
    }
    /** When handleTimeout is next due (ms), or undefined. */
    pollTimeout() {
      return native.call(() => this.#s.pollTimeout());
    }
    get breakpoints() {
      return JSON.parse(native.call(() => this.#s.breakpointsJson()));
    }
    get mode() {
      return native.call(() => this.#s.mode());
    }
    get openPauses() {
      return JSON.parse(native.call(() => this.#s.openPausesJson()));
    }
    get retainedRuns() {
      return native.call(() => this.#s.retainedRuns());
    }
    get retainedBytes() {
      return native.call(() => this.#s.retainedBytes());
    }
  };
}

module.exports = { makeViewerSession };
