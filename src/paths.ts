// Locations inside the checkout, independent of the working directory and of where the
// running code lives (src/ through tsx, or a chunk under dist/ in the bundle).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${from}: cannot locate the installation.`);
  }
}

export const projectRoot = findRoot(path.dirname(fileURLToPath(import.meta.url)));
export const migrationsDir = path.join(projectRoot, 'prisma', 'migrations');
export const demoDir = path.join(projectRoot, 'data', 'demo');
export const distDir = path.join(projectRoot, 'dist');
