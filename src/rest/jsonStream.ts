// Large JSON answers (an impact report, a validated list of 10,000 codes: megabytes) written a
// slice of their long array at a time, with a macrotask between slices: one JSON.stringify of
// the whole would hold the serving thread for tens to hundreds of milliseconds.
import { nextTurn } from '../runtime/nextTurn.ts';

/** `JSON.stringify({...head, [key]: items})`, as chunks of `perChunk` items. */
export function* jsonChunks<K extends string>(head: object, key: K, items: readonly unknown[], perChunk = 1000): Generator<string> {
  const start = JSON.stringify({ ...head, [key]: [] });
  yield start.slice(0, -2); // …,"key":[
  for (let k = 0; k < items.length; k += perChunk) {
    const part = JSON.stringify(items.slice(k, k + perChunk));
    yield `${k ? ',' : ''}${part.slice(1, -1)}`;
  }
  yield ']}';
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
