// A TCP proxy on loopback that a test can break and mend, to simulate the faults of a
// database or Redis link: a stall (a partition: connections stay open, nothing arrives,
// no reset), a reset (every connection, old and new, gets RST), a refusal (nothing listens).
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type ProxyMode = 'pass' | 'stall' | 'reset' | 'refuse';

export interface TcpProxy {
  port: number;
  mode(): ProxyMode;
  /** Connections accepted so far (to wait for a client's retry). */
  accepted(): number;
  /** Stop forwarding in both directions without closing anything; new connections are held, unanswered. */
  stall(): Promise<void>;
  /** Reset every connection and every new one (RST). */
  reset(): Promise<void>;
  /** Reset every connection and stop listening: new connections are refused. */
  refuse(): Promise<void>;
  /** The old name of refuse(). */
  cut(): Promise<void>;
  /** Forward again on the same port; stalled connections resume where they stopped. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream?: Socket;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let mode: ProxyMode = 'pass';
  let accepted = 0;
  let server: Server | undefined;

  const link = (p: Pair) => {
    if (!p.upstream) {
      p.upstream = connect(targetPort, targetHost);
      p.upstream.on('error', () => {});
      p.upstream.on('close', () => p.client.destroy());
    }
    p.client.pipe(p.upstream);
    p.upstream.pipe(p.client);
  };
  const unlink = (p: Pair) => {
    p.client.unpipe();
    p.client.pause();
    p.upstream?.unpipe();
    p.upstream?.pause();
  };
  const resetAll = () => {
    for (const p of pairs) {
      if (!p.client.destroyed) p.client.resetAndDestroy();
      if (p.upstream && !p.upstream.destroyed) p.upstream.resetAndDestroy();
    }
    pairs.clear();
  };

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const s = createServer((client) => {
        client.on('error', () => {});
        accepted++;
        if (mode === 'reset') {
          client.resetAndDestroy();
          return;
        }
        const p: Pair = { client };
        pairs.add(p);
        client.on('close', () => {
          pairs.delete(p);
          p.upstream?.destroy();
        });
        if (mode === 'pass') link(p);
        else client.pause();
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        server = s;
        resolve((s.address() as AddressInfo).port);
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = undefined;
      if (!s) return resolve();
      s.close(() => resolve());
    });
  const port = await listen(0);

  const refuse = async () => {
    mode = 'refuse';
    resetAll();
    await stopListening();
  };
  return {
    port,
    mode: () => mode,
    accepted: () => accepted,
    async stall() {
      mode = 'stall';
      for (const p of pairs) unlink(p);
    },
    async reset() {
      mode = 'reset';
      resetAll();
    },
    refuse,
    cut: refuse,
    async restore() {
      if (mode === 'pass') return;
      if (!server) await listen(port);
      mode = 'pass';
      for (const p of pairs) link(p);
    },
    async close() {
      mode = 'refuse';
      for (const p of pairs) {
        p.client.destroy();
        p.upstream?.destroy();
      }
      pairs.clear();
      await stopListening();
    },
  };
}

/** A proxy in front of the PostgreSQL server of `databaseUrl`, and that URL through it. */
export async function proxiedPostgres(databaseUrl: string): Promise<{ proxy: TcpProxy; url: URL }> {
  const target = new URL(databaseUrl);
  const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return { proxy, url };
}
