// Large JSON answers (an impact report, a validated list of 10,000 codes: megabytes) written a
// slice of their long array at a time, with a macrotask between slices: one JSON.stringify of
// the whole would hold the serving thread for tens to hundreds of milliseconds.
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
