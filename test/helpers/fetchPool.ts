// Node's fetch keeps its connections alive for ~4 s after each answer (undici's pool). A test that
// needs a server to have no client connection left (a shutdown's drain) closes them here instead of
// sleeping past that idle timeout.

// undici (Node's fetch) keeps its dispatcher under this registered symbol, shared by every copy of undici.
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

interface Dispatcher {
  close(): Promise<void>;
}

/**
 * Gives fetch a new pool and closes the old one's connections (after any request in flight on
 * them is answered). Later fetches of this process open new connections.
 */
export async function closeFetchConnections(): Promise<void> {
  const holder = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  const old = holder[GLOBAL_DISPATCHER];
  // No fetch yet in this process: no pool, no connections.
  if (old === undefined) return;
  holder[GLOBAL_DISPATCHER] = new (old.constructor as new () => Dispatcher)();
  await old.close();
}
