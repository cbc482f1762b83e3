// A turn of the event loop for others: long work in slices awaits it between slices, so
// requests and I/O waiting behind it run (setImmediate: after pending I/O callbacks, unlike a
// resolved promise or process.nextTick, which would run before them).
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
