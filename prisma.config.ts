// Prisma CLI configuration (Prisma 7). Only `prisma generate` is used: migrations
// are applied by the project's own runner (src/db/migrate.ts).
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
