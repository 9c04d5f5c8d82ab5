'use strict';
// Node.js payload shrinking: @wirecontract/node's shrinkPayload and serializePayload against a
// plain JSON.stringify of the same value (the reference's first step), on the 5 MB node.finished
// payload of benches/python/shrink_bench.py, shrunk to 524,288 bytes. Before timing, both outputs
// are checked byte for byte against graphmind-ai 0.5.1's (written by shrink_bench.py), and a
// difference fails the run. Best of --rounds, the rows interleaved within a round.
//
// Usage: node --expose-gc shrink_bench.js PAYLOAD.json EXPECTED.json [--rounds N] [--json OUT]

const fs = require('node:fs');
const path = require('node:path');

const REPO = path.resolve(__dirname, '..', '..');
const { shrinkPayload, serializePayload } = require(path.join(REPO, 'bindings', 'node'));

const MAX_BYTES = 524_288;
const TYPE = 'node.finished';

function main() {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => {
    const i = args.indexOf(name);
    return i < 0 ? dflt : args[i + 1];
  };
  const [payloadFile, expectedFile] = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
  const rounds = Number(opt('--rounds', 5));
  const text = fs.readFileSync(payloadFile, 'utf8');
  const expected = fs.readFileSync(expectedFile, 'utf8');
  const value = JSON.parse(text);

  const shrunk = shrinkPayload(value, MAX_BYTES, TYPE);
  const serialized = serializePayload(value, MAX_BYTES, TYPE);
  for (const [name, json] of [['shrinkPayload', shrunk.json], ['serializePayload', serialized.json]]) {
    if (json !== expected) {
      let at = 0;
      while (at < json.length && json[at] === expected[at]) at++;
      throw new Error(`${name} differs from graphmind-ai at character ${at}: ${JSON.stringify(json.slice(Math.max(0, at - 40), at + 40))}`);
    }
  }

  const rows = {
    json_stringify: () => JSON.stringify(value),
    shrink_payload: () => shrinkPayload(value, MAX_BYTES, TYPE),
    serialize_payload: () => serializePayload(value, MAX_BYTES, TYPE),
  };
  const best = Object.fromEntries(Object.keys(rows).map((k) => [k, Infinity]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, run] of Object.entries(rows)) {
      if (global.gc) global.gc();
      const t = process.hrtime.bigint();
      run();
      best[name] = Math.min(best[name], Number(process.hrtime.bigint() - t) / 1e9);
    }
  }
  const results = { node: process.version, payload_bytes: Buffer.byteLength(text), max_bytes: MAX_BYTES, type: TYPE, rounds, tier: shrunk.tier, agree: true, rows: best };
  const out = JSON.stringify(results, null, 1);
  const json = opt('--json');
  if (json) fs.writeFileSync(json, `${out}\n`);
  console.log(out);
}

main();
