// Locations inside the checkout, independent of the working directory.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const migrationsDir = path.join(projectRoot, 'prisma', 'migrations');
export const demoDir = path.join(projectRoot, 'data', 'demo');
