// A viewer's host over ViewerSession, the same code in Node.js and in a page: the host owns the
// sockets and the clock, the session decides the rest (handshake, de-duplication, pauses, runs).
// `wc` is '@wirecontract/node' (the addon in Node, the WASM build in a browser bundle); a
// connection is anything with send(text) and close(code, reason). README.md shows this file;
// the browser suite runs it in Chromium and in Node over both backends.
export function createViewer(wc, { onFrame = () => {}, onPause = () => {}, now = () => Date.now() } = {}) {
  const session = new wc.ViewerSession({ tokenPrefix: `tok_${Math.random().toString(36).slice(2)}_` });
  const sockets = new Map();
  let nextConn = 1;
  let timer;
  function drain() {
    for (const a of session.pollActions()) {
      if (a.type === 'send') sockets.get(a.conn)?.send(a.frame);
      else if (a.type === 'close') sockets.get(a.conn)?.close(a.code, a.reason);
      else if (a.type === 'frame-accepted') onFrame(a.envelope);
      else if (a.type === 'pause-opened') onPause(a);
    }
    clearTimeout(timer);
    const due = session.pollTimeout(); // resume waits, abandon graces
    if (due !== undefined) timer = setTimeout(() => (session.handleTimeout(now()), drain()), Math.max(0, due - now()));
  }
  return {
    session,
    /** One app connection: feed its text messages and its close to the returned handlers. */
    connect(socket) {
      const conn = nextConn++;
      sockets.set(conn, socket);
      session.connectionOpened(conn);
      return {
        message: (text) => (session.frameReceived(conn, text, now()), drain()),
        closed: () => (sockets.delete(conn), session.connectionClosed(conn, now()), drain()),
      };
    },
    /** The user's answer to a pause ('continue', 'retry', 'inject' with {output}, 'abort'). */
    resume: (pauseId, action, options) => (session.resume(pauseId, action, now(), options), drain()),
    stop: () => clearTimeout(timer),
  };
}
