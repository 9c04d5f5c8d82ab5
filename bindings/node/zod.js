'use strict';
// @wirecontract/node/zod: the zod 4 schema objects (generated from the registry into
// zod-schemas.js) over the zod the application installed. zod is an optional peer dependency:
// only this entry point, and the schema names of the main entry when they are used, need it.
module.exports = require('./zod-schemas.js').makeSchemas(require('zod'));
