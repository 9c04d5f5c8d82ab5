'use strict';
// JSON.stringify(value) (no replacer, no indentation) without recursion, for values nested
// deeper than the engine's JSON.stringify can go on its stack (V8 throws "Maximum call stack
// size exceeded" from a few thousand levels). Members are visited in JSON.stringify's order
// (Object.keys, array indices), toJSON is called and Number/String/Boolean/BigInt wrappers are
// unwrapped as JSON.stringify does (ECMA-262 SerializeJSONProperty); every scalar and key is
// written by JSON.stringify itself, so escapes, lone surrogates and numbers are spelled alike.
// A cycle or a BigInt throws the same TypeError as JSON.stringify. Nothing here knows the
// protocol: it is a JSON writer.

/** The value JSON.stringify writes for `holder[key]` (toJSON, then wrapper unwrapping). */
function prepare(key, value) {
  if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
    const toJSON = value.toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, key);
  }
  if (typeof value === 'object' && value !== null) {
    if (value instanceof Number) return Number(value);
    if (value instanceof String) return String(value);
    // The internal value, as JSON.stringify reads it (an own valueOf is not called).
    if (value instanceof Boolean) return Boolean.prototype.valueOf.call(value);
    if (value instanceof BigInt) return BigInt.prototype.valueOf.call(value);
  }
  return value;
}

/** Whether JSON.stringify writes nothing for this prepared value (an object member is left
 *  out, an array item becomes null). */
function skipped(value) {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** JSON.stringify(root), iteratively: the same text, or the same TypeError. */
function stringifyDeep(root) {
  const out = [];
  const stack = [];
  const onPath = new Set();
  // Writes a prepared, not skipped value: a scalar at once, a container's opening bracket and
  // a frame that writes its members.
  const write = (value) => {
    if (value === null || typeof value !== 'object') {
      out.push(JSON.stringify(value)); // a BigInt throws JSON.stringify's own TypeError
      return;
    }
    if (onPath.has(value)) throw new TypeError('Converting circular structure to JSON');
    onPath.add(value);
    if (Array.isArray(value)) {
      out.push('[');
      stack.push({ value, keys: null, length: value.length, i: 0, any: false });
    } else {
      out.push('{');
      const keys = Object.keys(value);
      stack.push({ value, keys, length: keys.length, i: 0, any: false });
    }
  };
  const first = prepare('', root);
  if (skipped(first)) return undefined;
  write(first);
  while (stack.length > 0) {
    const f = stack[stack.length - 1];
    let opened = false;
    while (f.i < f.length && !opened) {
      const at = f.i++;
      if (f.keys === null) {
        if (at > 0) out.push(',');
        const v = prepare(String(at), f.value[at]);
        if (skipped(v)) out.push('null');
        else {
          const depth = stack.length;
          write(v);
          opened = stack.length > depth;
        }
      } else {
        const key = f.keys[at];
        const v = prepare(key, f.value[key]);
        if (skipped(v)) continue;
        out.push(f.any ? ',' : '', JSON.stringify(key), ':');
        f.any = true;
        const depth = stack.length;
        write(v);
        opened = stack.length > depth;
      }
    }
    if (opened) continue;
    out.push(f.keys === null ? ']' : '}');
    onPath.delete(f.value);
    stack.pop();
  }
  return out.join('');
}

/** Whether `e` is the engine running out of stack (not an error thrown by a toJSON). */
function isStackOverflow(e) {
  return e instanceof RangeError && /call stack/i.test(e.message);
}

/** JSON.stringify(value), falling back to stringifyDeep when the engine's stack runs out. */
function stringify(value) {
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (!isStackOverflow(e)) throw e;
  }
  return stringifyDeep(value);
}

module.exports = { stringify, stringifyDeep };
