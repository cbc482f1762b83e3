// A change record's JSON text as its stored row reads back (listing.ts asStored, then
// JSON.stringify), written directly: no copy of the record, of its metadata, nor of metadata's
// before/after objects in jsonb's key order is made first. The changes worker (encodeRanged.ts)
// writes one per record of a far pair (~217k at full size): the copies were ~0.9 s of its CPU and
// much of its GC (bench/results.md, farstall). Strings go through JSON.stringify one by one, so
// the text is the same byte for byte (test/domain/changes-stored-json.test.ts).
import type { ChangeRecord } from './engine.ts';
import { jsonbKeyOrder } from './listing.ts';

const str = (s: string | null) => (s === null ? 'null' : JSON.stringify(s));

/** A value as inJsonbOrder() then JSON.stringify() write it (objects' keys in jsonb's order, undefined properties left out). */
function valueJson(v: unknown): string | undefined {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + (valueJson(v[i]) ?? 'null');
    return `${out}]`;
  }
  return objectJson(v as Record<string, unknown>);
}

function objectJson(o: Record<string, unknown>): string {
  const keys = Object.keys(o);
  let out = '{';
  let first = true;
  // One key or none (most records: an added LLT's `after` has two, its `before` none): no order to look up.
  for (const k of keys.length < 2 ? keys : jsonbKeyOrder(keys)) {
    const v = valueJson(o[k]);
    if (v === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(k)}:${v}`;
    first = false;
  }
  return `${out}}`;
}

/** JSON.stringify(asStored(r)): CHANGE_COLUMNS' key order, metadata's keys (after, kinds, before) and theirs in jsonb's. */
export function storedJson(r: ChangeRecord): string {
  const m = r.metadata;
  const kinds = m.kinds.length === 1 ? `["${m.kinds[0]}"]` : JSON.stringify(m.kinds);
  const text =
    `{"level":"${r.level}","code":${r.code},"changeType":"${r.changeType}","term":${str(r.term)},"details":${str(r.details)},` +
    `"previousTerm":${str(r.previousTerm)},"metadata":{"after":${objectJson(m.after)},"kinds":${kinds},"before":${objectJson(m.before)}}}`;
  // Made flat now (reading a character flattens a concatenation in place): kept until the set is joined, a
  // concatenation's tree of pieces was ~20 heap objects per record for every collection to copy and mark
  // (measured at full size: the worker's GC threads 1.6 → 3.0 s of CPU before this).
  if (text.charCodeAt(text.length - 1) !== 0x7d) throw new Error('change record JSON not closed');
  return text;
}
