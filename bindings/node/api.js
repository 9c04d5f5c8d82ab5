'use strict';
// The JavaScript API layer of @wirecontract/node, over one backend object: the native addon
// (index.js) or any other build of the contract with the same entry points (registryJson,
// constantsJson, contractId, version, gmVerdict, gmParseLarge (optional), gmCheckWritten,
// gmBudgetPayload, gmShrinkPayloadJson, gmSchemaString, the matcher and handshake helpers,
// goParse and the subprotocol helpers). Everything here is host-side: argument checks, JSON.parse
// materialization, key order; every protocol rule is the backend's (the contract's).

const { stringify } = require('./stringify.js');

function errorMessage(e) {
  return e && typeof e.message === 'string' ? e.message : String(e);
}

// The one text of a bug inside wirecontract, in every binding (wirecontract-glue's
// PANIC_PREFIX): the backends' guards already start a caught panic's message with it.
const INTERNAL_ERROR = 'internal error in wirecontract (please report): ';

/** The message of a backend failure, starting with INTERNAL_ERROR exactly once. */
function internalError(e) {
  const m = errorMessage(e);
  return m.startsWith(INTERNAL_ERROR) ? m : INTERNAL_ERROR + m;
}

// The addon must come from the contract the shipped declarations (index.d.ts) were generated
// from: both are made by build.sh in one go, and contract-id.json records the declarations'
// side. A difference means a stale build (the contract changed and only one half was rebuilt).

/** The addon's contract id, after checking it against the recorded one (throws on a
 *  difference or when the record is missing, naming the fix). */
function checkContract(addon, readRecord) {
  const fix = 'rebuild the package with scripts/regen (or bindings/node/build.sh), which builds the addon and generates its declarations together';
  const built = typeof addon.contractId === 'function' ? addon.contractId() : undefined;
  let recorded;
  try {
    recorded = readRecord().contractId;
  } catch (e) {
    throw new Error(`@wirecontract/node: contract-id.json is missing or unreadable next to index.js (${errorMessage(e)}); ${fix}`);
  }
  if (built === undefined || built !== recorded) {
    throw new Error(
      `@wirecontract/node: the native addon was built from another contract (addon ${built ?? 'without an id'}, ` +
        `declarations ${recorded}); ${fix}`,
    );
  }
  return built;
}

/** The package's exports over `backend`, after checking its contract id against the recorded
 *  one (`readRecord()` gives `{contractId}`). */
function createApi(backend, readRecord) {
  const native = backend;
  const CONTRACT_ID = checkContract(backend, readRecord);
  const REGISTRY = JSON.parse(native.registryJson());
  const CONSTANTS = JSON.parse(native.constantsJson());

  function deepFreeze(value) {
    if (value !== null && typeof value === 'object') {
      for (const v of Object.values(value)) deepFreeze(v);
      Object.freeze(value);
    }
    return value;
  }

  function protocol(name) {
    const p = REGISTRY.protocols.find((x) => x.name === name);
    if (!p) throw new Error(`@wirecontract/node: protocol ${name} missing from the registry`);
    p.objectsByName = new Map(p.objects.map((o) => [o.name, o]));
    return p;
  }

  const GM = protocol('graphmind');
  // The backend's wish to have frames tried in JavaScript first (the WASM build: a frame
  // crossing into the module costs a copy and a second parse).
  const ACCEPT = backend.acceptsFirst === true ? require('./accept.js').acceptEnvelope : null;
  const GO = protocol('graphorin');

  // ---------------------------------------------------------------------------------------------
  // Shared helpers
  // ---------------------------------------------------------------------------------------------

  // Frames cross into the addon as JavaScript strings and are read there as UTF-16 (see
  // FrameText in src/lib.rs): lone surrogates and escapes are decided as JSON.parse decides them.


  // ---------------------------------------------------------------------------------------------
  // GraphMind
  // ---------------------------------------------------------------------------------------------

  const gmc = CONSTANTS.graphmind;
  const MAX_FRAME_BYTES = gmc.DEFAULT_MAX_FRAME_BYTES;
  const MAX_DEPTH = gmc.DEFAULT_MAX_DEPTH;
  const REASON_NOT_AN_ENVELOPE = 'not a structurally valid GraphMind envelope';

  function invalidResult(reason, issues) {
    return issues === undefined ? { kind: 'invalid', reason } : { kind: 'invalid', reason, issues };
  }

  // Every issue carries its path's segments (root first: key strings, index numbers) as a
  // non-enumerable `segments`, built natively by the glue's one conversion: Object.keys,
  // JSON.stringify and deep equality still see the reference's `{path, message}` (Graphorin:
  // `{path, code, message}`), so the package stays a drop-in (ARCHITECTURE.md, bindings).
  function hideSegments(issues) {
    if (Array.isArray(issues)) {
      for (const i of issues) Object.defineProperty(i, 'segments', { value: i.segments, enumerable: false, writable: true, configurable: true });
    }
    return issues;
  }

  /** A verdict or error text from the backend, its issues' segments made non-enumerable. */
  function verdictOf(text) {
    const v = JSON.parse(text);
    hideSegments(v.issues);
    return v;
  }

  /** An issue this layer makes itself, about a top-level member (`''`: the frame root). */
  function memberIssue(member, message) {
    return hideSegments([{ path: member, message, segments: member === '' ? [] : [member] }])[0];
  }

  // Frames from this many UTF-16 units on (and small enough that no reading of them can pass
  // the size cap) go through gmParseLarge: long string values are taken out before parsing and
  // put back afterwards (src/large.rs).
  const LARGE_FRAME_UNITS = 2048;
  const LARGE_FRAME_MAX_UNITS = Math.floor(MAX_FRAME_BYTES / 6);
  const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  // gmVerdict's numbers for the accepted verdicts.
  const ACCEPTED = ['ok', 'unknown-type'];

  /** Whether `text` nests at most MAX_DEPTH levels, known without reading it: valid JSON
   *  nesting d levels has d opening brackets and d closing ones, so a short frame cannot
   *  nest deeper; a longer one is counted with indexOf (native searches that skip long
   *  strings). Brackets inside strings count too, which only ever says `false` wrongly. */
  function shallow(text) {
    if (text.length < 2 * MAX_DEPTH + 2) return true;
    let n = 0;
    for (const c of ['[', '{']) {
      for (let i = text.indexOf(c); i !== -1; i = text.indexOf(c, i + 1)) if (++n > MAX_DEPTH) return false;
    }
    return true;
  }

  /** Verdict of the addon on the frame text, then materialization. Never throws. */
  function decide(text) {
    let verdict;
    let large;
    let parsed;
    try {
      // A frame longer than the cap in UTF-16 units is longer in UTF-8 bytes too: refuse it
      // without copying it into the addon.
      if (text.length > MAX_FRAME_BYTES) return invalidResult(`frame exceeds ${MAX_FRAME_BYTES} bytes`);
      // The WASM backend: JSON.parse first, and the generated acceptance test (accept.js) on
      // its value; the contract is asked only when that cannot say `ok`/`unknown-type`. Only
      // where the text cannot pass the caps: at most 6 UTF-8 bytes per unit (a lone surrogate
      // crosses as a 6-byte escape) and shallow.
      if (ACCEPT !== null && text.length * 6 <= MAX_FRAME_BYTES) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined; // not JSON: the contract names the error
        }
        if (parsed !== undefined && shallow(text)) {
          const k = ACCEPT(parsed);
          if (k >= 0) return { kind: ACCEPTED[k], envelope: parsed };
          if (text.length >= LARGE_FRAME_UNITS) {
            const early = headerVerdict(parsed);
            if (early !== undefined) return early;
          }
        }
      }
      if (text.length >= LARGE_FRAME_UNITS && text.length <= LARGE_FRAME_MAX_UNITS && native.gmParseLarge) {
        large = native.gmParseLarge(text);
        if (large.length > 0) verdict = large[0];
      }
      if (verdict === undefined) verdict = native.gmVerdict(text);
    } catch (e) {
      return invalidResult(internalError(e));
    }
    if (typeof verdict === 'number') verdict = ACCEPTED[verdict];
    if (verdict === 'ok' || verdict === 'unknown-type') {
      try {
        const envelope = parsed !== undefined ? parsed : large !== undefined && large.length > 0 ? restore(large) : JSON.parse(text);
        return { kind: verdict, envelope };
      } catch (e) {
        return invalidResult(`frame is not valid JSON: ${errorMessage(e)}`);
      }
    }
    return verdictOf(verdict);
  }

  /**
   * The verdict of a large frame the acceptance test did not accept, when the envelope's own
   * members decide it: the contract judges the frame with its payload replaced by `null`, and a
   * structural refusal or a version mismatch is the frame's verdict too (spec §2: steps 2 and 3
   * come before any payload check, and `payload` is optional and unknown there). Anything else
   * (a payload the type refuses) is undefined: the whole frame goes to the contract. Saves
   * copying a large payload into the module and reading it there for an answer that does not
   * depend on it. `parsed` is the JSON.parse value of a frame under the caps.
   */
  function headerVerdict(parsed) {
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || !hasOwn(parsed, 'payload')) return undefined;
    const head = { ...parsed }; // own members only, an own "__proto__" included
    head.payload = null;
    let verdict;
    try {
      verdict = native.gmVerdict(stringify(head)); // deep members: stringify.js, no engine stack
    } catch {
      return undefined;
    }
    if (typeof verdict === 'number') return undefined;
    const v = verdictOf(verdict);
    return v.kind === 'version-mismatch' || (v.kind === 'invalid' && v.reason === REASON_NOT_AN_ENVELOPE) ? v : undefined;
  }

  /** The envelope of a frame whose long string values the addon took out: JSON.parse of the
   *  reduced frame, each placeholder (`"\u0001<k>"`) replaced by string k at its path. A path
   *  whose value is no longer the placeholder (a later duplicate key won) is left alone. */
  function restore([, reduced, pathsText, ...strings]) {
    const envelope = JSON.parse(reduced);
    const paths = JSON.parse(pathsText);
    for (let k = 0; k < paths.length; k++) {
      const path = paths[k];
      let holder = envelope;
      for (let j = 0; j < path.length - 1 && holder !== null && typeof holder === 'object'; j++) {
        holder = hasOwn(holder, path[j]) ? holder[path[j]] : undefined;
      }
      const last = path[path.length - 1];
      if (holder === null || typeof holder !== 'object' || !hasOwn(holder, last) || holder[last] !== '\u0001' + k) continue;
      // An own "__proto__" member is an ordinary data property: define it, never assign it.
      if (last === '__proto__') Object.defineProperty(holder, last, { value: strings[k], writable: true, enumerable: true, configurable: true });
      else holder[last] = strings[k];
    }
    return envelope;
  }

  /**
   * Parses one text frame (§2): `{kind:'ok'|'unknown-type', envelope}`,
   * `{kind:'version-mismatch', received, supported}` or `{kind:'invalid', reason, issues?}`.
   * Never throws. A non-string is read as `String(value)`, as JSON.parse does.
   */
  function parseEnvelopeJson(text) {
    if (typeof text !== 'string') {
      try {
        text = String(text);
      } catch (e) {
        return invalidResult(`frame is not valid JSON: ${errorMessage(e)}`);
      }
    }
    return decide(text);
  }

  /**
   * Parses an already decoded value (§2 from step 2): its JSON text (JSON.stringify) is
   * validated and the envelope is a fresh copy. Never throws: a value JSON.stringify refuses
   * (BigInt, a cycle) is `invalid`; nesting is bounded by the contract's cap, not by the
   * engine's stack (stringify.js).
   */
  function parseEnvelope(value) {
    let text;
    try {
      text = stringify(value);
    } catch (e) {
      return invalidResult(`value is not JSON-serializable: ${errorMessage(e)}`);
    }
    if (text === undefined) {
      return invalidResult(REASON_NOT_AN_ENVELOPE, [memberIssue('', `expected object, received ${typeof value}`)]);
    }
    const result = decide(text);
    // JSON has no -0 (JSON.stringify writes 0); the reference hands back the caller's numbers,
    // -0 included. Only a text with a zero member or item can have had one.
    if (result.envelope !== undefined && ZERO_VALUE.test(text)) keepNegativeZeros(value, result.envelope, 0);
    return result;
  }

  /** A number 0 written as a member or an item by JSON.stringify (compact). */
  const ZERO_VALUE = /[:[,]0[,\]}]/;

  /**
   * Puts back each -0 of `src` (the caller's value) at its place in `dst` (the fresh copy built
   * from its JSON text). Only own data properties are read (no getter runs a second time, no
   * toJSON is called); a value whose JSON came from its toJSON is left alone. The walk follows
   * `dst`, an accepted envelope, so it is no deeper than the contract's depth cap.
   */
  function keepNegativeZeros(src, dst, depth) {
    if (depth > MAX_DEPTH + 1 || src === null || typeof src !== 'object' || dst === null || typeof dst !== 'object') return;
    try {
      if (typeof src.toJSON === 'function' || Array.isArray(src) !== Array.isArray(dst)) return;
      for (const key of Object.keys(dst)) {
        const d = dst[key];
        if (d !== 0 && (d === null || typeof d !== 'object')) continue;
        const desc = Object.getOwnPropertyDescriptor(src, key);
        if (desc === undefined || !('value' in desc)) continue;
        if (d === 0) {
          if (Object.is(desc.value, -0)) dst[key] = -0;
        } else {
          keepNegativeZeros(desc.value, d, depth + 1);
        }
      }
    } catch {
      // A Proxy trap that throws: the copy keeps its 0.
    }
  }

  /** Why createEnvelope refused to build a frame: `.reason` and `.issues` ({path, message}). */
  class BuildError extends Error {
    constructor(reason, issues) {
      super(issues && issues.length ? `${reason}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}` : reason);
      this.name = 'BuildError';
      this.reason = reason;
      this.issues = issues || [];
    }
  }

  /**
   * The payload under a budget of `max` UTF-8 bytes of its JSON.stringify text
   * (graphmind-shrink §3, decided by the contract): the same value when it fits, else the
   * shrunk value (field trim, skeleton; for an unknown type also the whole-payload marker).
   * Throws BuildError when only the marker would fit a known type (§8).
   */
  function budgetPayload(type, payload, max) {
    if (!Number.isSafeInteger(max) || max < 0) {
      throw new BuildError(`maxPayloadBytes must be a safe integer >= 0 (UTF-8 bytes of payload JSON), got ${typeof max === 'number' ? max : typeof max}`);
    }
    // A non-string type is refused by the verdict below, an undefined payload leaves the key out.
    if (typeof type !== 'string' || payload === undefined) return payload;
    let text;
    try {
      text = stringify(payload);
    } catch (e) {
      throw new BuildError(`payload is not JSON-serializable: ${errorMessage(e)}`);
    }
    // The reference measures this very text; at most 3 UTF-8 bytes per UTF-16 unit.
    if (text === undefined || text.length * 3 <= max) return payload;
    let r;
    try {
      r = native.gmBudgetPayload(type, text, max); // JSON.stringify text: well-formed
    } catch (e) {
      throw new BuildError(internalError(e));
    }
    if (r.tier === 0) {
      const e = verdictOf(r.error);
      throw new BuildError(e.reason, e.issues);
    }
    return r.tier === 1 ? payload : JSON.parse(r.json);
  }

  /**
   * Builds `{gm:1, seq, ts, runId, type, payload}` (§3, §5.13): `ts` defaults to Date.now()
   * when undefined or null. The frame it stands for is validated by the same parser as
   * incoming frames: a known type's payload must be valid, an unknown type's payload is opaque;
   * `seq`/`ts` must be safe integers ≥ 0 and `runId` a string without lone surrogates or U+0000.
   * `maxPayloadBytes` (UTF-8 bytes of payload JSON; `DEFAULT_MAX_PAYLOAD_BYTES` is the
   * reference's 512 KiB) shrinks a payload over it for its type first, as the reference's
   * serializePayload does (graphmind-shrink §3), and the shrunk payload is validated; a payload
   * only the whole-payload marker would fit is refused. Throws BuildError otherwise.
   */
  function createEnvelope(init) {
    if (init === null || typeof init !== 'object') throw new BuildError('createEnvelope expects {type, payload, seq, runId, ts?, maxPayloadBytes?}');
    const { type, seq, runId } = init;
    const max = init.maxPayloadBytes;
    const payload = max === undefined || max === null ? init.payload : budgetPayload(type, init.payload, max);
    const envelope = { gm: 1, seq, ts: init.ts ?? Date.now(), runId, type, payload };
    let text;
    try {
      text = stringify(envelope);
    } catch (e) {
      const members = ENVELOPE_KEYS.filter((k) => k !== 'payload' && !stringifies(envelope[k]));
      if (members.length > 0) throw memberError(envelope, members);
      throw new BuildError(`payload is not JSON-serializable: ${errorMessage(e)}`);
    }
    const verdict = gmVerdictOf(text);
    if (typeof verdict === 'number') return envelope;
    const out = verdictOf(verdict);
    throw new BuildError(out.reason, out.issues);
  }

  function gmVerdictOf(text) {
    try {
      return native.gmVerdict(text);
    } catch (e) {
      throw new BuildError(internalError(e));
    }
  }

  function stringifies(value) {
    try {
      stringify(value);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The BuildError for envelope members JSON.stringify refuses (a BigInt `ts` or `seq`): the
   * contract judges the frame with each such member replaced by a stand-in it refuses (`{}`), so
   * each issue names its member with the contract's own rule for it (`ts: expected integer`), and
   * reports the host type (`received bigint`) instead of the stand-in's. A payload that does not
   * stringify either (a BigInt or a cycle inside) is one more issue at `payload`; the stand-in's
   * own issues under `payload` are dropped.
   */
  function memberError(envelope, members) {
    const standIn = { ...envelope };
    for (const m of members) standIn[m] = {};
    let payloadProblem;
    try {
      stringify(envelope.payload);
    } catch (e) {
      payloadProblem = errorMessage(e);
      standIn.payload = {};
    }
    const verdict = gmVerdictOf(stringify(standIn));
    const out = typeof verdict === 'number' ? { reason: 'envelope is not JSON-serializable', issues: [] } : verdictOf(verdict);
    const host = (m) => typeof envelope[m];
    let issues = (out.issues || []).map((i) => (members.includes(i.path) ? memberIssue(i.path, i.message.replace(/received object$/, `received ${host(i.path)}`)) : i));
    if (payloadProblem !== undefined) {
      issues = issues.filter((i) => i.path !== 'payload' && !i.path.startsWith('payload.'));
      issues.push(memberIssue('payload', `payload is not JSON-serializable: ${payloadProblem}`));
    }
    for (const m of [...members].reverse()) {
      if (!issues.some((i) => i.path === m)) issues.unshift(memberIssue(m, `expected a JSON value, received ${host(m)}`));
    }
    return new BuildError(out.reason, issues);
  }

  // Serialization order (§5.14): known fields in spec order, then unknown ones in the object's
  // own order, at every level the registry types; the envelope's six members first.
  const ENVELOPE_KEYS = ['gm', 'seq', 'ts', 'runId', 'type', 'payload'];
  const PAYLOAD_OF = new Map(GM.messages.map((m) => [m.wire, GM.objectsByName.get(m.payload)]));
  const FIELD_ORDER = new Map(GM.objects.map((o) => [o.name, { keys: o.fields.map((f) => f.wire), tys: new Map(o.fields.map((f) => [f.wire, f.ty])) }]));

  function orderTy(value, ty) {
    if (ty.object) return orderObject(value, FIELD_ORDER.get(ty.object));
    if (ty.list && Array.isArray(value)) {
      let out = value;
      for (let i = 0; i < value.length; i++) {
        const v = orderTy(value[i], ty.list);
        if (v !== value[i]) {
          if (out === value) out = value.slice();
          out[i] = v;
        }
      }
      return out;
    }
    return value;
  }

  /** `value` with the known keys of `layout` first, in spec order, then the others; the same
   *  object when nothing needs to move. Objects with a toJSON method are left to JSON.stringify. */
  function orderObject(value, layout) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || typeof value.toJSON === 'function') return value;
    const keys = Object.keys(value);
    let changed = false;
    // In order when the known keys present come first, in spec order.
    let k = 0;
    for (const name of layout.keys) {
      if (Object.prototype.hasOwnProperty.call(value, name)) {
        if (keys[k] !== name) changed = true;
        k++;
      }
    }
    const fields = new Map();
    for (const [name, ty] of layout.tys) {
      if (Object.prototype.hasOwnProperty.call(value, name)) {
        const v = orderTy(value[name], ty);
        if (v !== value[name]) changed = true;
        fields.set(name, v);
      }
    }
    if (!changed) return value;
    // A null-prototype object: an own "__proto__" key stays an ordinary member.
    const out = Object.create(null);
    for (const name of layout.keys) if (fields.has(name)) out[name] = fields.get(name);
    for (const key of keys) if (!layout.tys.has(key)) out[key] = value[key];
    return out;
  }

  const ENVELOPE_LAYOUT = { keys: ENVELOPE_KEYS, tys: new Map(ENVELOPE_KEYS.map((k) => [k, {}])) };

  /**
   * Writes an envelope as JSON.stringify would (§5.14): compact, `gm, seq, ts, runId, type,
   * payload` first, then unknown envelope members; known payload fields (at every typed level)
   * in spec order, then unknown ones. Like JSON.stringify it throws on a BigInt or a cycle;
   * nesting is not limited by the engine's stack (stringify.js), only by the contract's cap.
   *
   * The text is checked by the contract's parser before it is returned (as the contract's
   * serialize_envelope checks with check_envelope): an envelope no parser accepts (a `seq` or
   * `ts` that is not a safe integer ≥ 0, U+0000 or a lone surrogate in `runId`, `gm` other than
   * 1, a missing member, a known type's invalid payload, nesting past MAX_DEPTH) throws
   * BuildError with the parser's reason and issues. The frame size cap is the receiver's
   * setting and is not applied.
   */
  function serializeEnvelope(envelope) {
    let out = envelope;
    if (envelope !== null && typeof envelope === 'object') {
      out = orderObject(envelope, ENVELOPE_LAYOUT);
      const layout = typeof envelope.type === 'string' && PAYLOAD_OF.has(envelope.type) ? PAYLOAD_OF.get(envelope.type) : undefined;
      if (layout && Object.prototype.hasOwnProperty.call(envelope, 'payload')) {
        const payload = orderObject(envelope.payload, FIELD_ORDER.get(layout.name));
        if (payload !== envelope.payload) {
          if (out === envelope) out = Object.assign(Object.create(null), envelope);
          // Reassigning keeps the key's position.
          out.payload = payload;
        }
      }
    }
    const text = stringify(out);
    if (text === undefined) {
      throw new BuildError(REASON_NOT_AN_ENVELOPE, [memberIssue('', `expected object, received ${typeOf(envelope)}`)]);
    }
    let verdict;
    try {
      verdict = native.gmCheckWritten(text);
    } catch (e) {
      throw new BuildError(internalError(e));
    }
    if (typeof verdict === 'number') return text;
    throw writtenError(verdictOf(verdict));
  }

  /** The BuildError for a written frame the parser refuses, from the parser's verdict. */
  function writtenError(v) {
    if (v.kind === 'version-mismatch') {
      return new BuildError(`envelope would not parse: protocol version ${v.received}, this contract speaks ${v.supported}`, [memberIssue('gm', `received ${v.received}`)]);
    }
    return new BuildError(`envelope would not parse: ${v.reason}`, v.issues);
  }

  /** The GraphMind JSON Schema (draft 2020-12) as an object (a fresh copy per call). */
  function exportJsonSchema() {
    return JSON.parse(native.gmSchemaString());
  }

  /** The GraphMind JSON Schema as pretty-printed text with a trailing newline. */
  function exportJsonSchemaString() {
    return native.gmSchemaString();
  }

  // Argument checks for the entry points that pass host strings, arrays and JSON values to the
  // addon: each refusal is a TypeError naming the argument (as createEnvelope's errors name the
  // member), never napi's `Failed to convert JavaScript value …`, a raw JSON.stringify error or
  // a string silently repaired.

  function typeOf(value) {
    return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  }

  /** `value` if it is a well-formed string: a lone surrogate has no UTF-8 form, and napi would
   *  turn it into U+FFFD (another name or kind than the caller wrote). */
  function stringArg(value, what) {
    if (typeof value !== 'string') throw new TypeError(`${what} must be a string, got ${typeOf(value)}`);
    if (typeof value.isWellFormed === 'function' ? !value.isWellFormed() : /[\ud800-\udfff]/u.test(value)) {
      const at = /[\ud800-\udfff]/u.exec(value).index;
      throw new TypeError(`${what} holds a lone surrogate (at index ${at}), which has no UTF-8 form`);
    }
    return value;
  }

  /** `value` if it is an array (holes read as `undefined`, so an item check names them). */
  function arrayArg(value, what, items) {
    if (!Array.isArray(value)) throw new TypeError(`${what} must be an array of ${items}, got ${typeOf(value)}`);
    return Array.from(value);
  }

  /** The JSON text of an object argument: a value JSON.stringify refuses (a cycle, a BigInt,
   *  nesting past the stack) or writes nothing for (`undefined`, a function) is named. */
  function jsonArg(value, what, expected) {
    let text;
    try {
      text = JSON.stringify(value);
    } catch (e) {
      throw new TypeError(`${what} is not JSON-serializable: ${errorMessage(e)}`);
    }
    if (text === undefined) throw new TypeError(`${what} must be ${expected}, got ${typeOf(value)}`);
    return text;
  }

  function matcherText(m, what) {
    return jsonArg(m, what, 'a breakpoint matcher object');
  }

  function matcherTexts(list, what) {
    return arrayArg(list, what, 'matchers').map((b, i) => matcherText(b, `${what}[${i}]`));
  }

  function stringsArg(list, what) {
    return arrayArg(list, what, 'strings').map((v, i) => stringArg(v, `${what}[${i}]`));
  }

  /** Matcher equality (§5.12): same `kind`, `name` and effective `point` (absent = "before");
   *  unknown keys do not take part. Throws TypeError on a value that is not a matcher. */
  function matchersEqual(a, b) {
    return native.gmMatchersEqual(matcherText(a, 'a'), matcherText(b, 'b'));
  }

  /** Whether `matcher` selects the gate `(kind, name, point)` (§5.12). */
  function matcherMatches(matcher, kind, name, point) {
    return native.gmMatcherMatches(matcherText(matcher, 'matcher'), stringArg(kind, 'kind'), stringArg(name, 'name'), stringArg(point, 'point'));
  }

  /** Whether a gate pauses: step mode at every `before` and `error` point, otherwise when any
   *  of `breakpoints` matches (§5.12). */
  function shouldPause(mode, breakpoints, kind, name, point) {
    return native.gmShouldPause(stringArg(mode, 'mode'), matcherTexts(breakpoints, 'breakpoints'), stringArg(kind, 'kind'), stringArg(name, 'name'), stringArg(point, 'point'));
  }

  /** Why a gate pauses (§5.12): `'breakpoint'` (checked first), `'step'` (step mode at a
   *  `before` or `error` point) or `null`; `shouldPause` is `pauseReason(...) !== null`. */
  function pauseReason(mode, breakpoints, kind, name, point) {
    return native.gmPauseReason(stringArg(mode, 'mode'), matcherTexts(breakpoints, 'breakpoints'), stringArg(kind, 'kind'), stringArg(name, 'name'), stringArg(point, 'point'));
  }

  /** Negotiates an app's `hello` payload for a viewer (§1 Handshake):
   *  `{kind:'refused', reason}` unless `versions.protocol` is 1, else
   *  `{kind:'accepted', protocol, capabilities, resumeToken?}` (capabilities both implement). */
  function negotiateHello(hello, viewerCapabilities = gmc.KNOWN_CAPABILITIES) {
    const text = jsonArg(hello, 'hello', 'a hello payload object');
    return JSON.parse(native.gmNegotiateHello(text, stringsArg(viewerCapabilities, 'viewerCapabilities')));
  }

  /** The `hello.ack` payload arming an app with the viewer's state (session §5.1); wrap it with
   *  `createEnvelope({type: 'hello.ack', payload, seq, runId: '*'})`. `viewer` (the viewer's
   *  version string) is required. */
  function helloAck(hello, state = {}) {
    if (state === null || typeof state !== 'object') throw new TypeError(`state must be an object {viewer, breakpoints?, mode?, sessionToken?, hubCapabilities?}, got ${typeOf(state)}`);
    const { viewer, breakpoints = [], mode = 'run', sessionToken, hubCapabilities } = state;
    const text = jsonArg(hello, 'hello', 'a hello payload object');
    const v = stringArg(viewer, 'viewer');
    const bps = matcherTexts(breakpoints, 'breakpoints');
    const m = stringArg(mode, 'mode');
    const token = sessionToken == null ? null : stringArg(sessionToken, 'sessionToken');
    const caps = hubCapabilities == null ? null : stringsArg(hubCapabilities, 'hubCapabilities');
    return JSON.parse(native.gmHelloAck(text, v, bps, m, token, caps));
  }

  function shrinkArgs(maxBytes, type) {
    if (maxBytes === undefined || maxBytes === null) maxBytes = gmc.DEFAULT_MAX_PAYLOAD_BYTES;
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
      throw new TypeError(`maxBytes must be a safe integer >= 0 (UTF-8 bytes of payload JSON), got ${typeof maxBytes === 'number' ? maxBytes : typeof maxBytes}`);
    }
    if (type !== undefined && type !== null && typeof type !== 'string') throw new TypeError(`type must be a string, null or undefined, got ${typeof type}`);
    return [maxBytes, type ?? null];
  }

  function shrunk(r) {
    return { json: r.json, tier: r.tier, truncated: r.tier > 1 };
  }

  /**
   * Shrinks a payload given as JSON text (read with JSON.parse semantics) to at most `maxBytes`
   * UTF-8 bytes of its JSON.stringify text, exactly as the reference's serializePayload
   * (graphmind-shrink §3): `{json, tier, truncated}`, `json` the text to send, `tier` 1
   * unchanged, 2 field trim, 3 skeleton, 4 whole-payload marker. `maxBytes` defaults to
   * DEFAULT_MAX_PAYLOAD_BYTES (512 KiB); `type`, an event type, enables the skeleton tier.
   * Throws SyntaxError when the text is not JSON, TypeError for bad arguments.
   */
  function shrinkPayloadJson(text, maxBytes, type) {
    if (typeof text !== 'string') throw new TypeError(`shrinkPayloadJson expects a string, got ${typeof text}`);
    const [max, t] = shrinkArgs(maxBytes, type);
    try {
      return shrunk(native.gmShrinkPayloadJson(text, max, t));
    } catch (e) {
      const msg = errorMessage(e);
      throw msg.startsWith('payload is not valid JSON') ? new SyntaxError(msg) : new Error(msg);
    }
  }

  /**
   * shrinkPayloadJson of `value`'s JSON.stringify text (`undefined` is `null`, as the
   * reference writes it). Throws TypeError for a value JSON.stringify refuses (BigInt, a
   * cycle): the reference's unserializable path (graphmind-shrink §9) is not implemented.
   */
  function shrinkPayload(value, maxBytes, type) {
    const [max, t] = shrinkArgs(maxBytes, type);
    let text;
    try {
      text = value === undefined ? 'null' : stringify(value);
    } catch (e) {
      throw new TypeError(`payload is not JSON-serializable: ${errorMessage(e)}`);
    }
    // A function or symbol at the top: JSON.stringify writes nothing, the reference null.
    if (text === undefined) text = 'null';
    try {
      return shrunk(native.gmShrinkPayloadJson(text, max, t));
    } catch (e) {
      throw new Error(internalError(e));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The reference's payload budget (serializePayload), type guards and LLM conventions
  // ---------------------------------------------------------------------------------------------

  const MAX_PAYLOAD_BYTES = gmc.DEFAULT_MAX_PAYLOAD_BYTES;
  const MARKER_KEY = gmc.TRUNCATION_MARKER_KEY;

  function isPlainObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  }

  /** Whether `value` carries the truncation marker (`__graphmindTruncated: true`): a payload or
   *  field the shrink cut (graphmind-shrink §4–§9). */
  function isTruncatedPayload(value) {
    return typeof value === 'object' && value !== null && value[MARKER_KEY] === true;
  }

  /** The budget as the contract takes it (a safe integer ≥ 0) with the reference's comparisons
   *  kept: `bytes <= maxBytes` and `2 * remaining <= maxBytes` hold for the floor of a
   *  fraction exactly as for the fraction; NaN and negatives fit nothing, as 0 fits nothing;
   *  Infinity fits everything. */
  function budgetArg(maxBytes) {
    if (maxBytes === undefined) return MAX_PAYLOAD_BYTES;
    const m = Number(maxBytes);
    if (!(m >= 0)) return 0;
    return m >= Number.MAX_SAFE_INTEGER ? Number.MAX_SAFE_INTEGER : Math.floor(m);
  }

  function shrinkNative(call) {
    try {
      return call();
    } catch (e) {
      throw new Error(internalError(e));
    }
  }

  /** A value JSON.stringify writes nothing for (undefined, a function, a symbol) as undefined,
   *  else the JSON value of `value`, with each value JSON.stringify refuses (a cycle back to an
   *  ancestor, a BigInt, a throwing toJSON or getter) replaced by `{}` and every object that
   *  does not stringify walked member by member, so the skeleton reads what it would read of
   *  the original (graphmind-shrink §9 U4). */
  function project(value, ancestors) {
    let text;
    try {
      text = stringify(value);
    } catch {
      text = null;
    }
    if (text === undefined) return undefined;
    if (text !== null) return JSON.parse(text);
    if (Array.isArray(value)) return [null]; // non-empty: the skeleton writes [] and lists it
    if (!isPlainObject(value) || ancestors.includes(value)) return {};
    ancestors.push(value);
    const out = {};
    for (const key of Object.keys(value)) {
      let v;
      try {
        const raw = value[key];
        v = hasToJSON(raw) ? projectMember(key, raw) : project(raw, ancestors);
      } catch (e) {
        if (e instanceof RangeError) throw e;
        v = {};
      }
      if (v !== undefined) Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
    }
    ancestors.pop();
    return out;
  }

  function hasToJSON(value) {
    return value !== null && typeof value === 'object' && typeof value.toJSON === 'function';
  }

  /** The JSON value of member `key` holding `raw`, an object with a toJSON: JSON.stringify calls
   *  toJSON with the member's name, which may answer otherwise than for "" (or throw: then `{}`,
   *  the stand-in of a value that does not stringify, as an object is what the payload holds). */
  function projectMember(key, raw) {
    let text;
    try {
      text = stringify({ [key]: raw });
    } catch {
      return {};
    }
    const member = Object.getOwnPropertyDescriptor(JSON.parse(text), key);
    return member === undefined ? undefined : member.value;
  }

  /** serializePayload for a payload JSON.stringify refuses (graphmind-shrink §9): which of its
   *  values stringify is the host's to say; the rules (U1–U5) are the contract's. */
  function serializeUnserializable(payload, max, type) {
    let projection = null;
    const keys = [];
    const arrays = [];
    if (isPlainObject(payload)) {
      try {
        for (const key of Object.keys(payload)) {
          const v = payload[key];
          if (!stringifies(v)) {
            keys.push(key);
            arrays.push(Array.isArray(v));
          }
        }
        projection = stringify(project(payload, []));
      } catch {
        // Nesting past the stack while walking: the whole-payload marker.
        projection = null;
        keys.length = 0;
        arrays.length = 0;
      }
    }
    const r = shrinkNative(() => native.gmShrinkUnserializable(projection, keys, arrays, max, type));
    return { json: r.json, payload: JSON.parse(r.json), truncated: true };
  }

  /**
   * The reference's `serializePayload(payload, maxBytes = MAX_PAYLOAD_BYTES, type?)`
   * (graphmind-shrink §3): `{json, payload, truncated}`. Within budget (UTF-8 bytes of the
   * `JSON.stringify` text) `payload` is the caller's own value and `json` its JSON.stringify
   * text; otherwise the contract shrinks it (field trim, skeleton for an event `type`,
   * whole-payload marker) and `payload` is the shrunk value. A payload JSON.stringify refuses
   * (a cycle, a BigInt) takes the unserializable path (§9) instead of throwing.
   */
  function serializePayload(payload, maxBytes, type) {
    const max = budgetArg(maxBytes);
    const t = typeof type === 'string' ? type : null;
    let text;
    try {
      text = stringify(payload);
    } catch {
      return serializeUnserializable(payload, max, t);
    }
    // undefined, a function or a symbol: JSON.stringify writes nothing, the reference "null".
    if (text === undefined) text = 'null';
    // At most 3 UTF-8 bytes per UTF-16 unit: fits without asking.
    if (text.length * 3 <= max) return { json: text, payload, truncated: false };
    const r = shrinkNative(() => native.gmShrinkPayloadJson(text, max, t));
    if (r.tier === 1) return { json: text, payload, truncated: false };
    return { json: r.json, payload: JSON.parse(r.json), truncated: true };
  }

  const MESSAGE_TYPE_SET = new Set(gmc.MESSAGE_TYPES);
  const EVENT_TYPE_SET = new Set(gmc.EVENT_TYPES);
  const CONTROL_TYPE_SET = new Set(gmc.CONTROL_TYPES);
  const HANDSHAKE_TYPE_SET = new Set(gmc.HANDSHAKE_TYPES);

  /** Whether `type` is one of the MESSAGE_TYPES (an exact match: `constructor` is not). */
  const isMessageType = (type) => MESSAGE_TYPE_SET.has(type);
  /** Whether `type` is one of the EVENT_TYPES. */
  const isEventType = (type) => EVENT_TYPE_SET.has(type);
  /** Whether `type` is one of the CONTROL_TYPES. */
  const isControlType = (type) => CONTROL_TYPE_SET.has(type);
  /** Whether `type` is one of the HANDSHAKE_TYPES. */
  const isHandshakeType = (type) => HANDSHAKE_TYPE_SET.has(type);

  /** The normalized finish reason (one of FINISH_REASONS) for a provider's raw value, or
   *  undefined when nothing usable was reported (not a string, or blank). A plain stop on a step
   *  that requested tool calls is `tool-calls`. The rules are the contract's. */
  function normalizeFinishReason(raw, hasToolCalls = false) {
    if (typeof raw !== 'string') return undefined;
    return shrinkNative(() => native.gmNormalizeFinishReason(raw, Boolean(hasToolCalls))) ?? undefined;
  }

  /** What a reader displays for a stored `usage` (`{inputTokens, outputTokens, basis, ...}`),
   *  or undefined when it is not a usage object. Never throws. Only the object's own top-level
   *  numbers and booleans take part (the rule reads nothing else), so a cycle or a BigInt
   *  elsewhere in it does not matter. */
  function readUsage(usage) {
    try {
      if (usage === null || typeof usage !== 'object') return undefined;
      let text = '[]';
      if (!Array.isArray(usage)) {
        const scalars = {};
        for (const key of Object.keys(usage)) {
          const v = usage[key];
          if (typeof v === 'number' || typeof v === 'boolean') Object.defineProperty(scalars, key, { value: v, enumerable: true });
        }
        text = JSON.stringify(scalars);
      }
      const view = native.gmReadUsage(text);
      return view == null ? undefined : JSON.parse(view);
    } catch {
      return undefined;
    }
  }

  const graphmind = Object.freeze({
    PROTOCOL_VERSION: gmc.PROTOCOL_VERSION,
    WILDCARD_RUN_ID: gmc.WILDCARD_RUN_ID,
    MESSAGE_TYPES: deepFreeze(gmc.MESSAGE_TYPES),
    EVENT_TYPES: deepFreeze(gmc.EVENT_TYPES),
    CONTROL_TYPES: deepFreeze(gmc.CONTROL_TYPES),
    HANDSHAKE_TYPES: deepFreeze(gmc.HANDSHAKE_TYPES),
    KNOWN_CAPABILITIES: deepFreeze(gmc.KNOWN_CAPABILITIES),
    MAX_FRAME_BYTES,
    MAX_DEPTH: gmc.DEFAULT_MAX_DEPTH,
    DEFAULT_MAX_PAYLOAD_BYTES: gmc.DEFAULT_MAX_PAYLOAD_BYTES,
    MAX_PAYLOAD_BYTES,
    MAX_SHRINK_KEYS: gmc.MAX_SHRINK_KEYS,
    MAX_TRIM_FIELDS: gmc.MAX_TRIM_FIELDS,
    TRUNCATION_SUFFIX: gmc.TRUNCATION_SUFFIX,
    FINISH_REASONS: deepFreeze(gmc.FINISH_REASONS),
    isMessageType,
    isEventType,
    isControlType,
    isHandshakeType,
    serializePayload,
    isTruncatedPayload,
    normalizeFinishReason,
    readUsage,
    parseEnvelopeJson,
    parseEnvelope,
    createEnvelope,
    serializeEnvelope,
    exportJsonSchema,
    exportJsonSchemaString,
    matchersEqual,
    matcherMatches,
    shouldPause,
    pauseReason,
    negotiateHello,
    helloAck,
    shrinkPayload,
    shrinkPayloadJson,
    BuildError,
  });

  // ---------------------------------------------------------------------------------------------
  // Graphorin
  // ---------------------------------------------------------------------------------------------

  const goc = CONSTANTS.graphorin;

  function parseFrame(direction, text) {
    let verdict;
    try {
      verdict = native.goParse(direction, text);
    } catch (e) {
      return { success: false, error: { isSyntaxError: false, isJson: false, message: internalError(e), issues: [], rpcErrorCode: -32603, replyId: 0 } };
    }
    if (verdict.charCodeAt(0) !== 123 /* { */) {
      try {
        return { success: true, data: JSON.parse(text), variant: verdict };
      } catch (e) {
        return { success: false, error: { isSyntaxError: true, isJson: true, message: `frame is not valid JSON: ${errorMessage(e)}`, issues: [], rpcErrorCode: -32700, replyId: 0 } };
      }
    }
    const error = verdictOf(verdict);
    if (!error.hasId) delete error.id;
    delete error.hasId;
    return { success: false, error };
  }

  function frameText(text) {
    if (typeof text === 'string') return text;
    try {
      return String(text);
    } catch {
      return '';
    }
  }

  function valueText(value) {
    try {
      const text = JSON.stringify(value);
      return text === undefined ? 'undefined' : text;
    } catch {
      return 'undefined';
    }
  }

  /** Parses a server → client frame: `{success:true, data, variant}` or
   *  `{success:false, error:{isSyntaxError, isJson (its deprecated old name), message, issues:[{path, code, message}], id?, rpcErrorCode,
   *  replyId}}`. Never throws. */
  function parseServerMessage(text) {
    return parseFrame(0, frameText(text));
  }

  /** Parses a client → server frame; the result as for parseServerMessage. Never throws. */
  function parseClientMessage(text) {
    return parseFrame(1, frameText(text));
  }

  /** parseServerMessage on an already decoded value (its JSON.stringify text). */
  function parseServerMessageValue(value) {
    return parseFrame(0, valueText(value));
  }

  /** parseClientMessage on an already decoded value (its JSON.stringify text). */
  function parseClientMessageValue(value) {
    return parseFrame(1, valueText(value));
  }

  // Guards (§3.3): narrowing, not validation. A variant with a `kind`/`method` literal checks
  // that member only; the RPC responses check their other literals (`jsonrpc`) and the key only
  // they require (`result`, `error`).
  function makeGuard(union, variant) {
    const frame = GO.objectsByName.get(variant.frame);
    const discriminator = frame.literals.find(([k]) => k === 'kind' || k === 'method');
    if (discriminator) {
      const [key, lit] = discriminator;
      return (m) => m !== null && typeof m === 'object' && m[key] === lit;
    }
    const checks = frame.literals.filter(([k]) => k !== GO.version[0]);
    const siblings = union.variants
      .filter((v) => v !== variant)
      .map((v) => GO.objectsByName.get(v.frame))
      .filter((o) => !o.literals.some(([k]) => k === 'kind' || k === 'method'));
    const own = frame.fields.filter((f) => f.required && !siblings.some((o) => o.fields.some((g) => g.wire === f.wire && g.required))).map((f) => f.wire);
    return (m) => m !== null && typeof m === 'object' && checks.every(([k, v]) => m[k] === v) && own.every((k) => k in m);
  }

  const guards = {};
  for (const union of GO.unions) {
    for (const variant of union.variants) guards[variant.guardJs] = makeGuard(union, variant);
  }

  function pairsToObject(pairs) {
    return Object.freeze(Object.fromEntries(pairs));
  }

  const CLOSE_CODE_VALUES = pairsToObject(goc.CLOSE_CODE_VALUES);
  const CLOSE_REASON_BY_CODE = new Map(goc.CLOSE_CODE_VALUES.map(([r, c]) => [c, r]));

  /** The close code of a reason (4001–4008), or undefined for an unknown reason. */
  function closeCodeFor(reason) {
    return Object.prototype.hasOwnProperty.call(CLOSE_CODE_VALUES, reason) ? CLOSE_CODE_VALUES[reason] : undefined;
  }

  /** The reason of a close code, or undefined outside the table. */
  function closeCodeReason(code) {
    return CLOSE_REASON_BY_CODE.get(code);
  }

  /** What a schema's `parse` throws: an Error carrying the ParseError fields (`isSyntaxError`, `isJson`,
   *  `issues`, `id`, `rpcErrorCode`, `replyId`). */
  class SchemaError extends Error {
    constructor(error) {
      super(error.message);
      this.name = 'SchemaError';
      this.isSyntaxError = error.isSyntaxError;
      this.isJson = error.isJson;
      this.issues = error.issues;
      if ('id' in error) this.id = error.id;
      this.rpcErrorCode = error.rpcErrorCode;
      this.replyId = error.replyId;
    }
  }

  /** A zod-shaped schema object over an already decoded value, for code written against the
   *  reference's `ServerMessageSchema.safeParse(JSON.parse(text))`: `safeParse` never throws,
   *  `parse` returns the frame or throws SchemaError. */
  function messageSchema(parseValue) {
    return Object.freeze({
      safeParse: (value) => parseValue(value),
      parse(value) {
        const r = parseValue(value);
        if (r.success) return r.data;
        throw new SchemaError(r.error);
      },
    });
  }

  /** The entries of a subprotocol offer (§7): a header value (`"a, b"`) is one entry, a list
   *  gives its string entries, anything else none. */
  function offerEntries(offer) {
    if (typeof offer === 'string') return [offer];
    if (Array.isArray(offer)) return offer.filter((e) => typeof e === 'string');
    return [];
  }

  /** The subprotocol to answer an offer with: SUBPROTOCOL_NAME when offered, else null. */
  function negotiateSubprotocol(offer) {
    return native.goNegotiate(offerEntries(offer)) ?? null;
  }

  /** The ticket carried in an offer (the first non-empty `ticket.<value>`), else undefined. */
  function parseTicketSubprotocol(offer) {
    return native.goParseTicket(offerEntries(offer)) ?? undefined;
  }

  /** The offer entry carrying a ticket, `ticket.<ticket>`; TypeError for an empty or
   *  non-string ticket. */
  function formatTicketSubprotocol(ticket) {
    if (typeof ticket !== 'string') throw new TypeError('ticket must be a string');
    try {
      return native.goFormatTicket(ticket);
    } catch (e) {
      throw new TypeError(errorMessage(e));
    }
  }

  /** The Graphorin JSON Schema (draft 2020-12) as an object. */
  function exportGraphorinJsonSchema() {
    return JSON.parse(native.goSchemaString());
  }

  const graphorin = Object.freeze({
    PROTOCOL_VERSION: goc.PROTOCOL_VERSION,
    JSONRPC_VERSION: goc.JSONRPC_VERSION,
    SUBPROTOCOL_NAME: goc.SUBPROTOCOL_NAME,
    TICKET_SUBPROTOCOL_PREFIX: goc.TICKET_SUBPROTOCOL_PREFIX,
    RPC_ERROR_CODES: pairsToObject(goc.RPC_ERROR_CODES),
    CLOSE_CODE_VALUES,
    KINDS: deepFreeze(goc.KINDS),
    METHODS: deepFreeze(goc.METHODS),
    LIFECYCLE_STATUSES: deepFreeze(goc.LIFECYCLE_STATUSES),
    parseServerMessage,
    parseClientMessage,
    parseServerMessageValue,
    parseClientMessageValue,
    ServerMessageSchema: messageSchema(parseServerMessageValue),
    ClientMessageSchema: messageSchema(parseClientMessageValue),
    SchemaError,
    negotiateSubprotocol,
    parseTicketSubprotocol,
    formatTicketSubprotocol,
    closeCodeFor,
    closeCodeReason,
    exportJsonSchema: exportGraphorinJsonSchema,
    exportJsonSchemaString: () => native.goSchemaString(),
    ...guards,
  });

  // ---------------------------------------------------------------------------------------------
  // Any registered protocol by name (the registry's parse, from the declaration alone)
  // ---------------------------------------------------------------------------------------------

  const PROTOCOL_NAMES = deepFreeze(REGISTRY.protocols.map((p) => p.name));

  /** The names of every registered protocol, in registry order. */
  function protocols() {
    return PROTOCOL_NAMES;
  }

  /**
   * Parses one frame of the registered protocol `protocolName` with its registered parser:
   * `{kind, message?, object?, reason?, issues?}` (bindings/js-text `frame_verdict_json`).
   * Rust validates, V8 materializes: an accepted object is read from `text` by JSON.parse (the
   * frame, or its envelope's payload), as the GraphMind namespace reads an envelope. Bad
   * input is a verdict (a non-string frame is `invalid`); a non-string `protocolName` is a
   * TypeError, and one the registry does not hold an Error naming the ones it does.
   */
  function parseAnyFrame(protocolName, text) {
    if (typeof protocolName !== 'string') throw new TypeError(`protocolName must be a string, got ${typeof protocolName}`);
    if (typeof text !== 'string') {
      return { kind: 'invalid', reason: `frame must be a string, got ${text === null ? 'null' : typeof text}`, issues: [] };
    }
    let verdict;
    try {
      verdict = native.parseFrameJson(protocolName, text);
    } catch (e) {
      const m = errorMessage(e);
      throw new Error(m.startsWith('unknown protocol ') ? m : internalError(e));
    }
    const v = verdictOf(verdict);
    const at = v.objectAt;
    delete v.objectAt;
    if (at === 'frame') v.object = JSON.parse(text);
    else if (at === 'payload') v.object = JSON.parse(text).payload;
    return v;
  }

  const out = {
    graphmind,
    graphorin,
    VERSION: backend.version(),
    CONTRACT_ID,
    protocols,
    parseFrame: parseAnyFrame,
    // The GraphMind reference package's names at the top level too (drop-in for
    // `import { parseEnvelopeJson } from '@graphmind-ai/schema'`).
    ...graphmind,
  };
  // The zod schema objects (NodeKindSchema, …, KnownEnvelopeSchema), generated from the
  // registry into zod-schemas.js, made over the application's zod on first use: zod is an
  // optional peer dependency, so the package loads without it and a schema used without it
  // throws an Error that says so.
  for (const name of SCHEMA_NAMES) {
    Object.defineProperty(out, name, { enumerable: true, configurable: false, get: () => zodSchema(name) });
  }
  return out;
}

const { SCHEMA_NAMES } = require('./zod-schemas.js');
let zodSchemas;
let zodError;

/** The schema `name` over the installed zod, or (zod missing) an object whose every use throws
 *  an Error naming the fix. */
function zodSchema(name) {
  if (zodSchemas === undefined && zodError === undefined) {
    try {
      zodSchemas = require('./zod.js');
    } catch (e) {
      zodError = e;
    }
  }
  if (zodSchemas !== undefined) return zodSchemas[name];
  const fail = () => {
    const err = new Error(`@wirecontract/node: ${name} needs zod 4, an optional peer dependency of this package (npm install zod): ${errorMessage(zodError)}`);
    err.cause = zodError;
    throw err;
  };
  return new Proxy(Object.freeze({}), { get: fail, has: fail, apply: fail, ownKeys: fail, getOwnPropertyDescriptor: fail });
}

module.exports = { createApi, checkContract };
