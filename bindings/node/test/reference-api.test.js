'use strict';
// The reference packages' names that are not parse functions of ours: Graphorin's schema
// objects (`ServerMessageSchema.safeParse`), its subprotocol helpers, and the README examples,
// run as written.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const pkg = require('..');
const { graphmind, graphorin } = pkg;
const { graphorinVectors, realClientFrames, nesting, SHALLOW, REPO } = require('../testlib/shared');

test('graphorin: ServerMessageSchema / ClientMessageSchema as the reference calls them', () => {
  let n = 0;
  for (const v of graphorinVectors()) {
    if (nesting(v.frame) > SHALLOW) continue;
    let value;
    try {
      value = JSON.parse(v.frame);
    } catch {
      continue; // the schemas take decoded values, as zod's do
    }
    const [schema, parseValue] = v.direction === 'client' ? [graphorin.ClientMessageSchema, graphorin.parseClientMessageValue] : [graphorin.ServerMessageSchema, graphorin.parseServerMessageValue];
    const r = schema.safeParse(value);
    assert.deepStrictEqual(r, parseValue(value), v.name);
    if (r.success) {
      assert.deepStrictEqual(schema.parse(value), r.data);
    } else {
      assert.throws(
        () => schema.parse(value),
        (e) => e instanceof graphorin.SchemaError && e instanceof Error && e.message === r.error.message && e.rpcErrorCode === r.error.rpcErrorCode && e.issues.length === r.error.issues.length,
        v.name,
      );
    }
    n++;
  }
  assert.ok(n > 100, `${n} vectors`);
  // A value that is not even an object.
  assert.equal(graphorin.ServerMessageSchema.safeParse(undefined).success, false);
});

test('graphorin: subprotocol helpers (§7)', () => {
  const NAME = graphorin.SUBPROTOCOL_NAME;
  assert.equal(graphorin.negotiateSubprotocol(NAME), NAME);
  assert.equal(graphorin.negotiateSubprotocol(` ticket.abc , ${NAME} `), NAME);
  assert.equal(graphorin.negotiateSubprotocol(['x', `ticket.t,${NAME}`]), NAME);
  assert.equal(graphorin.negotiateSubprotocol('Graphorin.protocol.v1'), null);
  assert.equal(graphorin.negotiateSubprotocol([]), null);
  for (const odd of [undefined, null, 42, {}, [42, null]]) assert.equal(graphorin.negotiateSubprotocol(odd), null);
  assert.equal(graphorin.parseTicketSubprotocol(`${NAME}, ticket., ticket.abc, ticket.def`), 'abc');
  assert.equal(graphorin.parseTicketSubprotocol([NAME]), undefined);
  assert.equal(graphorin.parseTicketSubprotocol(undefined), undefined);
  assert.equal(graphorin.formatTicketSubprotocol('abc'), 'ticket.abc');
  assert.equal(graphorin.parseTicketSubprotocol([NAME, graphorin.formatTicketSubprotocol('t0k')]), 't0k');
  assert.throws(() => graphorin.formatTicketSubprotocol(''), TypeError);
  assert.throws(() => graphorin.formatTicketSubprotocol(42), TypeError);
});

/** The ```js blocks of a Markdown file, or of its section `heading` (up to the next one). */
function jsBlocks(file, heading) {
  let text = fs.readFileSync(file, 'utf8');
  if (heading) {
    const start = text.indexOf(heading);
    assert.ok(start >= 0, `${heading} in ${file}`);
    const rest = text.slice(start + heading.length);
    const end = rest.indexOf('\n## ');
    text = end < 0 ? rest : rest.slice(0, end);
  }
  return [...text.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** Runs README code as a program would: `require('@wirecontract/node')` is this package, the
 *  free names (a frame, a socket, counters) are given. Returns what was sent. */
function runExample(code, frame) {
  const sent = [];
  const scope = {
    require: (name) => (name === '@wirecontract/node' ? pkg : require(name)),
    console: { log() {} },
    frame,
    text: '{"v":"1","kind":"event","eventId":"e1","subscriptionId":"s1","subject":"run:r1","type":"token","payload":{"t":"x"}}',
    ws: { send: (s) => sent.push(s) },
    seq: 1,
    runId: 'run_1',
    // An oversize node.finished payload, for the maxPayloadBytes line.
    payload: { nodeId: 'n1', durationMs: 12, status: 'ok', output: 'x'.repeat(600_000) },
  };
  new Function(...Object.keys(scope), code)(...Object.values(scope));
  return sent;
}

test('the README examples run as written', () => {
  const frames = realClientFrames().map((v) => v.frame);
  const blocks = [
    ...jsBlocks(path.join(REPO, 'README.md'), '## Node.js and TypeScript'),
    ...jsBlocks(path.join(__dirname, '..', 'README.md'), null).slice(0, 1),
  ];
  assert.equal(blocks.length, 2);
  for (const code of blocks) {
    for (const frame of [frames[0], frames[frames.length - 1], 'not json', '{"gm":2}']) {
      const sent = runExample(code, frame);
      assert.equal(sent.length, 1);
      assert.equal(graphmind.parseEnvelopeJson(sent[0]).kind, 'ok');
    }
  }
});

test("the root README's TypeScript block is examples/readme.ts, which tsc --strict checks", () => {
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Node.js and TypeScript'));
  const block = /```ts\n([\s\S]*?)```/.exec(section.slice(0, section.indexOf('\n## ', 5)));
  assert.ok(block, 'a ```ts block in the Node.js section');
  assert.equal(block[1], fs.readFileSync(path.join(__dirname, '..', 'examples', 'readme.ts'), 'utf8'));
});
