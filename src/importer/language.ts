// Adding a language to a hosted release (issue 28): a MedAscii folder of the same version
// in another language must describe exactly the hosted structure — codes, levels, links,
// paths, currency and SMQ structure — and only its names are stored (concept_name,
// smq_name; the primary language's stay in concept/smq). Every difference is reported with
// the folder's file and line before anything is written.
import type { Prisma } from '../generated/prisma/client.ts';
import { RANGED, createStage, hostedReleases, insertAt, positionOf, removeAt, stageName, stageRows, type Filter } from './ranges.ts';
import type { ImportIssue } from './errors.ts';
import { FILES, type FileKey } from './files.ts';
import type { MedAsciiFolder } from './medascii.ts';
import type { ReleaseModel } from './model.ts';
import { foldName } from '../domain/languageNames.ts';

type Tx = Prisma.TransactionClient;

/** At most this many differences are collected: a wrong folder (another version) differs everywhere. */
const MAX_DIFFERENCES = 200;

interface HostedStructure {
  concepts: Map<string, { current: boolean; ptCode: number | null; primarySocCode: number | null; intlOrder: number | null }>;
  links: Map<string, boolean>;
  paths: Map<string, boolean>;
  smqs: Map<number, { level: number; status: string; algorithm: string }>;
  smqTerms: Map<string, string>;
}

// Read like every release read, through the *_at functions (docs/storage.md).
async function hostedStructure(tx: Tx, releaseId: number): Promise<HostedStructure> {
  const [concepts, links, paths, smqs, smqTerms] = await Promise.all([
    tx.$queryRawUnsafe<{ level: string; code: number; current: boolean; pt_code: number | null; primary_soc_code: number | null; intl_order: number | null }[]>(
      'SELECT level::text AS level, code, current, pt_code, primary_soc_code, intl_order FROM concept_at($1)',
      releaseId,
    ),
    tx.$queryRawUnsafe<{ k: string; p: boolean }[]>(
      `SELECT parent_level::text || '/' || parent_code || '/' || child_level::text || '/' || child_code AS k, is_primary AS p FROM hierarchy_link_at($1)`,
      releaseId,
    ),
    tx.$queryRawUnsafe<{ k: string; p: boolean }[]>(
      `SELECT pt_code || '/' || hlt_code || '/' || hlgt_code || '/' || soc_code AS k, is_primary AS p FROM hierarchy_path_at($1)`,
      releaseId,
    ),
    tx.$queryRawUnsafe<{ code: number; level: number; status: string; algorithm: string }[]>('SELECT code, level, status, algorithm FROM smq_at($1)', releaseId),
    tx.$queryRawUnsafe<{ k: string; v: string }[]>(
      `SELECT smq_code || '/' || term_level || '/' || term_code AS k, term_scope || '/' || term_category || '/' || term_weight || '/' || term_status AS v
       FROM smq_term_at($1)`,
      releaseId,
    ),
  ]);
  return {
    concepts: new Map(concepts.map((c) => [`${c.level}/${c.code}`, { current: c.current, ptCode: c.pt_code, primarySocCode: c.primary_soc_code, intlOrder: c.intl_order }])),
    links: new Map(links.map((l) => [l.k, l.p])),
    paths: new Map(paths.map((p) => [p.k, p.p])),
    smqs: new Map(smqs.map((s) => [s.code, { level: s.level, status: s.status, algorithm: s.algorithm }])),
    smqTerms: new Map(smqTerms.map((t) => [t.k, t.v])),
  };
}

const CONCEPT_FILE: Record<string, FileKey> = { SOC: 'soc', HLGT: 'hlgt', HLT: 'hlt', PT: 'pt', LLT: 'llt' };
const LINK_FILE: Record<string, FileKey> = { HLGT: 'socHlgt', HLT: 'hlgtHlt', PT: 'hltPt' };

/** Line of the first record of `file` whose fields start with `prefix` (0 when none). */
function lineFinder(folder: MedAsciiFolder) {
  const cache = new Map<FileKey, Map<string, number>>();
  return (file: FileKey, width: number, key: string): number => {
    let m = cache.get(file);
    if (!m) {
      m = new Map();
      for (const r of folder.records[file] ?? []) {
        const k = r.fields.slice(0, width).join('/');
        if (!m.has(k)) m.set(k, r.line);
      }
      cache.set(file, m);
    }
    return m.get(key) ?? 0;
  };
}

/**
 * Every difference between the folder's structure and the hosted release's, with the
 * folder's file and line (line 0: something the folder lacks).
 */
export async function compareWithHosted(tx: Tx, releaseId: number, version: string, model: ReleaseModel, folder: MedAsciiFolder): Promise<ImportIssue[]> {
  const hosted = await hostedStructure(tx, releaseId);
  const issues: ImportIssue[] = [];
  const line = lineFinder(folder);
  const add = (file: FileKey, at: number, message: string) => {
    if (issues.length < MAX_DIFFERENCES) issues.push({ file: FILES[file].name, line: at, message });
  };
  const seen = new Set<string>();
  for (const c of model.concepts) {
    const key = `${c.level}/${c.code}`;
    seen.add(key);
    const file = CONCEPT_FILE[c.level]!;
    const h = hosted.concepts.get(key);
    if (!h) {
      add(file, line(file, 1, String(c.code)), `${c.level} ${c.code} is not in the hosted release ${version}`);
      continue;
    }
    const at = () => line(file, 1, String(c.code));
    if (h.current !== c.current) add(file, at(), `LLT ${c.code} is ${c.current ? 'current' : 'non-current'} here but ${h.current ? 'current' : 'non-current'} in the hosted release ${version}`);
    if (h.ptCode !== c.ptCode) add(file, at(), `LLT ${c.code} belongs to PT ${c.ptCode} here but to PT ${h.ptCode} in the hosted release ${version}`);
    if (h.primarySocCode !== c.primarySocCode) add(file, at(), `PT ${c.code} has primary SOC ${c.primarySocCode} here but ${h.primarySocCode} in the hosted release ${version}`);
    if (c.level === 'SOC' && h.intlOrder !== c.intlOrder) {
      add('intlOrd', folder.records.intlOrd?.find((r) => r.fields[1] === String(c.code))?.line ?? 0, `SOC ${c.code} has international order ${c.intlOrder} here but ${h.intlOrder} in the hosted release ${version}`);
    }
  }
  for (const key of hosted.concepts.keys()) {
    if (seen.has(key)) continue;
    const [level, code] = key.split('/');
    add(CONCEPT_FILE[level!]!, 0, `${level} ${code} of the hosted release ${version} is missing`);
  }
  const links = new Map(model.links.map((l) => [`${l.parentLevel}/${l.parentCode}/${l.childLevel}/${l.childCode}`, l.isPrimary]));
  for (const [key, primary] of links) {
    const [pl, pc, cl, cc] = key.split('/');
    const h = hosted.links.get(key);
    // PT→LLT links come from llt.asc's pt_code, already compared above.
    const file = LINK_FILE[cl!];
    if (!file) continue;
    if (h === undefined) add(file, line(file, 2, `${pc}/${cc}`), `link ${pl} ${pc} → ${cl} ${cc} is not in the hosted release ${version}`);
    else if (h !== primary) add('mdhier', 0, `link ${pl} ${pc} → ${cl} ${cc} is ${primary ? '' : 'not '}primary here but ${h ? '' : 'not '}primary in the hosted release ${version}`);
  }
  for (const key of hosted.links.keys()) {
    const [pl, pc, cl, cc] = key.split('/');
    const file = LINK_FILE[cl!];
    if (file && !links.has(key)) add(file, 0, `link ${pl} ${pc} → ${cl} ${cc} of the hosted release ${version} is missing`);
  }
  const paths = new Map(model.paths.map((p) => [`${p.ptCode}/${p.hltCode}/${p.hlgtCode}/${p.socCode}`, p.isPrimary]));
  for (const [key, primary] of paths) {
    const h = hosted.paths.get(key);
    const at = () => line('mdhier', 4, key);
    if (h === undefined) add('mdhier', at(), `path PT/HLT/HLGT/SOC ${key} is not in the hosted release ${version}`);
    else if (h !== primary) add('mdhier', at(), `path ${key} is ${primary ? '' : 'not '}primary here but ${h ? '' : 'not '}primary in the hosted release ${version}`);
  }
  for (const key of hosted.paths.keys()) if (!paths.has(key)) add('mdhier', 0, `path PT/HLT/HLGT/SOC ${key} of the hosted release ${version} is missing`);
  // SMQs: optional in a language folder; when it has them, their structure must be the hosted one.
  if (folder.records.smqList) {
    const codes = new Set<number>();
    for (const s of model.smqs) {
      codes.add(s.code);
      const h = hosted.smqs.get(s.code);
      const at = () => line('smqList', 1, String(s.code));
      if (!h) add('smqList', at(), `SMQ ${s.code} is not in the hosted release ${version}`);
      else if (h.level !== s.level || h.status !== s.status || h.algorithm !== s.algorithm) {
        add('smqList', at(), `SMQ ${s.code} differs from the hosted release ${version} in level, status or algorithm`);
      }
    }
    for (const code of hosted.smqs.keys()) if (!codes.has(code)) add('smqList', 0, `SMQ ${code} of the hosted release ${version} is missing`);
    const terms = new Map(model.smqTerms.map((t) => [`${t.smqCode}/${t.termLevel}/${t.termCode}`, `${t.termScope}/${t.termCategory}/${t.termWeight}/${t.termStatus}`]));
    for (const [key, v] of terms) {
      const h = hosted.smqTerms.get(key);
      const [smq, , term] = key.split('/');
      const at = () => line('smqContent', 2, `${smq}/${term}`);
      if (h === undefined) add('smqContent', at(), `SMQ ${smq} term ${term} is not in the hosted release ${version}`);
      else if (h !== v) add('smqContent', at(), `SMQ ${smq} term ${term} differs from the hosted release ${version} in scope, category, weight or status`);
    }
    for (const key of hosted.smqTerms.keys()) {
      if (terms.has(key)) continue;
      const [smq, , term] = key.split('/');
      add('smqContent', 0, `SMQ ${smq} term ${term} of the hosted release ${version} is missing`);
    }
  }
  return issues;
}

/**
 * Adds or replaces a non-primary language's names in a hosted release: staged, then written as
 * differences at the release's position, confined to that language (src/importer/ranges.ts).
 */
export async function writeLanguageNames(tx: Tx, releaseId: number, tag: string, model: ReleaseModel, onChunk?: (n: number) => void): Promise<number> {
  const at = positionOf(await hostedReleases(tx), releaseId);
  const language: Filter = { column: 'language', value: tag };
  let n = await stageRows(tx, RANGED.conceptName, [
    { name: 'language', type: 'text', get: () => tag },
    { name: 'level', type: 'text', cast: '"Level"', get: (r) => r.level },
    { name: 'code', type: 'int', get: (r) => r.code },
    { name: 'name', type: 'text', get: (r) => r.name },
    { name: 'name_norm', type: 'text', get: (r) => foldName(tag, r.name) },
  ], model.concepts, onChunk);
  n += await stageRows(tx, RANGED.smqName, [
    { name: 'language', type: 'text', get: () => tag },
    { name: 'code', type: 'int', get: (r) => r.code },
    { name: 'name', type: 'text', get: (r) => r.name },
    { name: 'description', type: 'text', get: (r) => r.description },
  ], model.smqs);
  for (const t of [RANGED.conceptName, RANGED.smqName]) {
    await removeAt(tx, t, at, language);
    await insertAt(tx, t, at, language);
  }
  return n;
}

/**
 * Replaces the primary language's names (concept.name, smq.name) with the folder's: the release's
 * rows staged with the new names, then written again at its position.
 */
export async function replacePrimaryNames(tx: Tx, releaseId: number, model: ReleaseModel): Promise<void> {
  const at = positionOf(await hostedReleases(tx), releaseId);
  const concepts = await createStage(tx, RANGED.concept);
  await tx.$executeRawUnsafe(
    `INSERT INTO "${concepts}" (level, code, name, name_norm, current, pt_code, primary_soc_code, soc_abbrev, intl_order)
     SELECT level, code, name, name_norm, current, pt_code, primary_soc_code, soc_abbrev, intl_order FROM concept_at($1)`,
    releaseId,
  );
  const chunk = 5_000;
  for (let i = 0; i < model.concepts.length; i += chunk) {
    // concept.name_norm keeps the one folding every SQL path compares it with (normalizeName).
    const rows = model.concepts.slice(i, i + chunk).map((c) => ({ l: c.level, c: c.code, n: c.name, f: c.nameNorm }));
    await tx.$executeRawUnsafe(
      `UPDATE "${concepts}" s SET name = x.n, name_norm = x.f FROM json_to_recordset($1::json) AS x(l text, c int, n text, f text)
       WHERE s.level = x.l::"Level" AND s.code = x.c`,
      JSON.stringify(rows),
    );
  }
  const smqs = await createStage(tx, RANGED.smq);
  await tx.$executeRawUnsafe(
    `INSERT INTO "${smqs}" (code, name, level, description, source, note, version, status, algorithm)
     SELECT code, name, level, description, source, note, version, status, algorithm FROM smq_at($1)`,
    releaseId,
  );
  if (model.smqs.length) {
    await tx.$executeRawUnsafe(
      `UPDATE "${smqs}" s SET name = x.n, description = x.d FROM json_to_recordset($1::json) AS x(c int, n text, d text)
       WHERE s.code = x.c`,
      JSON.stringify(model.smqs.map((s) => ({ c: s.code, n: s.name, d: s.description }))),
    );
  }
  for (const t of [RANGED.concept, RANGED.smq]) {
    await tx.$executeRawUnsafe(`ANALYZE "${stageName(t)}"`);
    await removeAt(tx, t, at);
    await insertAt(tx, t, at);
  }
}
