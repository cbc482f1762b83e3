// Runs `prisma generate` offline. Prisma's CLI insists on a schema-engine binary
// even though generation does not use it, and that binary cannot be downloaded
// on machines without internet: any existing file satisfies the check.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cli = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');
if (!existsSync(cli)) {
  console.error('prisma-generate: the prisma package is not installed; run npm install');
  process.exit(1);
}
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
}
const r = spawnSync(process.execPath, [cli, 'generate'], { cwd: root, env, stdio: 'inherit' });
process.exit(r.status ?? 1);
