'use strict';
// The browser example in bindings/node/README.md is examples/browser.mjs, which the browser
// suite runs: the README shows the file verbatim.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const NODE = path.resolve(__dirname, '../../node');

test("the README's browser example is examples/browser.mjs", () => {
  const readme = fs.readFileSync(path.join(NODE, 'README.md'), 'utf8');
  const example = fs.readFileSync(path.join(NODE, 'examples/browser.mjs'), 'utf8');
  assert.ok(readme.includes('```js\n' + example + '```'), 'README.md does not show examples/browser.mjs verbatim');
});
