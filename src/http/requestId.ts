import { randomUUID } from 'node:crypto';

const SAFE = /^[A-Za-z0-9._:-]{8,100}$/;

/** Keeps a well-formed incoming X-Request-Id (tracing across a gateway), otherwise makes one. */
export function requestIdFrom(header: string | undefined | null): string {
  return header && SAFE.test(header) ? header : randomUUID();
}
