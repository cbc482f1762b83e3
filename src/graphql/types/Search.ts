import { builder } from '../builder.ts';
import type { SearchMatch } from '../../domain/releaseIndex/search.ts';
import { searchCodes, type ReleaseSearchHit } from '../../services/search.ts';
import { withVersion } from '../../services/codes.ts';
import { PAGES } from '../../services/limits.ts';
import { offsetConnection, totalCount } from '../connections.ts';
import { ChangeTypeEnum } from './Change.ts';
import { LevelEnum, MatchTypeEnum } from './enums.ts';
import { CodeRef } from './Code.ts';

const SearchMatchRef = builder.objectRef<SearchMatch>('SearchMatch').implement({
  description: 'Which name matched the query and how.',
  fields: (t) => ({
    term: t.exposeString('term', { description: 'The matched name.' }),
    level: t.field({ type: LevelEnum, resolve: (m) => m.level }),
    code: t.string({ resolve: (m) => String(m.code) }),
    type: t.field({ type: MatchTypeEnum, resolve: (m) => m.type }),
    isSynonym: t.exposeBoolean('isSynonym', { description: 'The name is one of the PT’s LLTs, not the PT’s own name.' }),
    score: t.exposeFloat('score', { description: 'Trigram similarity of query and name, 0–1.' }),
    language: t.string({
      nullable: true,
      description: 'BCP 47 tag of the matched name when it is not in the release’s primary language, and for every hit of language: "*".',
      resolve: (m) => m.language ?? null,
    }),
  }),
});

const SearchHitRef = builder.objectRef<ReleaseSearchHit>('SearchHit').implement({
  fields: (t) => ({
    code: t.field({ type: CodeRef, resolve: (h) => withVersion(h.concept, h.version) }),
    match: t.field({ type: SearchMatchRef, nullable: true, description: 'Null when listing without a query.', resolve: (h) => h.match }),
  }),
});

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
        language: t.arg.string({
          required: false,
          description: 'BCP 47 tag of the language to search and name codes in (a hosted one), or * for every hosted language; default: Accept-Language, else the primary.',
        }),
      },
      complexity: (args) => ({ field: 5, multiplier: args.first ?? PAGES.codes.default }),
      resolve: (_root, args, ctx) => offsetConnection(args, PAGES.codes, (page) => searchCodes(ctx, args, page)),
    },
    { name: 'SearchConnection', fields: (f) => ({ totalCount: f.int({ resolve: totalCount }) }) },
  ),
}));
