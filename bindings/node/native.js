'use strict';
// The backend index.js runs on: the Node-API addon (found by load-native.js), or, with
// WIRECONTRACT_BACKEND=wasm, the WASM build (wasm/, made by bindings/wasm/build.sh) through
// wasm-backend.js. Browser bundles map this file to the WASM backend (package.json "browser").

function loadAddon() {
  // The addon of this platform: built in place, or its per-platform package (load-native.js).
  return require('./load-native.js').loadNative();
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
