// How many turns of the event loop ran while a promise was pending: a setImmediate callback that
// queues itself again counts each check phase reached. Work that awaits only promise callbacks
// (PGlite's statements) reaches none; work that yields (nextTurn) one per yield at least.
export async function turnsWhile<T>(pending: Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let waiting = true;
  const tick = () => {
    turns++;
    if (waiting) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const value = await pending;
    return { value, turns };
  } finally {
    waiting = false;
  }
}
