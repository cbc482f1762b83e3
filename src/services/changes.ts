// What changed between releases: a release's change set with its filters, one code
// compared between any two releases, and a code's history across every hosted release.
import { computeChanges, type ChangeType } from '../domain/changes/engine.ts';
import { listChanges, type ChangeCounts, type StoredChange } from '../domain/changes/store.ts';
import { translationChanges } from '../domain/changes/translations.ts';
import { pageFromMemory } from '../domain/changes/pages.ts';
import { hasHierarchyFilter } from '../domain/hierarchyFilter.ts';
import type { Concept } from '../domain/concepts.ts';
import type { Level } from '../domain/levels.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { codeNotFound, validationError } from '../domain/errors.ts';
import { parseCode } from './arguments.ts';
import { conceptAt, primarySocCode, releaseOf } from './codes.ts';
import { hierarchyFilter, type HierarchyFilterArgs } from './filters.ts';
import type { Page, PageRequest } from './paging.ts';
import type { RequestScope } from './scope.ts';

/** A stored change with the two releases it lies between. */
export type ReleaseChange = StoredChange & { fromVersion: string; toVersion: string; releaseId: number; baselineId: number };

const between = (c: StoredChange, from: ReleaseInfo, to: ReleaseInfo): ReleaseChange => ({
  ...c,
  fromVersion: from.version,
  toVersion: to.version,
  releaseId: to.id,
  baselineId: from.id,
});

/** Baseline for a target: explicit, else the previous release; must be older than the target. */
export async function resolveBaseline(scope: RequestScope, to: ReleaseInfo, from: string | null | undefined, field = 'from'): Promise<ReleaseInfo> {
  const { catalog } = scope.services;
  if (from) {
    const base = await catalog.require(from, field);
    if (base.ordinal >= to.ordinal) {
      throw validationError({ [field]: [`must be a release older than ${to.version} (${base.version} is ${base.ordinal === to.ordinal ? 'the same release' : 'newer'})`] });
    }
    return base;
  }
  const prev = await catalog.previous(to);
  if (!prev) throw validationError({ [field]: [`release ${to.version} is the oldest hosted release: there is no previous release to compare with`] });
  return prev;
}

/** Change counts of a release against the previous one (null for the oldest). */
export async function changeCountsOf(scope: RequestScope, release: ReleaseInfo): Promise<ChangeCounts | null> {
  const prev = await scope.services.catalog.previous(release);
  return prev ? scope.loaders.changeSet.load({ from: prev, to: release }) : null;
}

export interface ReleaseChangesArgs extends HierarchyFilterArgs {
  from?: string | null | undefined;
  /** BCP 47 tag (issue 28): names in that language, and its translation changes listed after the stored ones. */
  language?: string | null | undefined;
  level?: Level | null | undefined;
  changeType?: ChangeType | null | undefined;
}

export interface ReleaseChangesPage extends Page<ReleaseChange> {
  counts: ChangeCounts;
  from: ReleaseInfo;
  to: ReleaseInfo;
}

/** One page of what changed from a baseline (default: the previous release) to `to`. */
export async function releaseChanges(scope: RequestScope, to: ReleaseInfo, args: ReleaseChangesArgs, page: PageRequest): Promise<ReleaseChangesPage> {
  const from = await resolveBaseline(scope, to, args.from);
  const filters = { level: args.level ?? undefined, changeType: args.changeType ?? undefined, ...(await hierarchyFilter(scope, [to, from], args)) };
  // A pair computed on demand answers from memory at once (its rows are stored meanwhile); a stored one from SQL.
  const { prisma, changeSets } = scope.services;
  const quick = changeSets ? await pageFromMemory(prisma, changeSets, from, to, filters, page.offset, page.limit, scope.services.catalog.searchIndexes) : null;
  if (!quick) await scope.loaders.changeSet.load({ from, to });
  const found = quick ?? (await listChanges(prisma, from.id, to.id, filters, page.offset, page.limit));
  // The language named, else Accept-Language's best hosted match, else the primary (issue 28).
  const lang = scope.chooseLanguage(to, args.language);
  if (lang === to.languages[0]) return { items: found.items.map((c) => between(c, from, to)), total: found.total, counts: found.counts, from, to };
  // Another language: the stored changes named in it, then its translation changes (not under hierarchy filters).
  const items = await Promise.all(found.items.map(async (c) => between({ ...c, term: await changeNameIn(scope, c, from, to, lang) }, from, to)));
  const translated =
    hasHierarchyFilter(filters) || (filters.changeType && filters.changeType !== 'updated')
      ? []
      : (await translationChanges(scope.services.reader?.() ?? scope.services.prisma, from, to, lang)).filter((t) => !filters.level || t.level === filters.level);
  if (items.length < page.limit && translated.length) {
    const start = Math.max(0, page.offset + items.length - found.total);
    items.push(...translated.slice(start, start + page.limit - items.length).map((t) => between(t, from, to)));
  }
  const counts = { ...found.counts, updated: found.counts.updated + translated.length };
  return { items, total: found.total + translated.length, counts, from, to };
}

/** A stored change's concept named in `lang`: in the target release, or the baseline for one that left. */
async function changeNameIn(scope: RequestScope, c: StoredChange, from: ReleaseInfo, to: ReleaseInfo, lang: string): Promise<string> {
  const r = c.changeType === 'retired' && c.metadata.kinds.includes('retired') ? from : to;
  if (r.languages[0] === lang || !r.languages.includes(lang)) return c.term;
  return (await scope.loaders.name.load({ releaseId: r.id, language: lang, level: c.level, code: c.code })) ?? c.term;
}

/** How a concept changed in its release against the previous one (null when unchanged). */
export async function changeOf(scope: RequestScope, c: Concept): Promise<ReleaseChange | null> {
  const release = await releaseOf(scope, c);
  const prev = await scope.services.catalog.previous(release);
  if (!prev) return null;
  await scope.loaders.changeSet.load({ from: prev, to: release });
  const changes = await scope.loaders.codeChanges.load({ fromId: prev.id, toId: release.id, code: c.code });
  const own = changes.find((x) => x.level === c.level) ?? changes[0];
  return own ? between(own, prev, release) : null;
}

/** A code as it stands in one release. */
export interface CodeSnapshot {
  exists: boolean;
  code: string;
  concept: Concept | null;
  primarySocCode: number | null;
}

export async function snapshot(scope: RequestScope, release: ReleaseInfo, code: number): Promise<CodeSnapshot> {
  const c = await conceptAt(scope, release, code);
  if (!c) return { exists: false, code: String(code), concept: null, primarySocCode: null };
  return { exists: true, code: String(code), concept: c, primarySocCode: await primarySocCode(scope, c) };
}

export interface CodeComparison {
  code: string;
  from: ReleaseInfo;
  to: ReleaseInfo;
  snapshots: { from: CodeSnapshot; to: CodeSnapshot };
  /** Human-readable notes, one per change (prefixed by level when several levels changed). */
  differences: string[];
  changes: ReleaseChange[];
}

/** Compares one code between any two releases (either direction). */
export async function compareCode(scope: RequestScope, code: string, to: ReleaseInfo, from: ReleaseInfo): Promise<CodeComparison> {
  const n = parseCode(code);
  const [a, b] = await Promise.all([snapshot(scope, from, n), snapshot(scope, to, n)]);
  if (!a.exists && !b.exists) throw codeNotFound(code, `${from.version} or ${to.version}`);
  const records = from.id === to.id ? [] : await computeChanges(scope.services.prisma, from, to, n);
  const multi = new Set(records.map((r) => r.level)).size > 1;
  return {
    code,
    from,
    to,
    snapshots: { from: a, to: b },
    differences: records.map((r) => (multi ? `${r.level}: ${r.details}` : r.details)),
    changes: records.map((r) => between(r, from, to)),
  };
}

/** A code in the selected release (argument, header, latest) compared against the `against` release. */
export async function compareCodeAgainst(scope: RequestScope, code: string, against: string, version: string | null | undefined, language?: string | null): Promise<CodeComparison> {
  const to = await scope.selectRelease(version);
  // Names in the language (carried to the baseline when it hosts it too: scope.chooseLanguage).
  if (language) scope.chooseLanguage(to, language);
  const from = await scope.services.catalog.require(against, 'against');
  scope.usedVersions.add(from.version);
  return compareCode(scope, code, to, from);
}

/** A concept compared against another release; the concept's release is `to`. */
export async function compareConcept(scope: RequestScope, c: Concept, against: string): Promise<CodeComparison> {
  return compareCode(scope, String(c.code), await releaseOf(scope, c), await scope.services.catalog.require(against, 'against'));
}

export interface CodeHistoryEntry {
  release: ReleaseInfo;
  snapshot: CodeSnapshot;
  /** Against the previous hosted release (empty for the oldest). */
  changes: ReleaseChange[];
}

/** The code across every hosted release, oldest first: what it was and what changed when. */
export async function codeHistory(scope: RequestScope, c: Concept): Promise<CodeHistoryEntry[]> {
  const releases = [...(await scope.services.catalog.releases())].reverse();
  const pairs = releases.slice(1).map((to, i) => ({ from: releases[i]!, to }));
  await Promise.all(pairs.map((p) => scope.loaders.changeSet.load(p)));
  // The request's language for the code's release (issue 28): its translation changes join the history.
  const lang = scope.languageOf(c.releaseId);
  const db = scope.services.reader?.() ?? scope.services.prisma;
  const [snapshots, changes, translated] = await Promise.all([
    Promise.all(releases.map((r) => snapshot(scope, r, c.code))),
    Promise.all(pairs.map((p) => scope.loaders.codeChanges.load({ fromId: p.from.id, toId: p.to.id, code: c.code }))),
    lang.primary || !lang.tag ? pairs.map(() => []) : Promise.all(pairs.map((p) => translationChanges(db, p.from, p.to, lang.tag, [c.code]))),
  ]);
  return releases.map((release, i) => ({
    release,
    snapshot: snapshots[i]!,
    changes: i === 0 ? [] : [...changes[i - 1]!, ...translated[i - 1]!].map((x) => between(x, releases[i - 1]!, release)),
  }));
}
