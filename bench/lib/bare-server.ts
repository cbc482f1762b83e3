// The same-run baseline: a bare node:http server answering captured response bodies
// (same bytes, same content type) by request URL. Run as a child process of its own:
//
//   node --import tsx bench/lib/bare-server.ts MANIFEST.json
//
// MANIFEST = { "routes": [{ "path": "/codes/1?x=y", "file": "…", "contentType": "…" }], "fallback": 0 }:
// with `fallback`, any other URL gets that route's answer (the baseline of a run that
// rotates over many distinct URLs).
// Prints {"port": N} on stdout once listening on 127.0.0.1; exits on SIGTERM/SIGINT.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';

interface Manifest {
  routes: { path: string; file: string; contentType: string }[];
  fallback?: number;
}

const manifestPath = process.argv[2];
if (!manifestPath) {
  process.stderr.write('usage: bare-server.ts MANIFEST.json\n');
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
const routes = new Map<string, { body: Buffer; contentType: string }>();
for (const r of manifest.routes) routes.set(r.path, { body: readFileSync(r.file), contentType: r.contentType });
const fallback = manifest.fallback === undefined ? undefined : routes.get(manifest.routes[manifest.fallback]!.path);

const server = http.createServer((req, res) => {
  const hit = routes.get(req.url ?? '') ?? fallback;
  if (!hit) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not captured');
    return;
  }
  // Drain any request body before answering (POSTs are not expected, but be safe).
  req.resume();
  res.writeHead(200, { 'content-type': hit.contentType, 'content-length': hit.body.length });
  res.end(hit.body);
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
for (const sig of ['SIGTERM', 'SIGINT'] as const) {
  process.once(sig, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 1_000).unref();
  });
}
// Never outlive the benchmark: exit when the parent goes away.
const parent = process.ppid;
setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch {
    process.exit(0);
  }
}, 1_000).unref();
