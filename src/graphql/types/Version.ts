import { builder } from '../builder.ts';
import type { ReleaseInfo } from '../../domain/releases.ts';
import type { Level } from '../../domain/levels.ts';
import * as releases from '../../services/releases.ts';
import { PAGES } from '../../services/limits.ts';
import { offsetConnection, totalCount } from '../connections.ts';

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
  loadOne: (id, ctx) => releases.releaseByVersion(ctx, id),
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'ordinal' in v && 'isLatest' in v,
  fields: (t) => ({
    version: t.exposeString('version', { description: 'Release identifier, e.g. 27.1.' }),
    releaseDate: t.string({ nullable: true, description: 'YYYY-MM-DD', resolve: (r) => r.releaseDate }),
    language: t.exposeString('language', { description: 'The primary language as the distribution names it (English).' }),
    languages: t.exposeStringList('languages', { description: 'BCP 47 tags of the hosted languages, primary first.' }),
    isLatest: t.exposeBoolean('isLatest'),
    counts: t.field({ type: LevelCounts, resolve: (r, _a, ctx) => releases.levelCounts(ctx, r) }),
    previous: t.field({
      type: VersionRef,
      nullable: true,
      description: 'The release published just before this one.',
      resolve: (r, _a, ctx) => releases.previousRelease(ctx, r),
    }),
  }),
});

builder.queryFields((t) => ({
  versions: t.connection(
    {
      type: VersionRef,
      description: 'Hosted releases, latest first.',
      complexity: (args) => ({ field: 1, multiplier: args.first ?? PAGES.versions.default }),
      resolve: (_root, args, ctx) => offsetConnection(args, PAGES.versions, (page) => releases.listReleases(ctx, page)),
    },
    { name: 'VersionConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalCount }) }) },
  ),
  version: t.field({
    type: VersionRef,
    description: 'One release: by identifier, else the X-Terminology-Version header, else the latest.',
    args: { version: t.arg.string({ required: false }) },
    resolve: (_root, args, ctx) => releases.selectRelease(ctx, args.version),
  }),
}));
