// The browser suite in headless Chromium: bundles page.mjs (the suite and fast-check; the
// package itself is the built dist/browser.mjs, resolved through the `browser` export
// condition), serves bindings/node on localhost, opens the page and reports every check.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { serve } from './serve.mjs';
import { launch } from './chromium.mjs';
import { suiteData } from './data.mjs';

const PKG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await build({
  entryPoints: [path.join(PKG, 'browser/page.mjs')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  outfile: path.join(PKG, 'dist/page.js'),
  // The package under test stays the built bundle, loaded as the page's own module.
  plugins: [{ name: 'package', setup: (b) => b.onResolve({ filter: /^@wirecontract\/node$/ }, () => ({ path: '/dist/browser.mjs', external: true })) }],
  logLevel: 'warning',
});
const data = JSON.stringify(suiteData());
const server = await serve(PKG, { '/data.json': () => data });
const browser = await launch();
let failed = 0;
try {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}/browser/page.html?runs=${process.env.WIRECONTRACT_PROPTEST_RUNS || 200}`);
  await page.waitForFunction(() => window.__results !== undefined, null, { timeout: 240_000 });
  const results = await page.evaluate(() => window.__results);
  const version = browser.context.browser()?.version() ?? '';
  for (const r of results) {
    console.log(`${r.ok ? 'ok    ' : 'FAILED'} [chromium ${version}] ${r.name} (${r.ms} ms) ${r.ok ? r.detail : `\n${r.detail}`}`);
    if (!r.ok) failed++;
  }
  if (errors.length) {
    console.log(`page errors:\n${errors.join('\n')}`);
    failed++;
  }
  console.log(`chromium: ${results.length - failed} passed, ${failed} failed`);
} finally {
  await browser.close();
  await server.close();
}
process.exitCode = failed ? 1 : 0;
