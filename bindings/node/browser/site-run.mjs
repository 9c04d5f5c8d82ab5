// The reference site's Playwright test: serves the repository root, opens
// generated/site/inspector.html in headless Chromium (the page loads the WASM build from
// bindings/node/dist), pastes a valid frame, an invalid one and a real-client capture, checks
// what is shown, follows a reference link, and saves a screenshot under target/.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';
import { launch } from './chromium.mjs';

const require = createRequire(import.meta.url);
const { sharedDir, readJsonl } = require('../testlib/shared.js');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SHOT = path.join(ROOT, 'target', 'site-inspector.png');

function expect(cond, what) {
  if (!cond) throw new Error(what);
  console.log(`ok     [site] ${what}`);
}

const server = await serve(ROOT);
const browser = await launch();
try {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}/generated/site/inspector.html`);
  await page.waitForSelector('#status[data-ready="true"]', { timeout: 60_000 });

  const inspect = async (text) => {
    await page.fill('#input', text);
    await page.click('#inspect');
    return page.$$eval('#results > li', (lis) => lis.map((li) => ({ kind: li.dataset.kind, text: li.innerText, links: [...li.querySelectorAll('a')].map((a) => a.getAttribute('href')), issues: [...li.querySelectorAll('.issue')].map((i) => i.innerText), salvaged: li.querySelector('.salvaged')?.innerText ?? null })));
  };

  const valid = '{"gm":1,"seq":7,"ts":1796053542815,"runId":"run_1","type":"node.token","payload":{"nodeId":"llm","deltas":[{"t":"text","v":"Hi"}]}}';
  let shown = await inspect(valid);
  expect(shown.length === 1 && shown[0].kind === 'ok', 'a pasted valid frame is shown ok');
  expect(shown[0].links.includes('graphmind.v1.html#message-node-token'), 'with a link to its reference entry');

  const invalid = '{"gm":1,"seq":3,"ts":5,"runId":"r1","type":"node.token","payload":{"nodeId":5,"deltas":[]}}';
  shown = await inspect(invalid);
  expect(shown[0].kind === 'invalid', 'a pasted invalid frame is shown invalid');
  expect(shown[0].issues.some((i) => i.startsWith('payload.nodeId')), `its issue at its path (${shown[0].issues.join('; ')})`);
  expect(shown[0].salvaged !== null && shown[0].salvaged.includes('node.token') && shown[0].salvaged.includes('seq 3') && shown[0].salvaged.includes('run r1'), `its salvaged header (${shown[0].salvaged})`);
  expect(shown[0].links.includes('graphmind.v1.html#message-node-token'), "and the salvaged type's reference entry");

  const capture = path.join(sharedDir(), 'real-client', 'breakpoints-inject.jsonl');
  const records = readJsonl(capture);
  await page.setInputFiles('#file', capture);
  await page.waitForFunction((n) => document.querySelectorAll('#results > li').length === n, records.length);
  shown = await page.$$eval('#results > li', (lis) => lis.map((li) => li.dataset.kind));
  const expected = records.map((r) => r.expect);
  expect(JSON.stringify(shown) === JSON.stringify(expected), `a real-client capture (${path.basename(capture)}, ${records.length} frames): every verdict as the capture records it`);
  const summary = await page.textContent('#summary');
  expect(summary.startsWith(`${records.length} frames`), `the summary counts them (${summary})`);
  fs.mkdirSync(path.dirname(SHOT), { recursive: true });
  await page.screenshot({ path: SHOT, fullPage: true });
  expect(fs.statSync(SHOT).size > 10_000, `screenshot saved to ${path.relative(ROOT, SHOT)}`);

  await page.click('#results > li:first-child a');
  await page.waitForLoadState();
  const target = await page.evaluate(() => {
    const a = location.hash && document.getElementById(location.hash.slice(1));
    return a ? (a.closest('p') ?? a).nextElementSibling?.textContent : null;
  });
  expect(typeof target === 'string' && target.includes('hello'), `the reference link lands on its entry (${target})`);
  for (const [file, ids] of [['graphmind.v1.html', ['message-exec-paused', 'object-NodeStarted', 'enum-NodeKind']], ['graphorin.v1.html', ['object-ServerRpcSuccess']]]) {
    await page.goto(`${server.url}/generated/site/${file}`);
    for (const id of ids) expect((await page.$(`[id="${id}"]`)) !== null, `${file} has the anchor #${id}`);
  }
  expect(errors.length === 0, `no page errors ${errors.join('; ')}`);
} finally {
  await browser.close();
  await server.close();
}
