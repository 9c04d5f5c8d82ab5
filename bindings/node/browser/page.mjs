// The browser suite's page script (bundled with fast-check into dist/page.js by chromium.mjs):
// the package's `browser` build, the shared material from the test server, then suite.mjs.
import * as api from '@wirecontract/node';
import fc from 'fast-check';
import { runSuite } from './suite.mjs';

const out = document.getElementById('out');
try {
  const data = await (await fetch('/data.json')).json();
  const runs = Number(new URLSearchParams(location.search).get('runs') || 200);
  const results = await runSuite(api.default ?? api, data, fc, { runs });
  out.textContent = results.map((r) => `${r.ok ? 'ok' : 'FAILED'} ${r.name}`).join('\n');
  window.__results = results;
} catch (e) {
  window.__results = [{ name: 'page', ok: false, detail: String(e && e.stack ? e.stack : e), ms: 0 }];
}
