import { builder } from '../builder.ts';
import { resolveOffsetConnection } from '@pothos/plugin-relay';
import type { Concept } from '../../domain/concepts.ts';
import type { HierarchyItem, PathCodes } from '../../domain/hierarchy.ts';
import { codeNotFound } from '../../domain/errors.ts';
import { CodeStatusEnum, LevelEnum, RelationshipEnum } from './enums.ts';
import { VersionRef } from './Version.ts';
import { checkFirst, parseCode } from '../../services/arguments.ts';
import type { GraphQLContext } from '../context.ts';
import type { Level } from '../../domain/levels.ts';

/** A concept together with the identifier of its release (for global ids and nested lookups). */
export type CodeShape = Concept & { version: string };

export const withVersion = (c: Concept, version: string): CodeShape => ({ ...c, version });

export const CodeRef = builder.objectRef<CodeShape>('Code');

const HierarchyItemRef = builder.objectRef<HierarchyItem & { version: string }>('HierarchyItem').implement({
  description: 'A parent or child of a code, with the type of the edge.',
  fields: (t) => ({
    relationship: t.field({ type: RelationshipEnum, resolve: (i) => i.relationship as typeof RelationshipEnum.$inferType }),
    isPrimary: t.exposeBoolean('isPrimary', { description: 'The edge lies on the primary path (for PTs: the primary SOC).' }),
    code: t.field({ type: CodeRef, resolve: (i) => withVersion(i.concept, i.version) }),
  }),
});

const HierarchyPathRef = builder.objectRef<PathCodes & { version: string }>('HierarchyPath').implement({
  description: 'One path from a SOC down to the code.',
  fields: (t) => ({
    isPrimary: t.exposeBoolean('isPrimary'),
    nodes: t.field({
      type: [CodeRef],
      description: 'From the SOC down to the code itself.',
      resolve: async (p, _a, ctx) => {
        const found = await ctx.loaders.concept.loadMany(p.nodes);
        return found.filter((c): c is Concept => !!c && !(c instanceof Error)).map((c) => withVersion(c, p.version));
      },
    }),
  }),
});

const key = (c: CodeShape) => ({ releaseId: c.releaseId, level: c.level, code: c.code });

async function primarySocCode(c: CodeShape, ctx: GraphQLContext): Promise<number | null> {
  switch (c.level) {
    case 'SOC':
      return c.code;
    case 'PT':
      return c.primarySocCode;
    case 'LLT': {
      const pt = c.ptCode === null ? null : await ctx.loaders.concept.load({ releaseId: c.releaseId, level: 'PT', code: c.ptCode });
      return pt?.primarySocCode ?? null;
    }
    default: {
      const paths = await ctx.loaders.paths.load(key(c));
      return (paths.find((p) => p.isPrimary) ?? paths[0])?.nodes[0]?.code ?? null;
    }
  }
}

builder.node(CodeRef, {
  description: 'A concept of one release at one level. Its nested fields read the same release.',
  id: { resolve: (c) => `${c.version}:${c.level}:${c.code}` },
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'code' in v && 'level' in v && 'version' in v,
  loadOne: async (id, ctx) => {
    const [version, level, code] = id.split(':');
    const release = version ? await ctx.services.catalog.byVersion(version) : undefined;
    if (!release || !level || !code) return null;
    const c = await ctx.loaders.concept.load({ releaseId: release.id, level: level as Level, code: Number(code) });
    return c ? withVersion(c, release.version) : null;
  },
  fields: (t) => ({
    code: t.string({ resolve: (c) => String(c.code) }),
    term: t.exposeString('name', { description: 'Term name.' }),
    level: t.field({ type: LevelEnum, resolve: (c) => c.level }),
    status: t.field({ type: CodeStatusEnum, resolve: (c) => (c.current ? 'CURRENT' : 'NON_CURRENT') }),
    isPrimary: t.boolean({
      description: "For an LLT: whether it is its PT's own LLT. Every other level: true. Edge-level primacy is on HierarchyItem.isPrimary.",
      resolve: (c) => c.level !== 'LLT' || c.code === c.ptCode,
    }),
    primarySocCode: t.string({
      nullable: true,
      description: 'Code of the primary SOC (of the PT, for an LLT).',
      resolve: async (c, _a, ctx) => {
        const s = await primarySocCode(c, ctx);
        return s === null ? null : String(s);
      },
    }),
    primarySoc: t.field({
      type: CodeRef,
      nullable: true,
      resolve: async (c, _a, ctx) => {
        const s = await primarySocCode(c, ctx);
        const soc = s === null ? null : await ctx.loaders.concept.load({ releaseId: c.releaseId, level: 'SOC', code: s });
        return soc ? withVersion(soc, c.version) : null;
      },
    }),
    pt: t.field({
      type: CodeRef,
      nullable: true,
      description: 'For an LLT: the PT it belongs to.',
      resolve: async (c, _a, ctx) => {
        if (c.level !== 'LLT' || c.ptCode === null) return null;
        const pt = await ctx.loaders.concept.load({ releaseId: c.releaseId, level: 'PT', code: c.ptCode });
        return pt ? withVersion(pt, c.version) : null;
      },
    }),
    socAbbreviation: t.string({ nullable: true, resolve: (c) => c.socAbbrev }),
    internationalOrder: t.int({ nullable: true, description: 'SOCs: the internationally agreed order.', resolve: (c) => c.intlOrder }),
    release: t.field({
      type: VersionRef,
      resolve: async (c, _a, ctx) => (await ctx.services.catalog.byId(c.releaseId))!,
    }),
    parents: t.field({
      type: [HierarchyItemRef],
      description: 'Parents with the edge type; a PT also lists its primary SOC (SOC_TO_PT).',
      complexity: { field: 1, multiplier: 3 },
      resolve: async (c, _a, ctx) => (await ctx.loaders.parents.load(key(c))).map((i) => ({ ...i, version: c.version })),
    }),
    children: t.field({
      type: [HierarchyItemRef],
      description: 'Children with the edge type (SOCs in international order, others by name).',
      // A typical parent has well under 10 children; a 4-level tree stays under the default limit.
      complexity: { field: 1, multiplier: 8 },
      resolve: async (c, _a, ctx) => (await ctx.loaders.children.load(key(c))).map((i) => ({ ...i, version: c.version })),
    }),
    paths: t.field({
      type: [HierarchyPathRef],
      description: 'Every path up to a SOC, the primary one first.',
      complexity: { field: 1, multiplier: 3 },
      resolve: async (c, _a, ctx) => (await ctx.loaders.paths.load(key(c))).map((p) => ({ ...p, version: c.version })),
    }),
    primaryPath: t.field({
      type: HierarchyPathRef,
      nullable: true,
      resolve: async (c, _a, ctx) => {
        const p = await ctx.loaders.primaryPath.load(key(c));
        return p ? { ...p, version: c.version } : null;
      },
    }),
    synonyms: t.connection(
      {
        type: CodeRef,
        description: "LLTs of the PT (for an LLT: of its PT), its own LLT first. Empty for other levels.",
        complexity: (args) => ({ field: 1, multiplier: args.first ?? 20 }),
        resolve: async (c, args, ctx) => {
          checkFirst(args.first);
          const ptCode = c.level === 'PT' ? c.code : c.level === 'LLT' ? c.ptCode : null;
          if (ptCode === null) return { ...(await resolveOffsetConnection({ args }, () => [])), totalCount: 0 };
          const [conn, totalCount] = await Promise.all([
            resolveOffsetConnection({ args, defaultSize: 20, maxSize: 200 }, ({ offset, limit }) =>
              ctx.loaders.synonymPage.load({ releaseId: c.releaseId, ptCode, offset, limit }).then((l) => l.map((x) => withVersion(x, c.version))),
            ),
            ctx.loaders.synonymCount.load({ releaseId: c.releaseId, ptCode }),
          ]);
          return { ...conn, totalCount };
        },
      },
      { name: 'SynonymConnection', fields: (f) => ({ totalCount: f.int({ resolve: (p) => (p as unknown as { totalCount: number }).totalCount }) }) },
    ),
  }),
});

/** The concept for a code in a release; a code at several levels yields the highest (a PT over its own LLT). */
export async function loadCode(ctx: GraphQLContext, version: string | null | undefined, code: string, level?: Level | null): Promise<CodeShape> {
  const release = await ctx.selectRelease(version);
  const n = parseCode(code);
  const all = await ctx.loaders.conceptsByCode.load({ releaseId: release.id, code: n });
  const found = level ? all.find((c) => c.level === level) : all[0];
  if (!found) throw codeNotFound(level ? `${code} (${level})` : code, release.version);
  return withVersion(found, release.version);
}

builder.queryFields((t) => ({
  code: t.field({
    type: CodeRef,
    description: 'One code in a release (argument, else X-Terminology-Version, else latest). Without `level`, the highest level the code exists at.',
    args: {
      code: t.arg.string({ required: true }),
      version: t.arg.string({ required: false }),
      level: t.arg({ type: LevelEnum, required: false }),
    },
    resolve: (_root, args, ctx) => loadCode(ctx, args.version, args.code, args.level),
  }),
}));
