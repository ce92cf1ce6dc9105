// View deltas (docs/protocol.md, "View deltas"): a delta applied to the view held gives the next one. The held view
// is left as it was (the result shares its unchanged parts); a delta that does not fit it throws, and the table then
// asks for the whole view. The same rules as the Python client's (protocol/delta.py `apply`).

const SET = 0, REMOVE = 1, MAP = 2, SPLICE = 3, ITEMS = 4;

function isMap(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function misfit(why) {
  return new Error(`the delta does not fit the view held: ${why}`);
}

// `old` with `delta` applied, as a new map.
export function applyDelta(old, delta) {
  if (!isMap(old) || !isMap(delta)) throw misfit("a map delta applies to a map");
  const out = { ...old };
  for (const [key, op] of Object.entries(delta)) {
    if (!Array.isArray(op) || op.length === 0) throw misfit(`bad operation for ${key}`);
    if (op[0] === REMOVE) {
      if (!(key in out)) throw misfit(`removes ${key}, which is absent`);
      delete out[key];
    } else if (op[0] === SET && op.length === 2) {
      out[key] = op[1];
    } else if (!(key in out)) {
      throw misfit(`changes ${key}, which is absent`);
    } else {
      out[key] = applyOp(out[key], op);
    }
  }
  return out;
}

function applyOp(old, op) {
  const kind = op[0];
  if (op.length !== 2) throw misfit(`operation ${kind} lacks its argument`);
  if (kind === SET) return op[1];
  if (kind === MAP) return applyDelta(old, op[1]);
  if (!Array.isArray(old)) throw misfit("a list operation applies to a list");
  if (kind === SPLICE) {
    const spans = op[1];
    if (!Array.isArray(spans) || spans.length % 3) throw misfit("a splice holds [at, count, items] triples");
    const out = [];
    let kept = 0;
    for (let at = 0; at < spans.length; at += 3) {
      const [start, count, items] = [spans[at], spans[at + 1], spans[at + 2]];
      if (!Number.isInteger(start) || !Number.isInteger(count) || !Array.isArray(items)
          || !(kept <= start && start <= start + count && start + count <= old.length)) {
        throw misfit("a splice's spans are out of order or out of the list");
      }
      out.push(...old.slice(kept, start), ...items);
      kept = start + count;
    }
    out.push(...old.slice(kept));
    return out;
  }
  if (kind === ITEMS) {
    const pairs = op[1];
    if (!Array.isArray(pairs) || pairs.length % 2) throw misfit("an items operation holds [index, op] pairs");
    const out = old.slice();
    for (let at = 0; at < pairs.length; at += 2) {
      const [index, each] = [pairs[at], pairs[at + 1]];
      if (!Number.isInteger(index) || index < 0 || index >= out.length || !Array.isArray(each) || each.length === 0) {
        throw misfit(`no item ${index} in a list of ${out.length}`);
      }
      out[index] = applyOp(out[index], each);
    }
    return out;
  }
  throw misfit(`unknown operation ${kind}`);
}
