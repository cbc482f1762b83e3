// Batched statements, one after another with a turn between them (the embedded store runs each on
// the serving thread, so a request waits for at most one), or a few at a time where the database's
// own processes run them (PostgreSQL: the batches' server work overlaps, with this thread's too).
import { nextTurn } from '../../runtime/nextTurn.ts';

/** Batches in flight at once when they may overlap: the pool's connections are shared with requests. */
const OVERLAPPING = 3;

/** Runs `run(start)` for start = 0, size, 2·size… below n: in order with a turn between, or OVERLAPPING at a time. */
export async function inBatches(n: number, size: number, overlap: boolean, run: (start: number) => Promise<void>): Promise<void> {
  if (!overlap) {
    for (let start = 0; start < n; start += size) {
      await run(start);
      await nextTurn();
    }
    return;
  }
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const start = next;
      next += size;
      await run(start);
    }
  };
  await Promise.all(Array.from({ length: Math.min(OVERLAPPING, Math.ceil(n / size)) }, worker));
}
