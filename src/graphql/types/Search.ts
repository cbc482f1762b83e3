import { builder } from '../builder.ts';
import { resolveOffsetConnection } from '@pothos/plugin-relay';
import { searchConcepts, type SearchFilters, type SearchHit, type SearchMatch } from '../../domain/search/search.ts';
import { ChangeTypeEnum } from './Change.ts';
import { codeNotFound, validationError } from '../../domain/errors.ts';
import { LevelEnum, MatchTypeEnum } from './enums.ts';
import { CodeRef, withVersion } from './Code.ts';
import { checkFirst, optionalCode } from '../../services/arguments.ts';
import type { Level } from '../../domain/levels.ts';
import type { GraphQLContext } from '../context.ts';
import type { ReleaseInfo } from '../../domain/releases.ts';

/** Longest accepted search text; longer input is a validation error, not truncated. */
export const MAX_QUERY_LENGTH = 200;

const SearchMatchRef = builder.objectRef<SearchMatch & { version: string; releaseId: number }>('SearchMatch').implement({
  description: 'Which name matched the query and how.',
  fields: (t) => ({
    term: t.exposeString('term', { description: 'The matched name.' }),
    level: t.field({ type: LevelEnum, resolve: (m) => m.level }),
    code: t.string({ resolve: (m) => String(m.code) }),
    type: t.field({ type: MatchTypeEnum, resolve: (m) => m.type }),
    isSynonym: t.exposeBoolean('isSynonym', { description: 'The name is one of the PT’s LLTs, not the PT’s own name.' }),
    score: t.exposeFloat('score', { description: 'Trigram similarity of query and name, 0–1.' }),
  }),
});

const SearchHitRef = builder.objectRef<SearchHit & { version: string }>('SearchHit').implement({
  fields: (t) => ({
    code: t.field({ type: CodeRef, resolve: (h) => withVersion(h.concept, h.version) }),
    match: t.field({
      type: SearchMatchRef,
      nullable: true,
      description: 'Null when listing without a query.',
      resolve: (h) => (h.match ? { ...h.match, version: h.version, releaseId: h.concept.releaseId } : null),
    }),
  }),
});

async function requireNode(ctx: GraphQLContext, release: ReleaseInfo, level: Level, code: number | undefined, field: string) {
  if (code === undefined) return;
  const c = await ctx.loaders.concept.load({ releaseId: release.id, level, code });
  if (!c) throw codeNotFound(`${code} (${field} filter)`, release.version);
}

builder.queryFields((t) => ({
  codes: t.connection(
    {
      type: SearchHitRef,
      description:
        'Search (q) or list codes of a release. Matches every level’s names including LLT synonyms, ranked exact > prefix > word-prefix > typo-tolerant; an LLT match is reported on its PT unless level is LLT.',
      args: {
        q: t.arg.string({ required: false }),
        level: t.arg({ type: LevelEnum, required: false }),
        soc: t.arg.string({ required: false }),
        hlgt: t.arg.string({ required: false }),
        hlt: t.arg.string({ required: false }),
        llt: t.arg.string({ required: false }),
        changeType: t.arg({ type: ChangeTypeEnum, required: false, description: 'Only concepts changed this way against the previous release.' }),
        version: t.arg.string({ required: false }),
      },
      complexity: (args) => ({ field: 5, multiplier: args.first ?? 20 }),
      resolve: async (_root, args, ctx) => {
        checkFirst(args.first);
        if (args.q && args.q.length > MAX_QUERY_LENGTH) throw validationError({ q: [`must be at most ${MAX_QUERY_LENGTH} characters`] });
        const release = await ctx.selectRelease(args.version);
        const filters = {
          level: args.level ?? undefined,
          soc: optionalCode(args.soc, 'soc'),
          hlgt: optionalCode(args.hlgt, 'hlgt'),
          hlt: optionalCode(args.hlt, 'hlt'),
          llt: optionalCode(args.llt, 'llt'),
        };
        await Promise.all([
          requireNode(ctx, release, 'SOC', filters.soc, 'soc'),
          requireNode(ctx, release, 'HLGT', filters.hlgt, 'hlgt'),
          requireNode(ctx, release, 'HLT', filters.hlt, 'hlt'),
          requireNode(ctx, release, 'LLT', filters.llt, 'llt'),
        ]);
        let change: SearchFilters['change'];
        if (args.changeType) {
          const prev = await ctx.services.catalog.previous(release);
          // The oldest release has no recorded changes: nothing matches.
          if (!prev) return { ...(await resolveOffsetConnection({ args }, () => [])), totalCount: 0 };
          await ctx.loaders.changeSet.load({ from: prev, to: release });
          change = { fromReleaseId: prev.id, type: args.changeType };
        }
        let total = 0;
        const conn = await resolveOffsetConnection({ args, defaultSize: 20, maxSize: 200 }, async ({ offset, limit }) => {
          const page = await searchConcepts({ db: ctx.services.reader?.() ?? ctx.services.prisma, indexes: ctx.services.catalog.searchIndexes }, release.id, args.q ?? undefined, { ...filters, change }, offset, limit);
          total = page.total;
          return page.hits.map((h) => ({ ...h, version: release.version }));
        });
        return { ...conn, totalCount: total };
      },
    },
    { name: 'SearchConnection', fields: (f) => ({ totalCount: f.int({ resolve: (p) => (p as unknown as { totalCount: number }).totalCount }) }) },
  ),
}));
