import { openDatabase } from '/work/main/src/db/client.ts';
const db = await openDatabase({ dataDir: '/tmp/fs/store' });
const r = await db.prisma.$queryRawUnsafe<{ soc: number; n: number }[]>('SELECT soc_code AS soc, count(*)::int AS n FROM hierarchy_path GROUP BY soc_code ORDER BY 2 DESC LIMIT 1');
console.log(r[0]!.soc);
await db.close();
