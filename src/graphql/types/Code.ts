import { builder } from '../builder.ts';
import * as codes from '../../services/codes.ts';
import type { ReleaseConcept, ReleaseHierarchyItem, ReleasePath } from '../../services/codes.ts';
import { releaseOf } from '../../services/codes.ts';
import { PAGES } from '../../services/limits.ts';
import { offsetConnection, totalCount } from '../connections.ts';
import { CodeStatusEnum, LevelEnum, RelationshipTypeEnum } from './enums.ts';
import { VersionRef } from './Version.ts';

export const CodeRef = builder.objectRef<ReleaseConcept>('Code');

const LocalizedNameRef = builder.objectRef<{ language: string; name: string }>('LocalizedName').implement({
  description: 'A name in one language (BCP 47 tag).',
  fields: (t) => ({
    language: t.exposeString('language'),
    name: t.exposeString('name'),
  }),
});

const HierarchyItemRef = builder.objectRef<ReleaseHierarchyItem>('HierarchyItem').implement({
  description: 'A parent or child of a code, with the type of the edge.',
  fields: (t) => ({
    relationshipType: t.field({ type: RelationshipTypeEnum, resolve: (i) => i.relationshipType as typeof RelationshipTypeEnum.$inferType }),
    isPrimary: t.exposeBoolean('isPrimary', { description: 'The edge lies on the primary path (for PTs: the primary SOC).' }),
    code: t.field({ type: CodeRef, resolve: (i) => i.concept }),
  }),
});

const HierarchyPathRef = builder.objectRef<ReleasePath>('HierarchyPath').implement({
  description: 'One path from a SOC down to the code.',
  fields: (t) => ({
    isPrimary: t.exposeBoolean('isPrimary'),
    nodes: t.field({ type: [CodeRef], description: 'From the SOC down to the code itself.', resolve: (p, _a, ctx) => codes.pathNodes(ctx, p) }),
  }),
});

builder.node(CodeRef, {
  description: 'A concept of one release at one level. Its nested fields read the same release.',
  id: { resolve: codes.globalId },
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'code' in v && 'level' in v && 'version' in v,
  loadOne: (id, ctx) => codes.conceptByGlobalId(ctx, id),
  fields: (t) => ({
    code: t.string({ resolve: (c) => String(c.code) }),
    term: t.string({
      description:
        "Term name, in the request's language for the release: the root field's `language` argument, else Accept-Language's best hosted match, else the release's primary language.",
      resolve: (c, _a, ctx) => codes.termOf(ctx, c),
    }),
    name: t.string({
      description: 'The name in `language` (a hosted BCP 47 tag; LANGUAGE_NOT_FOUND otherwise), or as `term` without it.',
      args: { language: t.arg.string({ required: false }) },
      resolve: (c, args, ctx) => codes.nameOf(ctx, c, args.language),
    }),
    language: t.string({ description: 'BCP 47 tag of the language of `term`.', resolve: (c, _a, ctx) => codes.termLanguageOf(ctx, c) }),
    names: t.field({
      type: [LocalizedNameRef],
      description: "The name in every language the release hosts, its primary language first.",
      resolve: (c, _a, ctx) => codes.namesOf(ctx, c),
    }),
    level: t.field({ type: LevelEnum, resolve: (c) => c.level }),
    status: t.field({ type: CodeStatusEnum, resolve: (c) => (c.current ? 'CURRENT' : 'NON_CURRENT') }),
    isPrimary: t.boolean({
      description: "For an LLT: whether it is its PT's own LLT. Every other level: true. Edge-level primacy is on HierarchyItem.isPrimary.",
      resolve: codes.isPrimaryConcept,
    }),
    primarySocCode: t.string({
      nullable: true,
      description: 'Code of the primary SOC (of the PT, for an LLT).',
      resolve: async (c, _a, ctx) => (await codes.primarySocCode(ctx, c))?.toString() ?? null,
    }),
    primarySoc: t.field({ type: CodeRef, nullable: true, resolve: (c, _a, ctx) => codes.primarySoc(ctx, c) }),
    pt: t.field({ type: CodeRef, nullable: true, description: 'For an LLT: the PT it belongs to.', resolve: (c, _a, ctx) => codes.ptOf(ctx, c) }),
    socAbbreviation: t.string({ nullable: true, resolve: (c) => c.socAbbrev }),
    internationalOrder: t.int({ nullable: true, description: 'SOCs: the internationally agreed order.', resolve: (c) => c.intlOrder }),
    release: t.field({ type: VersionRef, resolve: (c, _a, ctx) => releaseOf(ctx, c) }),
    parents: t.field({
      type: [HierarchyItemRef],
      description: 'Parents with the edge type; a PT also lists its primary SOC (SOC_TO_PT).',
      complexity: { field: 1, multiplier: 3 },
      resolve: (c, _a, ctx) => codes.parentsOf(ctx, c),
    }),
    children: t.field({
      type: [HierarchyItemRef],
      description: 'Children with the edge type (SOCs in international order, others by name).',
      // A typical parent has well under 10 children; a 4-level tree stays under the default limit.
      complexity: { field: 1, multiplier: 8 },
      resolve: (c, _a, ctx) => codes.childrenOf(ctx, c),
    }),
    paths: t.field({
      type: [HierarchyPathRef],
      description: 'Every path up to a SOC, the primary one first.',
      complexity: { field: 1, multiplier: 3 },
      resolve: (c, _a, ctx) => codes.pathsOf(ctx, c),
    }),
    primaryPath: t.field({ type: HierarchyPathRef, nullable: true, resolve: (c, _a, ctx) => codes.primaryPathOf(ctx, c) }),
    synonyms: t.connection(
      {
        type: CodeRef,
        description: 'LLTs of the PT (for an LLT: of its PT), its own LLT first. Empty for other levels.',
        complexity: (args) => ({ field: 1, multiplier: args.first ?? PAGES.synonyms.default }),
        resolve: (c, args, ctx) => offsetConnection(args, PAGES.synonyms, (page) => codes.synonymsOf(ctx, c, page)),
      },
      { name: 'SynonymConnection', fields: (f) => ({ totalCount: f.int({ resolve: totalCount }) }) },
    ),
  }),
});

builder.queryFields((t) => ({
  code: t.field({
    type: CodeRef,
    description: 'One code in a release (argument, else X-Terminology-Version, else latest). Without `level`, the highest level the code exists at.',
    args: {
      code: t.arg.string({ required: true }),
      version: t.arg.string({ required: false }),
      level: t.arg({ type: LevelEnum, required: false }),
      language: t.arg.string({ required: false, description: 'BCP 47 tag of the names (a hosted language); default: Accept-Language, else the primary.' }),
    },
    resolve: (_root, args, ctx) => codes.lookupCode(ctx, args.version, args.code, args.level, args.language),
  }),
}));
