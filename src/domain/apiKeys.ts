// API keys for the narrative endpoints. Only a SHA-256 digest of each key is
// stored (keys carry 256 bits of randomness, so a slow hash adds nothing), and
// the digest is compared in constant time. Keys are never logged.
//
// Valid keys are remembered for a short while (verifiedKeys below), by digest, so a
// client's requests do not each cost a database read. Revoking a key through this module
// forgets it at once; a revocation by another process (the `keys revoke` command, another
// replica) is seen within the TTL. Unknown or revoked keys are never remembered: a key
// created meanwhile works at once.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { apiKeyOutcomes, memoryGauges } from '../observability/signals.ts';
import { usageByKey, type KeyUsage } from './apiKeyUsage.ts';

export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

const KEY_RE = /^sk-[A-Za-z0-9_-]{20,200}$/;

/** How long a verified key is trusted without reading the database again. */
export const API_KEY_CACHE_TTL_MS = 5_000;

interface Verified {
  id: string;
  hash: Buffer;
}

/**
 * Bytes one remembered key costs: measured ~720 bytes of heap per entry for 10,000 (the hex
 * digest, the row's id and digest, lru-cache's slots), counted at 768.
 */
export const VERIFIED_KEY_BYTES = 768;
/** The default bound (MEMORY_BUDGET_MB's default share: src/config.ts memoryShares): ~7,100 keys. */
const DEFAULT_CACHE_BYTES = 5.25 * 1024 * 1024;

interface KeyCache {
  keys: LRUCache<string, Verified>;
  revocations: number;
}

/**
 * Per database (tests open many): key digest (hex) → the verified row, bounded in bytes.
 * `revocations` counts revocations: a lookup that was in flight while one happened is not remembered.
 */
const verifiedKeys = new WeakMap<PrismaClient, KeyCache>();

function newCache(maxBytes: number): KeyCache {
  return { keys: new LRUCache<string, Verified>({ maxSize: Math.max(VERIFIED_KEY_BYTES, maxBytes), sizeCalculation: () => VERIFIED_KEY_BYTES, ttl: API_KEY_CACHE_TTL_MS }), revocations: 0 };
}

function cacheOf(prisma: PrismaClient): KeyCache {
  let c = verifiedKeys.get(prisma);
  if (!c) verifiedKeys.set(prisma, (c = newCache(DEFAULT_CACHE_BYTES)));
  return c;
}

/**
 * The serving app's bound for this database's verified keys (its share of MEMORY_BUDGET_MB), and
 * the memory_cache_bytes gauge `apiKeys` on it. Keys remembered before are forgotten (start-up only).
 */
export function boundApiKeyCache(prisma: PrismaClient, maxBytes: number): void {
  const c = newCache(maxBytes);
  verifiedKeys.set(prisma, c);
  memoryGauges.apiKeys = { bytes: () => c.keys.calculatedSize, budget: maxBytes };
}

/** Keys remembered now for this database (tests). */
export function rememberedApiKeys(prisma: PrismaClient): number {
  return verifiedKeys.get(prisma)?.keys.size ?? 0;
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export async function createApiKey(prisma: PrismaClient, name: string): Promise<{ key: string; info: ApiKeyInfo }> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100) throw new Error('A key name of 1 to 100 characters is required.');
  const key = `sk-${randomBytes(32).toString('base64url')}`;
  const info = await prisma.apiKey.create({
    data: { id: randomUUID(), name: trimmed, prefix: key.slice(0, 7), hash: digest(key).toString('hex') },
    select: { id: true, name: true, prefix: true, createdAt: true, revokedAt: true, lastUsedAt: true },
  });
  return { key, info };
}

/** Every key with its usage per endpoint family (src/domain/apiKeyUsage.ts). */
export async function listApiKeys(prisma: PrismaClient): Promise<(ApiKeyInfo & { usage: KeyUsage[] })[]> {
  const [keys, usage] = await Promise.all([
    prisma.apiKey.findMany({
      select: { id: true, name: true, prefix: true, createdAt: true, revokedAt: true, lastUsedAt: true },
      orderBy: { createdAt: 'asc' },
    }),
    usageByKey(prisma),
  ]);
  return keys.map((k) => ({ ...k, usage: usage.get(k.id) ?? [] }));
}

/** Revokes a key; false when no such key exists. Revoking twice keeps the first date. */
export async function revokeApiKey(prisma: PrismaClient, id: string): Promise<boolean> {
  const found = await prisma.apiKey.findUnique({ where: { id } });
  if (!found) return false;
  const cache = cacheOf(prisma);
  cache.revocations++;
  cache.keys.delete(found.hash);
  if (!found.revokedAt) await prisma.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
  cache.keys.delete(found.hash); // a lookup may have remembered it while the update ran
  return true;
}

/** Returns the key's id when the presented key is valid and not revoked. */
export async function verifyApiKey(prisma: PrismaClient, presented: string | null | undefined): Promise<string | null> {
  const id = await lookUpApiKey(prisma, presented);
  apiKeyOutcomes[id ? 'accepted' : presented ? 'rejected' : 'missing']++;
  return id;
}

async function lookUpApiKey(prisma: PrismaClient, presented: string | null | undefined): Promise<string | null> {
  if (!presented || !KEY_RE.test(presented)) return null;
  const d = digest(presented);
  const hex = d.toString('hex');
  const cache = cacheOf(prisma);
  let known = cache.keys.get(hex);
  if (!known) {
    const revocations = cache.revocations;
    const row = await prisma.apiKey.findUnique({ where: { hash: hex } });
    if (!row || row.revokedAt) return null;
    known = { id: row.id, hash: Buffer.from(row.hash, 'hex') };
    if (revocations === cache.revocations) cache.keys.set(hex, known);
  }
  // The lookup already matched; the constant-time compare guards against any future
  // change of lookup strategy (e.g. by prefix) leaking timing.
  if (known.hash.length !== d.length || !timingSafeEqual(known.hash, d)) return null;
  return known.id;
}
