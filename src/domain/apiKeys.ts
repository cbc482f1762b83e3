// API keys for the narrative endpoints. Only a SHA-256 digest of each key is
// stored (keys carry 256 bits of randomness, so a slow hash adds nothing), and
// the digest is compared in constant time. Keys are never logged.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.ts';

export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

const KEY_RE = /^sk-[A-Za-z0-9_-]{20,200}$/;

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

export async function listApiKeys(prisma: PrismaClient): Promise<ApiKeyInfo[]> {
  return prisma.apiKey.findMany({
    select: { id: true, name: true, prefix: true, createdAt: true, revokedAt: true, lastUsedAt: true },
    orderBy: { createdAt: 'asc' },
  });
}

/** Revokes a key; false when no such key exists. Revoking twice keeps the first date. */
export async function revokeApiKey(prisma: PrismaClient, id: string): Promise<boolean> {
  const found = await prisma.apiKey.findUnique({ where: { id } });
  if (!found) return false;
  if (!found.revokedAt) await prisma.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
  return true;
}

/** Returns the key's id when the presented key is valid and not revoked. */
export async function verifyApiKey(prisma: PrismaClient, presented: string | null | undefined): Promise<string | null> {
  if (!presented || !KEY_RE.test(presented)) return null;
  const d = digest(presented);
  const row = await prisma.apiKey.findUnique({ where: { hash: d.toString('hex') } });
  if (!row || row.revokedAt) return null;
  // The index lookup already matched; the constant-time compare guards against any
  // future change of lookup strategy (e.g. by prefix) leaking timing.
  const stored = Buffer.from(row.hash, 'hex');
  if (stored.length !== d.length || !timingSafeEqual(stored, d)) return null;
  return row.id;
}
