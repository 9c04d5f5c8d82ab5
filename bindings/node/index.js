'use strict';
// @wirecontract/node: the wirecontract Rust crate's GraphMind and Graphorin contracts for
// Node.js, with the reference (@graphmind-ai/schema, @graphorin/protocol) API names and shapes.
//
// Rust validates; V8 materializes. Each parse sends the frame text to the addon once and gets
// a short verdict back; an accepted frame becomes a JS object through JSON.parse on the same
// text, which is exactly the value the reference's JSON.parse gives (last duplicate key wins,
// "__proto__" stays an own key, numbers are doubles). Large frames have their long strings
// taken out first and put back after JSON.parse of the rest (src/large.rs). See README.md.

// The backend: the Node-API addon, or the WASM build (native.js; a browser bundle maps that
// file to wasm-backend.js).
const native = require('./native.js');

// The addon must come from the contract the shipped declarations (index.d.ts) were generated
// from: both are made by build.sh in one go, and contract-id.json records the declarations'
// side (checked by api.js checkContract).
const api = require('./api.js').createApi(native, () => require('./contract-id.json'));

// The contract's ViewerSession (viewer.js over the backend's class: the addon's or the WASM build's).
api.ViewerSession = require('./viewer.js').makeViewerSession(native);

module.exports = api;
