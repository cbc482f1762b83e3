import { builder } from '../builder.ts';
import { resolveOffsetConnection } from '@pothos/plugin-relay';
import type { StoredChange, ChangeCounts } from '../../domain/changes/store.ts';
import { listChanges } from '../../domain/changes/store.ts';
import { computeChanges } from '../../domain/changes/engine.ts';
import { codeNotFound, validationError } from '../../domain/errors.ts';
import type { ReleaseInfo } from '../../domain/releases.ts';
import type { GraphQLContext } from '../context.ts';
import { LevelEnum } from './enums.ts';
import { VersionRef } from './Version.ts';
import { CodeRef, withVersion, type CodeShape } from './Code.ts';
import { checkFirst, optionalCode, parseCode } from '../../services/arguments.ts';
import type { Level } from '../../domain/levels.ts';
import type { Concept } from '../../domain/concepts.ts';

export const JSONScalar = builder.scalarType('JSON', {
  description: 'Arbitrary JSON value.',
  serialize: (v) => v,
  parseValue: (v) => v,
});

export const ChangeTypeEnum = builder.enumType('ChangeType', {
  values: {
    ADDED: { value: 'added', description: 'absent from the baseline release' },
    UPDATED: { value: 'updated', description: 'renamed, re-linked, moved, promoted/demoted, made current again…' },
    RETIRED: { value: 'retired', description: 'an LLT made non-current, or a concept absent from the target release' },
  } as const,
});

type ChangeShape = StoredChange & { toVersion: string; fromVersion: string; releaseId: number; baselineId: number };

export const ChangeRef = builder.objectRef<ChangeShape>('Change').implement({
  description: 'How one concept changed between two releases.',
  fields: (t) => ({
    code: t.string({ resolve: (c) => String(c.code) }),
    level: t.field({ type: LevelEnum, resolve: (c) => c.level }),
    changeType: t.field({ type: ChangeTypeEnum, resolve: (c) => c.changeType }),
    term: t.exposeString('term', { description: 'Name in the target release (in the baseline when the concept left).' }),
    previousTerm: t.string({ nullable: true, resolve: (c) => c.previousTerm }),
    details: t.exposeString('details', { description: 'Human-readable description of every change.' }),
    kinds: t.stringList({
      description: 'added, retired, made_non_current, currency_restored, renamed, primary_soc_changed, parents_added, parents_removed, llt_moved, promoted, demoted, soc_abbreviation_changed, soc_order_changed',
      resolve: (c) => c.metadata.kinds,
    }),
    metadata: t.field({ type: JSONScalar, description: '{kinds, before, after}: the changed values.', resolve: (c) => c.metadata }),
    from: t.string({ description: 'Baseline release.', resolve: (c) => c.fromVersion }),
    to: t.string({ description: 'Target release.', resolve: (c) => c.toVersion }),
    concept: t.field({
      type: CodeRef,
      nullable: true,
      description: 'The concept in the target release (null when it left).',
      resolve: async (c, _a, ctx) => {
        const found = await ctx.loaders.concept.load({ releaseId: c.releaseId, level: c.level, code: c.code });
        return found ? withVersion(found, c.toVersion) : null;
      },
    }),
  }),
});

const ChangeCountsRef = builder.objectRef<ChangeCounts>('ChangeCounts').implement({
  fields: (t) => ({ added: t.exposeInt('added'), updated: t.exposeInt('updated'), retired: t.exposeInt('retired') }),
});

/** Baseline for a target: explicit, else the previous release; must be older than the target. */
export async function resolveBaseline(ctx: GraphQLContext, to: ReleaseInfo, from: string | null | undefined, field = 'from'): Promise<ReleaseInfo> {
  if (from) {
    const base = await ctx.services.catalog.require(from, field);
    if (base.ordinal >= to.ordinal) {
      throw validationError({ [field]: [`must be a release older than ${to.version} (${base.version} is ${base.ordinal === to.ordinal ? 'the same release' : 'newer'})`] });
    }
    return base;
  }
  const prev = await ctx.services.catalog.previous(to);
  if (!prev) throw validationError({ [field]: [`release ${to.version} is the oldest hosted release: there is no previous release to compare with`] });
  return prev;
}

builder.objectFields(VersionRef, (t) => ({
  changeCounts: t.field({
    type: ChangeCountsRef,
    nullable: true,
    description: 'Changes against the previous release (null for the oldest release).',
    resolve: async (r, _a, ctx) => {
      const prev = await ctx.services.catalog.previous(r);
      return prev ? ctx.loaders.changeSet.load({ from: prev, to: r }) : null;
    },
  }),
  changes: t.connection(
    {
      type: ChangeRef,
      description: 'What changed from a baseline (default: the previous release) to this release.',
      args: {
        from: t.arg.string({ required: false, description: 'Baseline release (default: the previous one).' }),
        level: t.arg({ type: LevelEnum, required: false }),
        changeType: t.arg({ type: ChangeTypeEnum, required: false }),
        soc: t.arg.string({ required: false }),
        hlgt: t.arg.string({ required: false }),
        hlt: t.arg.string({ required: false }),
        llt: t.arg.string({ required: false }),
      },
      complexity: (args) => ({ field: 5, multiplier: args.first ?? 50 }),
      resolve: async (to, args, ctx) => {
        checkFirst(args.first);
        const from = await resolveBaseline(ctx, to, args.from);
        const filters = {
          level: args.level ?? undefined,
          changeType: args.changeType ?? undefined,
          soc: optionalCode(args.soc, 'soc'),
          hlgt: optionalCode(args.hlgt, 'hlgt'),
          hlt: optionalCode(args.hlt, 'hlt'),
          llt: optionalCode(args.llt, 'llt'),
        };
        await requireFilterNodes(ctx, [to, from], filters);
        await ctx.loaders.changeSet.load({ from, to });
        let total = 0;
        let counts: ChangeCounts = { added: 0, updated: 0, retired: 0 };
        const conn = await resolveOffsetConnection({ args, defaultSize: 50, maxSize: 200 }, async ({ offset, limit }) => {
          const page = await listChanges(ctx.services.prisma, from.id, to.id, filters, offset, limit);
          total = page.total;
          counts = page.counts;
          return page.items.map((c) => ({ ...c, toVersion: to.version, fromVersion: from.version, releaseId: to.id, baselineId: from.id }));
        });
        return { ...conn, totalCount: total, counts, from, to };
      },
    },
    {
      name: 'ChangeConnection',
      fields: (f) => ({
        totalCount: f.int({ resolve: (p) => (p as unknown as { totalCount: number }).totalCount }),
        counts: f.field({ type: ChangeCountsRef, description: 'Per change type, under every filter but changeType.', resolve: (p) => (p as unknown as { counts: ChangeCounts }).counts }),
        from: f.field({ type: VersionRef, resolve: (p) => (p as unknown as { from: ReleaseInfo }).from }),
        to: f.field({ type: VersionRef, resolve: (p) => (p as unknown as { to: ReleaseInfo }).to }),
      }),
    },
  ),
}));

/** A hierarchy filter must name a node of the target or the baseline release. */
async function requireFilterNodes(ctx: GraphQLContext, releases: ReleaseInfo[], f: { soc?: number; hlgt?: number; hlt?: number; llt?: number }) {
  const checks: [Level, number | undefined, string][] = [['SOC', f.soc, 'soc'], ['HLGT', f.hlgt, 'hlgt'], ['HLT', f.hlt, 'hlt'], ['LLT', f.llt, 'llt']];
  for (const [level, code, field] of checks) {
    if (code === undefined) continue;
    const found = await Promise.all(releases.map((r) => ctx.loaders.concept.load({ releaseId: r.id, level, code })));
    if (!found.some(Boolean)) throw codeNotFound(`${code} (${field} filter)`, releases.map((r) => r.version).join(' or '));
  }
}

// --- per code ---------------------------------------------------------------------

interface SnapshotShape {
  exists: boolean;
  code: string;
  concept: Concept | null;
  primarySocCode: number | null;
}

const SnapshotRef = builder.objectRef<SnapshotShape>('CodeSnapshot').implement({
  description: 'A code as it stands in one release.',
  fields: (t) => ({
    exists: t.exposeBoolean('exists'),
    code: t.exposeString('code'),
    term: t.string({ nullable: true, resolve: (s) => s.concept?.name ?? null }),
    level: t.field({ type: LevelEnum, nullable: true, resolve: (s) => s.concept?.level ?? null }),
    status: t.string({ nullable: true, description: 'current or non-current', resolve: (s) => (s.concept ? (s.concept.current ? 'current' : 'non-current') : null) }),
    primarySocCode: t.string({ nullable: true, resolve: (s) => (s.primarySocCode === null ? null : String(s.primarySocCode)) }),
  }),
});

async function snapshot(ctx: GraphQLContext, release: ReleaseInfo, code: number): Promise<SnapshotShape> {
  const [c] = await ctx.loaders.conceptsByCode.load({ releaseId: release.id, code });
  if (!c) return { exists: false, code: String(code), concept: null, primarySocCode: null };
  let soc: number | null = c.level === 'SOC' ? c.code : c.primarySocCode;
  if (c.level === 'LLT' && c.ptCode !== null) soc = (await ctx.loaders.concept.load({ releaseId: release.id, level: 'PT', code: c.ptCode }))?.primarySocCode ?? null;
  if (c.level === 'HLT' || c.level === 'HLGT') {
    const paths = await ctx.loaders.paths.load({ releaseId: release.id, level: c.level, code: c.code });
    soc = (paths.find((p) => p.isPrimary) ?? paths[0])?.nodes[0]?.code ?? null;
  }
  return { exists: true, code: String(code), concept: c, primarySocCode: soc };
}

interface ComparisonShape {
  code: string;
  from: ReleaseInfo;
  to: ReleaseInfo;
  snapshots: { from: SnapshotShape; to: SnapshotShape };
  differences: string[];
  changes: ChangeShape[];
}

const ComparisonRef = builder.objectRef<ComparisonShape>('CodeComparison').implement({
  description: 'One code compared between two releases.',
  fields: (t) => ({
    code: t.exposeString('code'),
    from: t.field({ type: VersionRef, resolve: (c) => c.from }),
    to: t.field({ type: VersionRef, resolve: (c) => c.to }),
    fromSnapshot: t.field({ type: SnapshotRef, resolve: (c) => c.snapshots.from }),
    toSnapshot: t.field({ type: SnapshotRef, resolve: (c) => c.snapshots.to }),
    differences: t.stringList({ description: 'Human-readable notes, one per change (prefixed by level).', resolve: (c) => c.differences }),
    changes: t.field({ type: [ChangeRef], description: 'The same differences, structured.', resolve: (c) => c.changes }),
  }),
});

/** Compares one code between any two releases (either direction). */
export async function compareCode(ctx: GraphQLContext, code: string, to: ReleaseInfo, from: ReleaseInfo): Promise<ComparisonShape> {
  const n = parseCode(code);
  const [a, b] = await Promise.all([snapshot(ctx, from, n), snapshot(ctx, to, n)]);
  if (!a.exists && !b.exists) throw codeNotFound(code, `${from.version} or ${to.version}`);
  const records = from.id === to.id ? [] : await computeChanges(ctx.services.prisma, from, to, n);
  const multi = new Set(records.map((r) => r.level)).size > 1;
  return {
    code,
    from,
    to,
    snapshots: { from: a, to: b },
    differences: records.map((r) => (multi ? `${r.level}: ${r.details}` : r.details)),
    changes: records.map((r) => ({ ...r, toVersion: to.version, fromVersion: from.version, releaseId: to.id, baselineId: from.id })),
  };
}

interface HistoryEntryShape {
  release: ReleaseInfo;
  snapshot: SnapshotShape;
  changes: ChangeShape[];
}

const HistoryEntryRef = builder.objectRef<HistoryEntryShape>('CodeHistoryEntry').implement({
  description: 'A code in one hosted release, with what changed since the release before.',
  fields: (t) => ({
    version: t.field({ type: VersionRef, resolve: (h) => h.release }),
    snapshot: t.field({ type: SnapshotRef, resolve: (h) => h.snapshot }),
    changes: t.field({ type: [ChangeRef], description: 'Against the previous hosted release (empty for the oldest).', resolve: (h) => h.changes }),
  }),
});

builder.objectFields(CodeRef, (t) => ({
  change: t.field({
    type: ChangeRef,
    nullable: true,
    description: 'How this concept changed in its release against the previous one (null when unchanged).',
    resolve: async (c, _a, ctx) => {
      const release = (await ctx.services.catalog.byId(c.releaseId))!;
      const prev = await ctx.services.catalog.previous(release);
      if (!prev) return null;
      await ctx.loaders.changeSet.load({ from: prev, to: release });
      const changes = await ctx.loaders.codeChanges.load({ fromId: prev.id, toId: release.id, code: c.code });
      const own = changes.find((x) => x.level === c.level) ?? changes[0];
      return own ? { ...own, toVersion: release.version, fromVersion: prev.version, releaseId: release.id, baselineId: prev.id } : null;
    },
  }),
  compare: t.field({
    type: ComparisonRef,
    description: "This code compared against another release (the comparison's `from`); this code's release is `to`.",
    args: { against: t.arg.string({ required: true }) },
    resolve: async (c, args, ctx) => {
      const to = (await ctx.services.catalog.byId(c.releaseId))!;
      return compareCode(ctx, String(c.code), to, await ctx.services.catalog.require(args.against, 'against'));
    },
  }),
  history: t.field({
    type: [HistoryEntryRef],
    description: 'The code across every hosted release, oldest first: what it was and what changed when.',
    complexity: { field: 5, multiplier: 5 },
    resolve: (c, _a, ctx) => codeHistory(ctx, c),
  }),
}));

async function codeHistory(ctx: GraphQLContext, c: CodeShape): Promise<HistoryEntryShape[]> {
  const releases = [...(await ctx.services.catalog.releases())].reverse();
  const pairs = releases.slice(1).map((to, i) => ({ from: releases[i]!, to }));
  await Promise.all(pairs.map((p) => ctx.loaders.changeSet.load(p)));
  const [snapshots, changes] = await Promise.all([
    Promise.all(releases.map((r) => snapshot(ctx, r, c.code))),
    Promise.all(pairs.map((p) => ctx.loaders.codeChanges.load({ fromId: p.from.id, toId: p.to.id, code: c.code }))),
  ]);
  return releases.map((release, i) => ({
    release,
    snapshot: snapshots[i]!,
    changes:
      i === 0
        ? []
        : changes[i - 1]!.map((x) => ({ ...x, toVersion: release.version, fromVersion: releases[i - 1]!.version, releaseId: release.id, baselineId: releases[i - 1]!.id })),
  }));
}

builder.queryFields((t) => ({
  codeChanges: t.field({
    type: ComparisonRef,
    description: 'One code compared between two releases: `against` is the baseline (from); `version` (else header, else latest) the target.',
    args: { code: t.arg.string({ required: true }), against: t.arg.string({ required: true }), version: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) => {
      const to = await ctx.selectRelease(args.version);
      const from = await ctx.services.catalog.require(args.against, 'against');
      ctx.usedVersions.add(from.version);
      return compareCode(ctx, args.code, to, from);
    },
  }),
}));
