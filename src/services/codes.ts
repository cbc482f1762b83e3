// Code lookup and what a code page shows: the highest-level rule, primary SOC, PT of an
// LLT, parents, children, paths and synonyms. Every read goes through the request's
// loaders, so a whole tree level costs one statement.
import type { Concept, ConceptKey } from '../domain/concepts.ts';
import type { HierarchyItem, PathCodes } from '../domain/hierarchy.ts';
import type { Level } from '../domain/levels.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { codeNotFound } from '../domain/errors.ts';
import { chooseLanguage } from '../domain/languages.ts';
import { parseCode } from './arguments.ts';
import { emptyPage, type Page, type PageRequest } from './paging.ts';
import type { RequestScope } from './scope.ts';

/** A concept together with the identifier of its release (for ids and nested lookups). */
export type ReleaseConcept = Concept & { version: string };
export type ReleaseHierarchyItem = Omit<HierarchyItem, 'concept'> & { concept: ReleaseConcept };
export type ReleasePath = PathCodes & { version: string };

export const withVersion = (c: Concept, version: string): ReleaseConcept => ({ ...c, version });

const keyOf = (c: Concept): ConceptKey => ({ releaseId: c.releaseId, level: c.level, code: c.code });

/** The concept for a code in a release; a code at several levels yields the highest (a PT over its own LLT). */
export async function lookupCode(
  scope: RequestScope,
  version: string | null | undefined,
  code: string,
  level?: Level | null,
  language?: string | null,
): Promise<ReleaseConcept> {
  const release = await scope.selectRelease(version);
  scope.chooseLanguage(release, language);
  const found = await conceptAt(scope, release, parseCode(code), level);
  if (!found) throw codeNotFound(level ? `${code} (${level})` : code, release.version);
  return withVersion(found, release.version);
}

/** The concept of a code in one release (highest level unless one is named), or null. */
export async function conceptAt(scope: RequestScope, release: ReleaseInfo, code: number, level?: Level | null): Promise<Concept | null> {
  const all = await scope.loaders.conceptsByCode.load({ releaseId: release.id, code });
  return (level ? all.find((c) => c.level === level) : all[0]) ?? null;
}

/** One concept by key, or null. */
export async function conceptByKey(scope: RequestScope, key: ConceptKey, version: string): Promise<ReleaseConcept | null> {
  const c = await scope.loaders.concept.load(key);
  return c ? withVersion(c, version) : null;
}

/** A code's global id: `{version}:{level}:{code}`. */
export const globalId = (c: ReleaseConcept) => `${c.version}:${c.level}:${c.code}`;

export async function conceptByGlobalId(scope: RequestScope, id: string): Promise<ReleaseConcept | null> {
  const [version, level, code] = id.split(':');
  const release = version ? await scope.services.catalog.byVersion(version) : undefined;
  if (!release || !level || !code) return null;
  return conceptByKey(scope, { releaseId: release.id, level: level as Level, code: Number(code) }, release.version);
}

/** Code of the primary SOC: a PT's own, an LLT's PT's, an HLT's or HLGT's primary path's. */
export async function primarySocCode(scope: RequestScope, c: Concept): Promise<number | null> {
  switch (c.level) {
    case 'SOC':
      return c.code;
    case 'PT':
      return c.primarySocCode;
    case 'LLT': {
      const pt = c.ptCode === null ? null : await scope.loaders.concept.load({ releaseId: c.releaseId, level: 'PT', code: c.ptCode });
      return pt?.primarySocCode ?? null;
    }
    default: {
      const paths = await scope.loaders.paths.load(keyOf(c));
      return (paths.find((p) => p.isPrimary) ?? paths[0])?.nodes[0]?.code ?? null;
    }
  }
}

export async function primarySoc(scope: RequestScope, c: ReleaseConcept): Promise<ReleaseConcept | null> {
  const s = await primarySocCode(scope, c);
  return s === null ? null : conceptByKey(scope, { releaseId: c.releaseId, level: 'SOC', code: s }, c.version);
}

/** For an LLT: the PT it belongs to. */
export async function ptOf(scope: RequestScope, c: ReleaseConcept): Promise<ReleaseConcept | null> {
  if (c.level !== 'LLT' || c.ptCode === null) return null;
  return conceptByKey(scope, { releaseId: c.releaseId, level: 'PT', code: c.ptCode }, c.version);
}

/** Whether an LLT is its PT's own LLT; every other level is primary. */
export const isPrimaryConcept = (c: Concept) => c.level !== 'LLT' || c.code === c.ptCode;

/** The release's in-memory index when built with its hierarchy, else undefined (no wait here: the loaders wait for a snapshot read). */
function builtIndex(scope: RequestScope, releaseId: number) {
  const ix = scope.services.catalog.searchIndexes.peek(releaseId);
  return ix?.hasHierarchy ? ix : undefined;
}

// Parents and children answer synchronously (a value, not a promise) from a built index:
// graphql-js then resolves a ~28k-node subtree without a promise and a DataLoader
// round per node, which was most of its cost once the SQL was gone. The index makes each
// concept with its version already in it (one object per node, no copies).
const versioned = (items: HierarchyItem[], version: string): ReleaseHierarchyItem[] =>
  items.map((i) => ({ relationshipType: i.relationshipType, isPrimary: i.isPrimary, concept: withVersion(i.concept, version) }));

export function parentsOf(scope: RequestScope, c: ReleaseConcept): ReleaseHierarchyItem[] | Promise<ReleaseHierarchyItem[]> {
  const ix = builtIndex(scope, c.releaseId);
  return ix ? (ix.parents(c.level, c.code, c.version) as ReleaseHierarchyItem[]) : scope.loaders.parents.load(keyOf(c)).then((items) => versioned(items, c.version));
}

export function childrenOf(scope: RequestScope, c: ReleaseConcept): ReleaseHierarchyItem[] | Promise<ReleaseHierarchyItem[]> {
  const ix = builtIndex(scope, c.releaseId);
  return ix ? (ix.children(c.level, c.code, c.version) as ReleaseHierarchyItem[]) : scope.loaders.children.load(keyOf(c)).then((items) => versioned(items, c.version));
}

/** Every path up to a SOC, the primary one first. */
export async function pathsOf(scope: RequestScope, c: ReleaseConcept): Promise<ReleasePath[]> {
  return (await scope.loaders.paths.load(keyOf(c))).map((p) => ({ ...p, version: c.version }));
}

export async function primaryPathOf(scope: RequestScope, c: ReleaseConcept): Promise<ReleasePath | null> {
  const p = await scope.loaders.primaryPath.load(keyOf(c));
  return p ? { ...p, version: c.version } : null;
}

/** The concepts of a path, from the SOC down. */
export async function pathNodes(scope: RequestScope, p: ReleasePath): Promise<ReleaseConcept[]> {
  const found = await scope.loaders.concept.loadMany(p.nodes);
  return found.filter((c): c is Concept => !!c && !(c instanceof Error)).map((c) => withVersion(c, p.version));
}

/** LLTs of the PT (for an LLT: of its PT), its own LLT first; none for other levels. */
export async function synonymsOf(scope: RequestScope, c: ReleaseConcept, page: PageRequest): Promise<Page<ReleaseConcept>> {
  const ptCode = c.level === 'PT' ? c.code : c.level === 'LLT' ? c.ptCode : null;
  if (ptCode === null) return emptyPage();
  const [items, total] = await Promise.all([
    scope.loaders.synonymPage.load({ releaseId: c.releaseId, ptCode, ...page }),
    scope.loaders.synonymCount.load({ releaseId: c.releaseId, ptCode }),
  ]);
  return { items: items.map((x) => withVersion(x, c.version)), total };
}

/** The release a concept belongs to. */
export async function releaseOf(scope: RequestScope, c: Concept): Promise<ReleaseInfo> {
  const r = await scope.services.catalog.byId(c.releaseId);
  if (!r) throw new Error(`release ${c.releaseId} vanished from the catalog`);
  return r;
}

// ---- Names in the request's language (issue 28) ------------------------------------------

/**
 * A code's term in the request's language for its release (scope.languageOf): the name it
 * carries when that is the primary language's or it was read in its language already (a
 * search hit), synchronously; otherwise the language's name (batched; the primary name where
 * the language has none).
 */
export function termOf(scope: RequestScope, c: ReleaseConcept): string | Promise<string> {
  if (c.language !== undefined) return c.name;
  const l = scope.languageOf(c.releaseId);
  // The release list was not at hand (languageOf is synchronous): choose with the release read.
  if (!l.tag) return releaseOf(scope, c).then((r) => nameIn(scope, c, scope.chooseLanguage(r), r));
  if (l.primary) return c.name;
  return nameIn(scope, c, l.tag);
}

/** The code's name in one hosted language (the primary name where the language has none). */
export async function nameIn(scope: RequestScope, c: ReleaseConcept, tag: string, known?: ReleaseInfo): Promise<string> {
  if (c.language === tag) return c.name;
  const release = known?.id === c.releaseId ? known : await releaseOf(scope, c);
  if (tag === release.languages[0]) return c.language === undefined ? c.name : ((await scope.loaders.concept.load(keyOf(c)))?.name ?? c.name);
  return (await scope.loaders.name.load({ ...keyOf(c), language: tag })) ?? c.name;
}

/** The language of termOf()'s name. */
export async function termLanguageOf(scope: RequestScope, c: ReleaseConcept): Promise<string> {
  if (c.language !== undefined) return c.language;
  const l = scope.languageOf(c.releaseId);
  return l.tag || scope.chooseLanguage(await releaseOf(scope, c));
}

/** The code's name in `explicit` (validated against the release's languages), else as termOf(). */
export async function nameOf(scope: RequestScope, c: ReleaseConcept, explicit: string | null | undefined): Promise<string> {
  if (!explicit) return termOf(scope, c);
  const release = await releaseOf(scope, c);
  const tag = chooseLanguage(explicit, undefined, release.languages, release.version);
  return nameIn(scope, c, tag);
}

/** The code's name in every hosted language, primary first. */
export async function namesOf(scope: RequestScope, c: ReleaseConcept, known?: ReleaseInfo): Promise<{ language: string; name: string }[]> {
  const release = known?.id === c.releaseId ? known : await releaseOf(scope, c);
  const primary = c.language === undefined ? c.name : ((await scope.loaders.concept.load(keyOf(c)))?.name ?? c.name);
  if (release.languages.length < 2) return [{ language: release.languages[0]!, name: primary }];
  // From the names read once when they are (no SQL: issue 32), else one statement per batch.
  const names = scope.services.catalog.languageNames;
  const read = release.languages.slice(1).map((language) => ({ language, name: names.nameAt(release.id, language, c.level, c.code) }));
  const others = read.every((n) => n.name !== undefined)
    ? read.filter((n): n is { language: string; name: string } => typeof n.name === 'string')
    : await scope.loaders.otherNames.load(keyOf(c));
  return [{ language: release.languages[0]!, name: primary }, ...others];
}
