// The browser bundle's first module: instantiates the WASM build (wasm/wirecontract_wasm_bg.wasm,
// beside the bundle as dist/wirecontract_wasm_bg.wasm) and binds the backend index.js loads
// through native.js (mapped to wasm-backend.js by package.json's "browser" field).
import * as glue from './wasm/wirecontract_wasm.js';
import backend from './wasm-backend.js';

const url = new URL('./wirecontract_wasm_bg.wasm', import.meta.url);
const module = await WebAssembly.compileStreaming(fetch(url));
backend.bind(glue, module, glue.initSync({ module }));
