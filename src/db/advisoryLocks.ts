// PostgreSQL advisory lock keys: what processes sharing one database take turns at.
// (Prisma's migrate lock, 72707369, is in migrate.ts.) Embedded, one process owns the store.

/** Every release import (transaction-scoped): one at a time, so the "already imported" check and the ordinals see the previous one's commit. */
export const IMPORT_LOCK = 72707370;
/** The demo import into an empty store (session-scoped): one replica imports, the others wait and then find the releases. */
export const DEMO_IMPORT_LOCK = 72707371;
