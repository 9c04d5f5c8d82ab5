'use strict';
// The backend index.js runs on: the Node-API addon (wirecontract.node), or, with
// WIRECONTRACT_BACKEND=wasm, the WASM build (wasm/, made by bindings/wasm/build.sh) through
// wasm-backend.js. Browser bundles map this file to the WASM backend (package.json "browser").

function loadAddon() {
  const candidates = ['./wirecontract.node', `./wirecontract.${process.platform}-${process.arch}.node`];
  let firstError;
  for (const path of candidates) {
    try {
      return require(path);
    } catch (e) {
      if (firstError === undefined) firstError = e;
    }
  }
  const err = new Error(
    `@wirecontract/node: no native addon for ${process.platform}-${process.arch} ` +
      '(build it with bindings/node/build.sh, or set WIRECONTRACT_BACKEND=wasm; see README.md): ' +
      (firstError && firstError.message),
  );
  err.cause = firstError;
  throw err;
}

function loadWasm() {
  const fs = require('node:fs');
  const path = require('node:path');
  const glue = require('./wasm/wirecontract_wasm.js');
  const module = new WebAssembly.Module(fs.readFileSync(path.join(__dirname, 'wasm', 'wirecontract_wasm_bg.wasm')));
  const backend = require('./wasm-backend.js');
  backend.bind(glue, module, glue.initSync({ module }));
  return backend;
}

module.exports = process.env.WIRECONTRACT_BACKEND === 'wasm' ? loadWasm() : loadAddon();
