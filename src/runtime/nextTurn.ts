// A turn of the event loop for others: long work in slices awaits it between slices, so
// requests and I/O waiting behind it run (setImmediate: after pending I/O callbacks, unlike a
// resolved promise or process.nextTick, which would run before them).
//
// One waiter is let go per turn of the loop, in the order they came. With a bare setImmediate
// each, every job in slices queued its next slice for the same check phase, so a turn ran one
// slice of each job back to back: six concurrent uploads held the loop for six slices between
// two reads of the sockets (a probe's p99 of 180 ms, issue 27). Now a turn runs one slice, and
// the jobs take turns with each other and with I/O.

const waiting: (() => void)[] = [];
let scheduled = false;

function releaseOne(): void {
  const next = waiting.shift();
  // The next waiter goes in a later turn: an immediate queued from the check phase runs in the
  // next iteration of the loop, after its I/O.
  if (waiting.length > 0) setImmediate(releaseOne);
  else scheduled = false;
  next?.();
}

export const nextTurn = (): Promise<void> =>
  new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(releaseOne);
    }
  });
