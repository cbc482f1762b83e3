import { builder } from '../builder.ts';
import { resolveOffsetConnection } from '@pothos/plugin-relay';
import type { ReleaseInfo } from '../../domain/releases.ts';
import { checkFirst } from '../../services/arguments.ts';
import type { Level } from '../../domain/levels.ts';

export const VersionRef = builder.objectRef<ReleaseInfo>('Version');

const LevelCounts = builder.objectRef<Record<Level, number>>('LevelCounts').implement({
  description: 'Number of concepts per level in a release.',
  fields: (t) => ({
    soc: t.int({ resolve: (c) => c.SOC }),
    hlgt: t.int({ resolve: (c) => c.HLGT }),
    hlt: t.int({ resolve: (c) => c.HLT }),
    pt: t.int({ resolve: (c) => c.PT }),
    llt: t.int({ resolve: (c) => c.LLT }),
  }),
});

builder.node(VersionRef, {
  description: 'A hosted release of the terminology. Releases are immutable once imported.',
  id: { resolve: (r) => r.version },
  loadOne: (id, ctx) => ctx.services.catalog.byVersion(id).then((r) => r ?? null),
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'ordinal' in v && 'isLatest' in v,
  fields: (t) => ({
    version: t.exposeString('version', { description: 'Release identifier, e.g. 27.1.' }),
    releaseDate: t.string({ nullable: true, description: 'YYYY-MM-DD', resolve: (r) => r.releaseDate }),
    language: t.exposeString('language'),
    isLatest: t.exposeBoolean('isLatest'),
    counts: t.field({ type: LevelCounts, resolve: (r, _a, ctx) => ctx.services.catalog.levelCounts(r.id) }),
    previous: t.field({
      type: VersionRef,
      nullable: true,
      description: 'The release published just before this one.',
      resolve: async (r, _a, ctx) => (await ctx.services.catalog.previous(r)) ?? null,
    }),
  }),
});

builder.queryFields((t) => ({
  versions: t.connection(
    {
      type: VersionRef,
      description: 'Hosted releases, latest first.',
      complexity: (args) => ({ field: 1, multiplier: args.first ?? 20 }),
      resolve: async (_root, args, ctx) => {
        checkFirst(args.first);
        const list = await ctx.services.catalog.releases();
        return { ...(await resolveOffsetConnection({ args }, ({ offset, limit }) => list.slice(offset, offset + limit))), totalCount: list.length };
      },
    },
    { name: 'VersionConnection', fields: (c) => ({ totalCount: c.int({ resolve: (p) => (p as unknown as { totalCount: number }).totalCount }) }) },
  ),
  version: t.field({
    type: VersionRef,
    description: 'One release: by identifier, else the X-Terminology-Version header, else the latest.',
    args: { version: t.arg.string({ required: false }) },
    resolve: (_root, args, ctx) => ctx.selectRelease(args.version),
  }),
}));
