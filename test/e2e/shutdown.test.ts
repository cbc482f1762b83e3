// Graceful shutdown of a real server process: on SIGTERM the request in flight
// completes, new connections are refused, and the process exits cleanly.
import { describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { startServerProcess } from '../helpers/server.ts';
import { freshStore } from '../helpers/cli.ts';

describe('graceful shutdown', () => {
  it('finishes the in-flight request, refuses new ones, exits 0', async () => {
    const server = await startServerProcess({ ...(await freshStore()).env, LOG_LEVEL: 'info' });
    const { port, hostname } = new URL(server.url);
    const body = JSON.stringify({ query: '{ versions(first: 1) { totalCount } }' });
    // Send the headers and half the body: the request is now in flight.
    const socket = connect(Number(port), hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let response = '';
    socket.on('data', (d) => (response += d));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(`POST /graphql HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
    await new Promise((r) => setTimeout(r, 200));

    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    // New connections are refused while the old one is still being served.
    const refused = await fetch(server.url + '/health/live').then(() => 'accepted', (e: Error) => e.cause ?? e);
    expect(String((refused as { code?: string }).code ?? refused)).toMatch(/ECONNREFUSED/);

    socket.write(body.slice(10));
    await ended;
    expect(response).toMatch(/^HTTP\/1\.1 200/);
    expect(response).toMatch(/connection: close/i);
    expect(response).toContain('"totalCount":0');
    expect(await server.stop()).toBe(0);
    expect(server.logs()).toContain('"msg":"stopped"');
  }, 90_000);
});
