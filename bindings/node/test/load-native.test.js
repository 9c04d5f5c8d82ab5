'use strict';
// The addon loader (load-native.js): which per-platform package it asks for, glibc or musl
// chosen at run time, and the error naming the package when none loads.
const test = require('node:test');
const assert = require('node:assert/strict');
const { loadNative, platformName, packageName, PLATFORMS } = require('../load-native.js');

test('platform names follow napi-rs: linux-<arch>-gnu|musl, darwin-<arch>', () => {
  assert.equal(platformName('linux', 'x64', false), 'linux-x64-gnu');
  assert.equal(platformName('linux', 'arm64', true), 'linux-arm64-musl');
  assert.equal(platformName('darwin', 'arm64'), 'darwin-arm64');
  assert.equal(packageName('linux-x64-musl'), '@wirecontract/node-linux-x64-musl');
  for (const p of PLATFORMS) assert.equal(require(`../npm/${p}/package.json`).name, packageName(p));
});

test('this glibc Linux process is told apart from musl at run time', () => {
  if (process.platform !== 'linux') return;
  const glibc = Boolean(process.report.getReport().header.glibcVersionRuntime);
  assert.equal(platformName(), `linux-${process.arch}-${glibc ? 'gnu' : 'musl'}`);
});

test('the per-platform package is loaded when no local build exists', () => {
  const asked = [];
  const addon = loadNative('linux-arm64-musl', (name) => {
    asked.push(name);
    if (name !== '@wirecontract/node-linux-arm64-musl') throw Object.assign(new Error(`Cannot find module '${name}'`), { code: 'MODULE_NOT_FOUND' });
    return { ok: true };
  });
  assert.deepEqual(addon, { ok: true });
  assert.deepEqual(asked, ['./wirecontract.node', './wirecontract.linux-arm64-musl.node', '@wirecontract/node-linux-arm64-musl']);
});

test('no addon: the error names the platform and the package to install', () => {
  const missing = () => {
    throw Object.assign(new Error('Cannot find module'), { code: 'MODULE_NOT_FOUND' });
  };
  assert.throws(() => loadNative('linux-x64-musl', missing), /no native addon for linux-x64-musl: install @wirecontract\/node-linux-x64-musl/);
  assert.throws(() => loadNative('win32-x64', missing), /no package is built for win32-x64/);
  // A package that is there but fails to load (wrong libc, say) is reported with its own error.
  const broken = (name) => {
    if (name.startsWith('@')) throw new Error('Error relocating: symbol not found');
    return missing();
  };
  assert.throws(() => loadNative('linux-x64-gnu', broken), /symbol not found/);
});
