// Large JSON answers (an impact report, a validated list of 10,000 codes: megabytes) written a
// slice of their long array at a time, with a macrotask between slices: one JSON.stringify of
// the whole would hold the serving thread for tens to hundreds of milliseconds. The REST routes
// name their lists (jsonChunks); a GraphQL result's are found in it (jsonValueChunks).
import { nextTurn } from '../runtime/nextTurn.ts';

/**
 * `JSON.stringify({...head, ...lists})`, each list as chunks of `perChunk` items: an impact's
 * 100,000 rows and its bad rows alike (1,000 rows of a report per chunk were turns of 20-40 ms
 * on a loaded host, issue 27).
 */
export function* jsonChunks(head: object, lists: Record<string, readonly unknown[]>, perChunk = 250): Generator<string> {
  const start = JSON.stringify(head);
  let open = start.slice(0, -1); // the head without its closing brace
  let comma = start !== '{}';
  for (const [key, items] of Object.entries(lists)) {
    yield `${open}${comma ? ',' : ''}${JSON.stringify(key)}:[`;
    open = '';
    comma = true;
    for (let k = 0; k < items.length; k += perChunk) {
      const part = JSON.stringify(items.slice(k, k + perChunk));
      yield `${k ? ',' : ''}${part.slice(1, -1)}`;
    }
    yield ']';
  }
  yield `${open}}`;
}

/** Objects nested this deep at most are looked into for long lists (a GraphQL result's are at data.field.list). */
const LIST_DEPTH = 6;

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * Whether `value` holds a list of more than `perChunk` items: itself, or in an object's fields
 * LIST_DEPTH levels down at most (a list's items are not looked into: a few field reads per level).
 */
export function holdsLongList(value: unknown, perChunk = 250, depth = 0): boolean {
  if (Array.isArray(value)) return value.length > perChunk;
  if (!isPlainObject(value) || depth >= LIST_DEPTH) return false;
  for (const k in value) if (Object.hasOwn(value, k) && holdsLongList(value[k], perChunk, depth + 1)) return true;
  return false;
}

/**
 * `JSON.stringify(value)` as chunks, each long list (holdsLongList) `perChunk` items per chunk
 * with the text before it; everything else as JSON.stringify writes it (same keys, same order).
 */
export function* jsonValueChunks(value: unknown, perChunk = 250): Generator<string> {
  let pending = '';
  function* write(v: unknown, depth: number): Generator<string> {
    if (Array.isArray(v) && v.length > perChunk) {
      for (let k = 0; k < v.length; k += perChunk) {
        const part = JSON.stringify(v.slice(k, k + perChunk));
        yield `${pending}${k ? ',' : '['}${part.slice(1, -1)}`;
        pending = '';
      }
      pending = ']';
    } else if (isPlainObject(v) && holdsLongList(v, perChunk, depth)) {
      pending += '{';
      let first = true;
      for (const [k, field] of Object.entries(v)) {
        // As JSON.stringify: fields it would leave out are left out.
        if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
        pending += `${first ? '' : ','}${JSON.stringify(k)}:`;
        first = false;
        yield* write(field, depth + 1);
      }
      pending += '}';
    } else pending += JSON.stringify(v) ?? 'null';
  }
  yield* write(value, 0);
  if (pending) yield pending;
}

/** A response body of text chunks, one chunk per macrotask. */
export function streamChunks(chunks: Iterator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // A macrotask between slices: a reader that takes chunks as fast as they come (in
      // process, or a fast socket) would otherwise chain every slice in microtasks.
      await nextTurn();
      const next = chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
}
