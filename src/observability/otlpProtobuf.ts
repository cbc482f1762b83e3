// OTLP/protobuf (ExportTraceServiceRequest) written straight from a FlatBatch (spanRecords.ts), in
// the export worker: the same bytes as the SDK's ProtobufTraceSerializer given the same spans
// (test/observability/otlpProtobuf.test.ts compares them), for a fraction of its work.
//
// Why: the SDK's serializer ran twice over every span (a size estimate, then the writing), wrote
// every attribute key and value character by character, and needed ReadableSpan objects rebuilt
// from the copy first: ≈ 35 k instructions a span, the export worker's largest part
// (bench/results.md › Cost of the metrics, session 19). Here each distinct string's UTF-8 is kept
// (a server's spans repeat a handful of names, keys and values), lengths are known before
// writing, and the ids the serving thread left undrawn are written as random bytes, never as hex.
// A batch this does not cover (events, links, non-primitive attribute values) returns undefined:
// the caller uses the SDK's serializer for it.
import { randomFillSync } from 'node:crypto';
import type { Attributes } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import { NUMBERS, type FlatBatch } from './spanRecords.ts';

/** Writes 24 random bytes (a trace id, then a span id; neither all zero) at `at`. */
export type DrawIdBytes = (into: Uint8Array, at: number) => void;

const ID_BYTES = 24;
const pool = Buffer.alloc(ID_BYTES * 512);
let used = pool.length;
const zero = (b: Uint8Array, from: number, to: number) => {
  for (let i = from; i < to; i++) if (b[i] !== 0) return false;
  return true;
};
/** Random ids from a pool filled for a batch's worth at a time (as the SDK's: random, never all zero). */
export const randomIdBytes: DrawIdBytes = (into, at) => {
  for (;;) {
    if (used === pool.length) {
      randomFillSync(pool);
      used = 0;
    }
    const from = used;
    used += ID_BYTES;
    if (zero(pool, from, from + 16) || zero(pool, from + 16, from + ID_BYTES)) continue;
    pool.copy(into, at, from, from + ID_BYTES);
    return;
  }
};

const varintSize = (v: number): number => (v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : v < 0x800000000 ? 5 : v < 0x40000000000 ? 6 : v < 0x2000000000000 ? 7 : v < 0x100000000000000 ? 8 : 9);

class Writer {
  buf: Buffer;
  pos = 0;
  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }
  /** A non-negative integer below 2^53 (lengths, tags, enums, counts) as a varint. */
  varint(v: number): void {
    this.ensure(10);
    const b = this.buf;
    while (v > 0x7f) {
      b[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    b[this.pos++] = v;
  }
  bytes(src: Uint8Array): void {
    this.ensure(src.length);
    if (src.length < 32) for (let i = 0; i < src.length; i++) this.buf[this.pos++] = src[i]!;
    else {
      this.buf.set(src, this.pos);
      this.pos += src.length;
    }
  }
  /** An int64 varint as the SDK writes it: two's complement for negatives (10 bytes). */
  int64(value: number): void {
    if (value >= 0 && value <= Number.MAX_SAFE_INTEGER) return this.varint(value);
    this.ensure(10);
    let low: number;
    let high: number;
    if (value >= 0) {
      low = value >>> 0;
      high = (value / 0x100000000) >>> 0;
    } else {
      const abs = Math.abs(value);
      low = ~(abs >>> 0) >>> 0;
      high = ~((abs / 0x100000000) >>> 0) >>> 0;
      low = (low + 1) >>> 0;
      if (low === 0) high = (high + 1) >>> 0;
    }
    while (high > 0 || low > 0x7f) {
      this.buf[this.pos++] = (low & 0x7f) | 0x80;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    this.buf[this.pos++] = low & 0x7f;
  }
  fixed32(v: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(v >>> 0, this.pos);
    this.pos += 4;
  }
  /** An HrTime as fixed64 nanoseconds, computed as the SDK's writeHrTimeAsFixed64 does. */
  hrTime(seconds: number, nanos: number): void {
    const lower = (seconds & 0xffff) * 1e9;
    const upper = ((seconds / 0x10000) >>> 0) * 1e9;
    const sum = (lower >>> 0) + ((((upper & 0xffff) * 0x10000) >>> 0) + nanos);
    const high = (Math.floor(lower / 0x100000000) + ((upper / 0x10000) >>> 0) + Math.floor(sum / 0x100000000)) >>> 0;
    this.ensure(8);
    this.buf.writeUInt32LE(sum >>> 0, this.pos);
    this.buf.writeUInt32LE(high, this.pos + 4);
    this.pos += 8;
  }
  double(v: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }
  hex(id: string): void {
    const n = id.length >> 1;
    this.varint(n);
    this.ensure(n);
    this.pos += this.buf.write(id, this.pos, n, 'hex');
  }
}

/** UTF-8 of the strings seen, bounded (a server's spans repeat a few; anything else is encoded each time once full). */
const utf8 = new Map<string, Buffer>();
const MAX_CACHED = 4_096;
function encoded(s: string): Buffer {
  let b = utf8.get(s);
  if (b === undefined) {
    b = Buffer.from(s, 'utf8');
    if (utf8.size < MAX_CACHED) utf8.set(s, b);
  }
  return b;
}
/** A length-delimited string field: tag, length, bytes. */
function stringField(w: Writer, tag: number, s: string): void {
  const b = encoded(s);
  w.varint(tag);
  w.varint(b.length);
  w.bytes(b);
}
const MIN_INT64 = -(2 ** 63);
const MAX_INT64 = 2 ** 63;
/** The encoded AnyValue's length (its content, without its tag and length), or -1 when this encoder does not write such a value. */
function anyValueSize(v: unknown): number {
  switch (typeof v) {
    case 'string': {
      const n = encoded(v).length;
      return 1 + varintSize(n) + n;
    }
    case 'boolean':
      return 2;
    case 'number':
      return Number.isInteger(v) && v >= MIN_INT64 && v < MAX_INT64 ? 1 + (v < 0 || v > Number.MAX_SAFE_INTEGER ? varintSizeInt64(v) : varintSize(v)) : 9;
    case 'undefined':
      return 0;
    default:
      return v === null ? 0 : -1;
  }
}
function varintSizeInt64(v: number): number {
  if (v < 0) return 10;
  let n = 1;
  let x = v;
  while (x >= 0x80) {
    x = Math.floor(x / 0x80);
    n++;
  }
  return n;
}
function anyValue(w: Writer, v: unknown): void {
  switch (typeof v) {
    case 'string':
      return stringField(w, 0x0a, v);
    case 'boolean':
      w.varint(0x10);
      return w.varint(v ? 1 : 0);
    case 'number':
      if (Number.isInteger(v) && v >= MIN_INT64 && v < MAX_INT64) {
        w.varint(0x18);
        return w.int64(v);
      }
      w.varint(0x21);
      return w.double(v);
  }
}
/** A KeyValue's content length, or -1 (a value this encoder does not write). */
function keyValueSize(key: string, value: unknown): number {
  const k = encoded(key).length;
  const v = anyValueSize(value);
  return v < 0 ? -1 : 1 + varintSize(k) + k + 1 + varintSize(v) + v;
}
function keyValue(w: Writer, tag: number, key: string, value: unknown, size: number): void {
  w.varint(tag);
  w.varint(size);
  stringField(w, 0x0a, key);
  w.varint(0x12);
  w.varint(anyValueSize(value));
  anyValue(w, value);
}
function attributesOf(w: Writer, tag: number, attributes: Attributes | undefined): boolean {
  for (const key in attributes) {
    if (!Object.prototype.hasOwnProperty.call(attributes, key)) continue;
    const size = keyValueSize(key, attributes[key]);
    if (size < 0) return false;
    keyValue(w, tag, key, attributes[key], size);
  }
  return true;
}

/** The Resource field (1) of a ResourceSpans, as the SDK's writeResource writes it; undefined when its attributes are not all primitive. */
export function encodeResource(attributes: Attributes): Buffer | undefined {
  const body = new Writer(256);
  if (!attributesOf(body, 0x0a, attributes)) return undefined;
  body.varint(0x10);
  body.varint(0);
  const w = new Writer(body.pos + 8);
  w.varint(0x0a);
  w.varint(body.pos);
  w.bytes(body.buf.subarray(0, body.pos));
  return w.buf.subarray(0, w.pos);
}

function scopeField(scope: InstrumentationScope): Buffer | undefined {
  const body = new Writer(128);
  stringField(body, 0x0a, scope.name);
  if (scope.version) stringField(body, 0x12, scope.version);
  const extra = scope as InstrumentationScope & { attributes?: Attributes; droppedAttributesCount?: number };
  if (extra.attributes && !attributesOf(body, 0x1a, extra.attributes)) return undefined;
  if (extra.droppedAttributesCount) {
    body.varint(0x20);
    body.varint(extra.droppedAttributesCount);
  }
  const w = new Writer(body.pos + 8);
  w.varint(0x0a);
  w.varint(body.pos);
  w.bytes(body.buf.subarray(0, body.pos));
  return w.buf.subarray(0, w.pos);
}

const SPAN_FLAGS_HAS_IS_REMOTE = 0x100;
const SPAN_FLAGS_IS_REMOTE = 0x200;

/**
 * The ExportTraceServiceRequest of one batch, all under `resource` (encodeResource), or undefined
 * when the batch holds what this encoder does not write. The spans are grouped by scope (by name,
 * version and schema URL, in order of first appearance), as the SDK groups them by scope object.
 */
export function encodeTraceRequest(batch: FlatBatch, resource: Buffer, drawIds: DrawIdBytes = randomIdBytes): Uint8Array | undefined {
  const num = batch.numbers;
  const f = batch.values;
  const spans = num.length / NUMBERS;
  // Each span's message (without its tag and length) one after the other; where each ends.
  const body = new Writer(spans * 320 + 64);
  const ends: number[] = [];
  const scopeKeys = batch.scopes.map((s) => `${s.name}@${s.version ?? ''}:${s.schemaUrl ?? ''}`);
  let i = 0;
  for (let n = 0; n < num.length; n += NUMBERS) {
    if (num[n + 9] !== 0 || num[n + 10] !== 0) return undefined;
    const traceId = f[i + 1] as string;
    if (traceId === '') {
      // trace_id (0x0a, 16 bytes) and span_id (0x12, 8 bytes): the 24 drawn bytes, the span id's 8 then moved past its tag.
      body.ensure(ID_BYTES + 4);
      const b = body.buf;
      const p = body.pos;
      b[p] = 0x0a;
      b[p + 1] = 16;
      drawIds(b, p + 2);
      b.copyWithin(p + 20, p + 18, p + 26);
      b[p + 18] = 0x12;
      b[p + 19] = 8;
      body.pos += 28;
    } else {
      body.varint(0x0a);
      body.hex(traceId);
      body.varint(0x12);
      body.hex(f[i + 2] as string);
    }
    const traceState = f[i + 3] as string | undefined;
    if (traceState) stringField(body, 0x1a, traceState);
    const parentId = f[i + 4] as string | undefined;
    if (parentId) {
      body.varint(0x22);
      body.hex(parentId);
    }
    stringField(body, 0x2a, f[i] as string);
    body.varint(0x30);
    body.varint(num[n]! + 1);
    body.varint(0x39);
    body.hrTime(num[n + 3]!, num[n + 4]!);
    body.varint(0x41);
    body.hrTime(num[n + 5]!, num[n + 6]!);
    const message = f[i + 5] as string | undefined;
    i += 6;
    for (let a = f[i++] as number; a > 0; a--, i += 2) {
      const size = keyValueSize(f[i] as string, f[i + 1]);
      if (size < 0) return undefined;
      keyValue(body, 0x4a, f[i] as string, f[i + 1], size);
    }
    // No events nor links (checked above): their counts are zero.
    if (f[i] !== 0 || f[i + 1] !== 0) return undefined;
    i += 2;
    body.varint(0x50);
    body.varint(num[n + 8]!);
    body.varint(0x60);
    body.varint(0);
    body.varint(0x70);
    body.varint(0);
    const code = num[n + 7]!;
    const m = message ? encoded(message) : undefined;
    body.varint(0x7a);
    body.varint((m ? 1 + varintSize(m.length) + m.length : 0) + 1 + varintSize(code));
    if (m) {
      body.varint(0x12);
      body.varint(m.length);
      body.bytes(m);
    }
    body.varint(0x18);
    body.varint(code);
    // flags (field 16, fixed32): tag (16 << 3) | 5.
    body.varint(133);
    const parent = num[n + 2]!;
    body.fixed32((num[n + 1]! & 0xff) | SPAN_FLAGS_HAS_IS_REMOTE | (parent === 2 ? SPAN_FLAGS_IS_REMOTE : 0));
    ends.push(body.pos);
  }
  // Spans by scope, in order of first appearance.
  const groups = new Map<string, { scope: Buffer; schemaUrl?: string; spans: number[] }>();
  for (let s = 0; s < spans; s++) {
    const index = num[s * NUMBERS + 11]!;
    const key = scopeKeys[index]!;
    let g = groups.get(key);
    if (!g) {
      const scope = batch.scopes[index]!;
      const field = scopeField(scope);
      if (!field) return undefined;
      groups.set(key, (g = { scope: field, schemaUrl: scope.schemaUrl, spans: [] }));
    }
    g.spans.push(s);
  }
  const spanSize = (s: number) => {
    const len = ends[s]! - (s === 0 ? 0 : ends[s - 1]!);
    return 1 + varintSize(len) + len;
  };
  const sizes: number[] = [];
  let resourceSpans = resource.length;
  for (const g of groups.values()) {
    let size = g.scope.length;
    for (const s of g.spans) size += spanSize(s);
    if (g.schemaUrl) size += 1 + varintSize(encoded(g.schemaUrl).length) + encoded(g.schemaUrl).length;
    sizes.push(size);
    resourceSpans += 1 + varintSize(size) + size;
  }
  const out = new Writer(1 + varintSize(resourceSpans) + resourceSpans);
  out.varint(0x0a);
  out.varint(resourceSpans);
  out.bytes(resource);
  let k = 0;
  for (const g of groups.values()) {
    out.varint(0x12);
    out.varint(sizes[k++]!);
    out.bytes(g.scope);
    for (const s of g.spans) {
      const from = s === 0 ? 0 : ends[s - 1]!;
      out.varint(0x12);
      out.varint(ends[s]! - from);
      out.bytes(body.buf.subarray(from, ends[s]!));
    }
    if (g.schemaUrl) stringField(out, 0x1a, g.schemaUrl);
  }
  return out.buf.subarray(0, out.pos);
}
