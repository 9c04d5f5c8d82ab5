'use strict';
// Staleness: index.js refuses a native addon built from another contract than the
// declarations it ships with (contract-id.json, written with index.d.ts by build.sh), naming
// the fix. Checked on a copy of the package in a child process, so this process keeps its
// own addon.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { CONTRACT_ID } = require('..');

const PKG = path.resolve(__dirname, '..');

/** A copy of the package whose contract-id.json holds `record` (or none), loaded by a child. */
function loadCopy(record) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wirecontract-node-'));
  try {
    // The package's own files (package.json's list, directories and the record left out), the
    // addon built here, and package.json.
    const files = require('../package.json').files.filter((f) => !f.endsWith('/') && f !== 'contract-id.json');
    for (const f of [...files, 'wirecontract.node', 'package.json']) fs.copyFileSync(path.join(PKG, f), path.join(dir, f));
    if (record !== undefined) fs.writeFileSync(path.join(dir, 'contract-id.json'), record);
    return spawnSync(process.execPath, ['-e', `require(${JSON.stringify(dir)}); console.log('loaded')`], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('the addon and the declarations come from the same contract', () => {
  assert.match(CONTRACT_ID, /^[0-9a-f]{16}$/);
  assert.equal(JSON.parse(fs.readFileSync(path.join(PKG, 'contract-id.json'), 'utf8')).contractId, CONTRACT_ID);
  assert.match(fs.readFileSync(path.join(PKG, 'index.d.ts'), 'utf8'), new RegExp(`CONTRACT_ID: "${CONTRACT_ID}"`));
});

test('a copy with its own record loads', () => {
  const r = loadCopy(JSON.stringify({ contractId: CONTRACT_ID }));
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'loaded');
});

test('an addon from another contract is refused with the fix named', () => {
  const r = loadCopy(JSON.stringify({ contractId: '0123456789abcdef' }));
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /built from another contract \(addon [0-9a-f]{16}, declarations 0123456789abcdef\)/);
  assert.match(r.stderr, /scripts\/regen/);
  assert.match(r.stderr, /bindings\/node\/build\.sh/);
});

test('a missing record is refused with the fix named', () => {
  const r = loadCopy(undefined);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /contract-id\.json is missing/);
  assert.match(r.stderr, /scripts\/regen/);
});
