'use strict';
// The browser and viewer examples in bindings/node/README.md are examples/browser.mjs and
// examples/viewer.mjs, which the browser suite runs: the README shows the files verbatim.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const NODE = path.resolve(__dirname, '../../node');

for (const name of ['browser.mjs', 'viewer.mjs']) {
  test(`the README shows examples/${name} verbatim`, () => {
    const readme = fs.readFileSync(path.join(NODE, 'README.md'), 'utf8');
    const example = fs.readFileSync(path.join(NODE, 'examples', name), 'utf8');
    assert.ok(readme.includes('```js\n' + example + '```'), `README.md does not show examples/${name} verbatim`);
  });
}
