import { valueFromASTUntyped, type ValueNode } from 'graphql';
import { builder } from '../builder.ts';
import type { ChangeCounts } from '../../domain/changes/store.ts';
import * as changes from '../../services/changes.ts';
import type { CodeComparison, CodeHistoryEntry, CodeSnapshot, ReleaseChange, ReleaseChangesPage } from '../../services/changes.ts';
import { conceptByKey, termOf } from '../../services/codes.ts';
import { PAGES } from '../../services/limits.ts';
import { offsetConnection, totalCount } from '../connections.ts';
import { LevelEnum } from './enums.ts';
import { VersionRef } from './Version.ts';
import { CodeRef } from './Code.ts';

export const JSONScalar = builder.scalarType('JSON', {
  description: 'Arbitrary JSON value.',
  serialize: (v) => v,
  parseValue: (v) => v,
  // graphql-js's default takes (node, variables); graphql-jit prints a line to stderr for every
  // literal of a scalar whose parseLiteral declares a second parameter, outside the logger. Rest
  // parameters declare none; documents with a variable inside a literal do not compile (jit.ts).
  parseLiteral: (...args: [ValueNode, ({ readonly [name: string]: unknown } | null)?]) => valueFromASTUntyped(args[0], args[1]),
});

export const ChangeTypeEnum = builder.enumType('ChangeType', {
  values: {
    ADDED: { value: 'added', description: 'absent from the baseline release' },
    UPDATED: { value: 'updated', description: 'renamed, re-linked, moved, promoted/demoted, made current again…' },
    RETIRED: { value: 'retired', description: 'an LLT made non-current, or a concept absent from the target release' },
  } as const,
});

export const ChangeRef = builder.objectRef<ReleaseChange>('Change').implement({
  description: 'How one concept changed between two releases.',
  fields: (t) => ({
    code: t.string({ resolve: (c) => String(c.code) }),
    level: t.field({ type: LevelEnum, resolve: (c) => c.level }),
    changeType: t.field({ type: ChangeTypeEnum, resolve: (c) => c.changeType }),
    term: t.exposeString('term', { description: 'Name in the target release (in the baseline when the concept left).' }),
    previousTerm: t.string({ nullable: true, resolve: (c) => c.previousTerm }),
    details: t.exposeString('details', { description: 'Human-readable description of every change.' }),
    language: t.string({
      nullable: true,
      description: 'For a translation change (kind translation_changed): the BCP 47 tag of the language whose name changed.',
      resolve: (c) => (c as { language?: string }).language ?? null,
    }),
    kinds: t.stringList({
      description: 'added, retired, made_non_current, currency_restored, renamed, primary_soc_changed, parents_added, parents_removed, llt_moved, promoted, demoted, soc_abbreviation_changed, soc_order_changed, translation_changed (issue 28)',
      resolve: (c) => c.metadata.kinds,
    }),
    metadata: t.field({ type: JSONScalar, description: '{kinds, before, after}: the changed values.', resolve: (c) => c.metadata }),
    from: t.string({ description: 'Baseline release.', resolve: (c) => c.fromVersion }),
    to: t.string({ description: 'Target release.', resolve: (c) => c.toVersion }),
    concept: t.field({
      type: CodeRef,
      nullable: true,
      description: 'The concept in the target release (null when it left).',
      resolve: (c, _a, ctx) => conceptByKey(ctx, { releaseId: c.releaseId, level: c.level, code: c.code }, c.toVersion),
    }),
  }),
});

const ChangeCountsRef = builder.objectRef<ChangeCounts>('ChangeCounts').implement({
  fields: (t) => ({ added: t.exposeInt('added'), updated: t.exposeInt('updated'), retired: t.exposeInt('retired') }),
});

builder.objectFields(VersionRef, (t) => ({
  changeCounts: t.field({
    type: ChangeCountsRef,
    nullable: true,
    description: 'Changes against the previous release (null for the oldest release).',
    resolve: (r, _a, ctx) => changes.changeCountsOf(ctx, r),
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
        language: t.arg.string({
          required: false,
          description:
            'BCP 47 tag of a hosted language: names in it, and its translation changes (a name changed in that language only: changeType updated, kind translation_changed, `language` set) listed after the other changes (not under hierarchy filters).',
        }),
      },
      complexity: (args) => ({ field: 5, multiplier: args.first ?? PAGES.changes.default }),
      resolve: (to, args, ctx) => offsetConnection(args, PAGES.changes, (page) => changes.releaseChanges(ctx, to, args, page)),
    },
    {
      name: 'ChangeConnection',
      fields: (f) => ({
        totalCount: f.int({ resolve: totalCount }),
        counts: f.field({ type: ChangeCountsRef, description: 'Per change type, under every filter but changeType.', resolve: (p) => (p as unknown as ReleaseChangesPage).counts }),
        from: f.field({ type: VersionRef, resolve: (p) => (p as unknown as ReleaseChangesPage).from }),
        to: f.field({ type: VersionRef, resolve: (p) => (p as unknown as ReleaseChangesPage).to }),
      }),
    },
  ),
}));

// --- per code ---------------------------------------------------------------------

const SnapshotRef = builder.objectRef<CodeSnapshot>('CodeSnapshot').implement({
  description: 'A code as it stands in one release.',
  fields: (t) => ({
    exists: t.exposeBoolean('exists'),
    code: t.exposeString('code'),
    term: t.string({
      nullable: true,
      description: "Name in the request's language for that release (as Code.term).",
      resolve: (s, _a, ctx) => (s.concept ? termOf(ctx, { ...s.concept, version: '' }) : null),
    }),
    level: t.field({ type: LevelEnum, nullable: true, resolve: (s) => s.concept?.level ?? null }),
    status: t.string({ nullable: true, description: 'current or non-current', resolve: (s) => (s.concept ? (s.concept.current ? 'current' : 'non-current') : null) }),
    primarySocCode: t.string({ nullable: true, resolve: (s) => (s.primarySocCode === null ? null : String(s.primarySocCode)) }),
  }),
});

const ComparisonRef = builder.objectRef<CodeComparison>('CodeComparison').implement({
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

const HistoryEntryRef = builder.objectRef<CodeHistoryEntry>('CodeHistoryEntry').implement({
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
    resolve: (c, _a, ctx) => changes.changeOf(ctx, c),
  }),
  compare: t.field({
    type: ComparisonRef,
    description: "This code compared against another release (the comparison's `from`); this code's release is `to`.",
    args: { against: t.arg.string({ required: true }) },
    resolve: (c, args, ctx) => changes.compareConcept(ctx, c, args.against),
  }),
  history: t.field({
    type: [HistoryEntryRef],
    description: 'The code across every hosted release, oldest first: what it was and what changed when.',
    complexity: { field: 5, multiplier: 5 },
    resolve: (c, _a, ctx) => changes.codeHistory(ctx, c),
  }),
}));

builder.queryFields((t) => ({
  codeChanges: t.field({
    type: ComparisonRef,
    description: 'One code compared between two releases: `against` is the baseline (from); `version` (else header, else latest) the target.',
    args: {
      code: t.arg.string({ required: true }),
      against: t.arg.string({ required: true }),
      version: t.arg.string({ required: false }),
      language: t.arg.string({ required: false, description: 'BCP 47 tag of the names (hosted by the target); default: Accept-Language, else the primary.' }),
    },
    resolve: (_r, args, ctx) => changes.compareCodeAgainst(ctx, args.code, args.against, args.version, args.language),
  }),
}));
