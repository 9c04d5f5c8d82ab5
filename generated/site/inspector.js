// The frame inspector of the protocol reference site (generated/site/inspector.html). Every
// frame is parsed by the package's WASM build, loaded from the repository by relative path
// (bindings/node/dist/browser.mjs, made by bindings/wasm/build.sh); the page adds no rule.
const status = document.getElementById('status');
const input = document.getElementById('input');
const results = document.getElementById('results');
const summary = document.getElementById('summary');
const anchors = JSON.parse(document.getElementById('anchors').textContent);

let wc;
try {
  wc = await import('../../bindings/node/dist/browser.mjs');
  status.textContent = `ready: contract ${wc.CONTRACT_ID}, WASM build`;
  status.dataset.ready = 'true';
} catch (e) {
  status.textContent = `the WASM build did not load (build it with bindings/wasm/build.sh and serve the repository root): ${e.message}`;
}

/** The frames in a text: each non-empty line; a capture line ({"frame": "...", ...} without
 *  "gm") gives its frame; a text that is no line-wise JSON is one frame. */
function framesOf(text) {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return lines.map((l) => fromRecord(l));
}

function fromRecord(line) {
  try {
    const v = JSON.parse(line);
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && typeof v.frame === 'string' && !('gm' in v)) return { frame: v.frame, dir: v.dir };
  } catch {
    // not JSON: inspected as it is
  }
  return { frame: line };
}

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  for (const c of children) e.append(c);
  return e;
}

function reference(type) {
  return typeof type === 'string' && anchors[type] ? el('a', { href: anchors[type], textContent: `${type} reference` }) : null;
}

function show(items) {
  results.replaceChildren();
  const counts = {};
  for (const { frame, dir } of items) {
    const r = wc.parseEnvelopeJson(frame);
    counts[r.kind] = (counts[r.kind] ?? 0) + 1;
    const li = el('li', { className: r.kind });
    li.dataset.kind = r.kind;
    li.append(el('span', { className: 'verdict', textContent: r.kind }));
    if (dir) li.append(` (${dir})`);
    if (r.kind === 'ok' || r.kind === 'unknown-type') {
      li.append(` ${r.envelope.type} · seq ${r.envelope.seq} · run ${r.envelope.runId} `);
      const ref = reference(r.envelope.type);
      if (ref) li.append(ref);
    } else if (r.kind === 'version-mismatch') {
      li.append(` gm ${r.received}, supported ${r.supported}`);
    } else {
      li.append(` ${r.reason}`);
      if ('runId' in r) {
        const header = el('div', { className: 'salvaged', textContent: `salvaged header: type ${r.type} · seq ${r.seq} · ts ${r.ts} · run ${r.runId} ` });
        const ref = reference(r.type);
        if (ref) header.append(ref);
        li.append(header);
      }
      if (r.issues) {
        li.append(el('ul', { className: 'issues' }, ...r.issues.map((i) => el('li', { className: 'issue' }, el('code', { textContent: i.path || '(frame)' }), `: ${i.message}`))));
      }
    }
    li.append(el('div', { className: 'frame', textContent: frame.length > 300 ? `${frame.slice(0, 300)}…` : frame }));
    results.append(li);
  }
  summary.textContent = `${items.length} frame${items.length === 1 ? '' : 's'}: ` + Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(', ');
}

function inspect(text) {
  if (wc) show(framesOf(text));
}

document.getElementById('inspect').addEventListener('click', () => inspect(input.value));
input.addEventListener('paste', () => setTimeout(() => inspect(input.value), 0));
document.getElementById('file').addEventListener('change', async (e) => {
  const f = e.target.files[0];
  if (f) inspect((input.value = await f.text()));
});
document.body.addEventListener('dragover', (e) => e.preventDefault());
document.body.addEventListener('drop', async (e) => {
  e.preventDefault();
  const f = e.dataTransfer.files[0];
  if (f) inspect((input.value = await f.text()));
});
