// Starts the service: database (migrated), demo releases on an empty store, the HTTP
// app with its protections, and a graceful shutdown on SIGTERM/SIGINT.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getHeapStatistics } from 'node:v8';
import type { Config } from './config.ts';
import { describeTarget, openMigrated } from './db/open.ts';
import type { Database } from './db/client.ts';
import { ensureDemoReleases } from './importer/demo.ts';
import { createApp } from './http/app.ts';
import { nodeListener } from './http/nodeListener.ts';
import { trackConnections } from './http/drain.ts';
import { limitHeaderSize, onAdapterError, onClientError, onConnect, PARSER_HEADER_LIMIT, requireHost } from './http/clientError.ts';
import { createLogger, type Logger } from './logger.ts';
import { compose } from './compose.ts';
import { warmBeforeListening } from './startupWarming.ts';
import { warmRoutesBeforeListening } from './http/routeWarming.ts';
import { startControlChannel, type ControlCommands } from './net/controlChannel.ts';
import { listen } from './net/listen.ts';
import { createObservability } from './observability/setup.ts';
import { startTracing } from './observability/tracing.ts';
import { closeStore } from './services/closeStore.ts';

export interface RunningServer {
  url: string;
  port: number;
  db: Database;
  log: Logger;
  close(): Promise<void>;
}

/** During the shutdown drain, a keep-alive socket idle this long is closed (a busy client's pause is far shorter). */
const DRAIN_IDLE_GRACE_MS = 500;
export interface ServerOptions {
  log?: Logger;
  handleSignals?: boolean;
  /**
   * The commands the CLI may run on this server's embedded store through the control socket
   * (src/net/controlChannel.ts); given by `terminology serve` (src/cli/control.ts). Without
   * them no socket is opened.
   */
  controlCommands?: (db: Database) => ControlCommands;
}

export async function startServer(config: Config, opts: ServerOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? createLogger(config.logLevel, undefined, config.logFormat);
  const started = performance.now();
  // Before the database opens, so its statements are timed from the first (off unless configured).
  let hosted: () => string[] = () => [];
  const observability = createObservability(config, () => hosted());
  // OpenTelemetry traces (off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then nothing is loaded).
  const tracing = await startTracing(config, log);
  if (config.databaseUrl) log.info({ database: describeTarget(config.databaseUrl) }, 'connecting to the database');
  const db = await openMigrated(
    { ...config, replicaUrls: config.replicaUrls },
    {
      queryTimeoutMs: config.databaseQueryTimeoutMs,
      onRetry: (r) => log.warn({ database: r.target, attempt: r.attempt, retryInMs: r.retryInMs, err: { message: r.error } }, 'database not reachable; retrying'),
      onUpgradeProgress: (message) => log.info({ store: 'upgrade' }, message),
    },
  );
  // A store written by an older PGlite was copied to the installed one: where the old copy is, once.
  if (db.upgraded) {
    const { fromMajor, toMajor, backup, tables, rows, ms } = db.upgraded;
    log.warn({ fromMajor, toMajor, backup, tables, rows, ms }, `store upgraded from PostgreSQL ${fromMajor} to ${toMajor}; the old copy is kept at ${backup}: delete it once the store has been checked`);
  }
  // A first start: whether the shipped empty cluster served, or why initdb ran instead (src/db/seedStore.ts).
  if (db.created) {
    const { from, reason } = db.created;
    log.info({ store: from, ...(reason ? { reason } : {}) }, from === 'archive' ? 'new store: unpacked from the shipped empty cluster' : 'new store: initialised by initdb (the shipped empty cluster was not used)');
  }
  if (config.demo) {
    const imported = await ensureDemoReleases(
      db,
      (version, p) => {
        if (p.phase === 'done' || p.phase === 'read') log.info({ release: version, phase: p.phase }, p.message);
      },
      (list) => {
        // The first start spends seconds here before listening: say so, to the person too.
        const versions = list.map((r) => r.version);
        log.info({ releases: versions }, 'empty store: importing the demo releases (first start only; about 10 s)');
        if (process.stdout.isTTY) process.stdout.write(`\nFirst start: importing the demo releases ${versions.join(', ')} into the empty store (about 10 s)…\n`);
      },
    );
    if (imported.length) log.info({ releases: imported.map((s) => (s.kind === 'language' ? `${s.version} (${s.languageTag})` : s.version)) }, 'imported the demo releases into the empty store');
  }
  if (config.trustProxy.kind === 'all') {
    log.warn('TRUST_PROXY=true: the left-most X-Forwarded-For entry is the rate-limit key, and clients can write it themselves; list the proxies instead (README, Rate limits)');
  }
  let shuttingDown = false;
  // Loaded with traces only (it brings OpenTelemetry's API).
  const graphqlTracing = tracing ? (await import('./graphql/tracingPlugin.ts')).graphqlTracingPlugin(tracing.tracer) : undefined;
  const { services, appOptions, limiter, close: closeServices } = compose(config, db, log, { isShuttingDown: () => shuttingDown, metrics: observability?.metrics, graphqlTracing });
  const { catalog, assessment } = services;
  const app = createApp(services, appOptions);
  hosted = () => (catalog.releasesNow() ?? []).flatMap((r) => r.languages);

  const warming = await warmBeforeListening(config, db, services, log, () => shuttingDown);
  // The routes clients open with, asked once in process (their first answer compiles them).
  if (config.routeWarmUp) await warmRoutesBeforeListening(app, catalog, log, () => shuttingDown);

  // @hono/node-server's serve(), with an error handler (its default answers an unparsable request
  // target with an empty 400), behind the fast path for warm answers.
  const listener = nodeListener(app, { hostname: config.host, errorHandler: onAdapterError(log) });
  // A traced request that is a warm answer from memory is answered before any trace context is entered.
  const warm = app.warmAnswers;
  const traced = tracing ? tracing.wrap(listener, app.app.routes, warm && ((req, res) => {
    try {
      return warm.serveNodeNow(req, res);
    } catch {
      return false; // nothing was written: the listener answers
    }
  })) : listener;
  const measured = observability ? observability.wrap(traced, app.app.routes) : traced;
  // Node's own Host check answers with an empty 400; requireHost gives the problem JSON.
  // Headers over 16 KB are refused by limitHeaderSize, which knows the method (src/http/clientError.ts).
  // keepAliveTimeout: Node's 5 s default is shorter than the idle timeout of common load balancers
  // and client pools, which then send a request on a socket the server is closing (a reset, a 502).
  const server: Server = createServer(
    { requireHostHeader: false, maxHeaderSize: PARSER_HEADER_LIMIT, keepAliveTimeout: config.keepAliveTimeoutMs },
    requireHost(limitHeaderSize(measured)),
  );
  // A port that cannot be bound (taken, privileged) ends the start with one message and nothing
  // left running: the store is closed, so the exit is clean and the data directory's lock freed.
  // What every stop releases once no request is served any more: before listening (a port not
  // bound) that is all there is; after it, close() drains the connections first.
  const release = async () => {
    shuttingDown = true;
    warming.stop();
    await closeServices();
    await observability?.close();
    await tracing?.close();
    // A snapshot being written in the background finishes before the store closes.
    await catalog.searchIndexes.flushed();
    await closeStore(db, config.dataDir);
  };
  await listen(server, config.port, config.host, 'PORT').catch(async (e: unknown) => {
    await release();
    throw e;
  });
  // Requests Node's parser refuses get the documented problem JSON, not an empty 400/431.
  server.on('clientError', onClientError(log));
  server.on('connect', onConnect(log));
  const connections = trackConnections(server);
  warming.afterListening();
  // Embedded: the store is this process's alone; `terminology keys …`, `impact` and `releases`
  // reach it through a private socket in the data directory (src/net/controlChannel.ts).
  const control =
    opts.controlCommands && db.mode === 'embedded' && config.dataDir && !config.dataDir.startsWith('memory://')
      ? await startControlChannel(config.dataDir, opts.controlCommands(db), log).catch((e: Error) => {
          log.warn({ err: { message: e.message } }, 'control socket not started: CLI key and impact commands cannot reach this server');
          return undefined;
        })
      : undefined;
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // Refuse new connections; requests in flight and any that still arrive on open keep-alive
      // sockets are answered with Connection: close; only a socket idle for a while is closed, so
      // a busy client is not cut while sending its next request; the rest is cut at the timeout.
      shuttingDown = true;
      warming.stop();
      await control?.close();
      await connections.drain({ idleGraceMs: DRAIN_IDLE_GRACE_MS, timeoutMs: config.shutdownTimeoutMs });
      await release();
      log.info('stopped');
    })());
  // METRICS_PORT not bound: stop what started rather than serve without the metrics asked for.
  await observability?.listen(config.host, log).catch(async (e: unknown) => {
    await close();
    throw e;
  });
  // Before the "is listening" line: a supervisor that signals as soon as it reads it must find the
  // handlers in place (without one, SIGTERM's default action ends the process at once, exit code none).
  if (opts.handleSignals !== false) {
    for (const sig of ['SIGTERM', 'SIGINT'] as const) {
      process.once(sig, () => {
        log.info({ signal: sig }, 'shutting down');
        void close().then(() => process.exit(0));
      });
    }
  }
  log.info(
    {
      url,
      mode: db.mode,
      replicas: config.replicaUrls.length,
      provider: assessment.providerName,
      rateLimit: limiter ? `${limiter.limit}/min (${limiter.store})` : 'off',
      // The server's own pid: under Node 20 `terminology serve` runs it as a child (bin/heap-limit.mjs).
      pid: process.pid,
      // V8's heap limit: half of MEMORY_BUDGET_MB when started by `terminology serve` (bin/heap-limit.mjs).
      heapLimitMb: Math.round(getHeapStatistics().heap_size_limit / 1024 / 1024),
      ms: Math.round(performance.now() - started),
    },
    'Terminology Explorer is listening',
  );
  // For a person at a terminal: where to go next, in one line (log lines are for machines).
  if (process.stdout.isTTY) {
    const local = url.replace('://127.0.0.1:', '://localhost:');
    process.stdout.write(`\nTerminology Explorer is ready: explorer ${local}/ · GraphiQL ${local}/graphql · REST docs ${local}/docs · health ${local}/health/ready\n\n`);
  }

  return { url, port, db, log, close };
}
