// Browser rows of scripts/bench: in headless Chromium, @wirecontract/node's WASM build
// (dist/browser.mjs) against the reference's validator (zod 4, the model in
// benches/node/graphmind-zod.js) and JSON.parse, one frame a call, per corpus; target: WASM
// >= 1x zod. Then a CPU profile of one WASM pass (Chrome DevTools Protocol) says where the
// time goes, as self time by function.
//
// Usage: node benches/browser/bench.mjs --zod DIR [--rounds N] [--json OUT] CORPUS.jsonl...
//   --zod DIR   a directory whose node_modules holds zod 4 (scripts/bench: target/bench-node)
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NODE_PKG = path.join(ROOT, 'bindings/node');
const requirePkg = createRequire(path.join(NODE_PKG, 'package.json'));
const { build } = requirePkg('esbuild');
const { serve } = await import(path.join(NODE_PKG, 'browser/serve.mjs'));
const { launch } = await import(path.join(NODE_PKG, 'browser/chromium.mjs'));

const a = { rounds: 3, zod: null, json: null, corpora: [] };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--rounds') a.rounds = Number(argv[++i]);
  else if (argv[i] === '--zod') a.zod = argv[++i];
  else if (argv[i] === '--json') a.json = argv[++i];
  else a.corpora.push(argv[i]);
}
if (!a.zod || a.corpora.length === 0) {
  console.error('usage: node benches/browser/bench.mjs --zod DIR [--rounds N] [--json OUT] CORPUS.jsonl...');
  process.exit(2);
}

const out = path.join(ROOT, 'target/bench-browser');
fs.mkdirSync(out, { recursive: true });
await build({
  entryPoints: [path.join(ROOT, 'benches/browser/page.mjs')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  outfile: path.join(out, 'page.js'),
  nodePaths: [path.join(path.resolve(a.zod), 'node_modules')],
  plugins: [
    { name: 'package', setup: (b) => b.onResolve({ filter: /^\/bindings\/node\/dist\/browser\.mjs$/ }, (r) => ({ path: r.path, external: true })) },
    {
      // The Node bench's zod model finds the generated schemas through node:path and
      // __dirname; in the page the same file is required by its relative path.
      name: 'zod-model',
      setup: (b) =>
        b.onLoad({ filter: /benches[\\/]node[\\/]graphmind-zod\.js$/ }, (args) => ({
          contents: fs
            .readFileSync(args.path, 'utf8')
            .replace(/const path = require\('node:path'\);\n/, '')
            .replace(/require\(path\.join\(__dirname, '\.\.', '\.\.', 'generated', 'typescript', 'zod-schemas\.js'\)\)/, "require('../../generated/typescript/zod-schemas.js')"),
          loader: 'js',
        })),
    },
  ],
  logLevel: 'warning',
});
fs.writeFileSync(path.join(out, 'page.html'), '<!doctype html><meta charset="utf-8"><script type="module" src="page.js"></script>\n');
const routes = {};
for (const c of a.corpora) routes[`/corpus/${path.basename(c)}`] = () => fs.readFileSync(c);
const server = await serve(ROOT, routes);
const browser = await launch();
const results = {};
try {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/target/bench-browser/page.html`);
  await page.waitForFunction(() => window.benchReady === true, null, { timeout: 60_000 });
  for (const c of a.corpora) {
    const name = path.basename(c, '.jsonl');
    const r = await page.evaluate(([u, n]) => window.bench(u, n), [`/corpus/${path.basename(c)}`, a.rounds]);
    const wasm = r.rows['wasm parseEnvelopeJson'];
    const zod = r.rows['zod 4 model (JSON.parse + safeParse)'];
    const ratio = wasm / zod;
    results[name] = { ...r, ratio, met: ratio >= 1 };
    console.log(`  ${name}: ${r.frames} frames, ${(r.bytes / 1e6).toFixed(1)} MB, ${r.passes} pass(es) per timed sample${r.disagree ? `, ${r.disagree} verdicts differ (the zod model's documented deviations)` : ''}`);
    for (const [row, fps] of Object.entries(r.rows)) console.log(`  ${name.padEnd(12)} chromium ${row.padEnd(38)} ${Math.round(fps).toLocaleString('en').padStart(10)} frames/s`);
    console.log(`  ${name.padEnd(12)} chromium wasm / zod 4 = ${ratio.toFixed(2)}x (target >= 1x)  ${ratio >= 1 ? 'met' : 'MISSED'}${name.includes('smoke') ? ' (smoke: small corpus)' : ''}`);

    // Where the time goes: self time by function over one WASM pass.
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    await page.evaluate(() => window.profileWasm());
    const { profile } = await cdp.send('Profiler.stop');
    const self = new Map();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const dt = profile.timeDeltas;
    let total = 0;
    profile.samples.forEach((id, i) => {
      const n = byId.get(id);
      const f = n.callFrame;
      const where = f.url.endsWith('.wasm') || f.url.startsWith('wasm://') ? 'wasm' : f.url ? path.basename(new URL(f.url, 'http://x').pathname) : 'native';
      const key = `${f.functionName || '(anonymous)'} [${where}]`;
      self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0));
      // Shares of the busy time: idle samples (the page waiting) do not count.
      if (f.functionName !== '(idle)') total += dt[i] ?? 0;
    });
    const top = [...self.entries()].filter(([k]) => !k.startsWith('(idle)')).sort((x, y) => y[1] - x[1]).slice(0, 8);
    results[name].profile = top.map(([k, us]) => ({ fn: k, share: us / total }));
    // By category: the module's own code, the copy in (encodeInto), materializing (JSON.parse),
    // the garbage collector, and the JavaScript layer around them.
    // JSON.parse is inlined into the package's decide(), so its time shows as that function's
    // (the JavaScript layer), not as a native frame of its own.
    const cat = { 'wasm (the contract)': 0, 'encodeInto (frame into the module)': 0, 'JSON.parse (own frame)': 0, 'garbage collector': 0, '(program): V8 native work': 0, 'JavaScript layer (JSON.parse inlined) and other': 0 };
    for (const [k, us] of self) {
      if (k.startsWith('(idle)')) continue;
      if (k.endsWith('[wasm]')) cat['wasm (the contract)'] += us;
      else if (k.startsWith('encodeInto')) cat['encodeInto (frame into the module)'] += us;
      else if (k.startsWith('parse ') && k.endsWith('[native]')) cat['JSON.parse (own frame)'] += us;
      else if (k.startsWith('(garbage collector)')) cat['garbage collector'] += us;
      else if (k.startsWith('(program)')) cat['(program): V8 native work'] += us;
      else cat['JavaScript layer (JSON.parse inlined) and other'] += us;
    }
    results[name].categories = Object.fromEntries(Object.entries(cat).map(([k, us]) => [k, us / total]));
    // "(program)" is V8's own native work outside JavaScript and wasm frames (the JSON.parse
    // and TextEncoder builtins' internals among it).
    console.log(`  ${name.padEnd(12)} where a WASM pass spends its time: ` + Object.entries(cat).map(([k, us]) => `${k} ${((100 * us) / total).toFixed(0)}%`).join(', '));
    console.log(`  ${name.padEnd(12)} top functions by self time (wasm functions are unnamed in the size-optimized build):`);
    for (const [k, us] of top) console.log(`  ${''.padEnd(14)}${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
    await cdp.detach();
  }
} finally {
  await browser.close();
  await server.close();
}
if (a.json) fs.writeFileSync(a.json, JSON.stringify(results, null, 2));
