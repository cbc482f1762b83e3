// ValueSet/$expand over the implicit value sets: paged (count, offset), filtered by the
// ranked search (filter), activeOnly, includeDesignations. The release: valueSetVersion,
// else system-version (`https://www.meddra.org|5.0`), else the header, else the latest.
import { randomUUID } from 'node:crypto';
import type { ValueSet, ValueSetExpansionContains, ValueSetExpansionParameter } from 'fhir/r4.js';
import { clip } from '../domain/clientText.ts';
import { EXPAND_COUNT, EXPAND_DESIGNATIONS, MAX_QUERY_LENGTH } from '../services/limits.ts';
import type { RequestScope } from '../services/scope.ts';
import { DISPLAY_USE, displayLanguageOf, SYNONYM_USE } from './lookup.ts';
import { nameIn, namesOf, withVersion } from '../services/codes.ts';
import { cannotPerform, invalidParam } from './outcome.ts';
import type { Params } from './params.ts';
import { checkSystem, releaseFor } from './release.ts';
import { CANONICAL } from './system.ts';
import { expansionPage, resolveValueSet } from './valueSets.ts';
import { parseValueSetUrl, valueSetUrl } from './valueSetUrls.ts';

export const EXPAND_PARAMS = ['url', 'valueSetVersion', 'filter', 'count', 'offset', 'activeOnly', 'includeDesignations', 'system-version', 'displayLanguage', 'valueSet'];

/** Deep paging costs a scan per page; beyond this, narrow with filter or isa/{code}. */
const MAX_OFFSET = 1_000_000;

const NAMES = { all: 'MedDRAAllCodes', isa: 'MedDRASubtree', level: 'MedDRALevel', smq: 'MedDRASmq' } as const;

export async function expand(scope: RequestScope, p: Params): Promise<ValueSet> {
  p.only(EXPAND_PARAMS);
  if (p.has('valueSet')) throw cannotPerform('Only the implicit value sets of the hosted code system can be expanded (parameter url); a ValueSet in the request is not supported.', 'not-supported');
  const { vs, version: fromUrl } = parseValueSetUrl(p.required('url'));
  const systemVersion = p.string('system-version');
  let fromSystem: string | undefined;
  if (systemVersion !== undefined) {
    if (!systemVersion.includes('|')) throw invalidParam('system-version', `must be {system}|{version}, e.g. ${CANONICAL}|5.0`);
    fromSystem = checkSystem(systemVersion, 'system-version');
  }
  const vsVersion = p.string('valueSetVersion') ?? fromUrl;
  if (vsVersion !== undefined && fromSystem !== undefined && vsVersion !== fromSystem) {
    throw invalidParam('system-version', `release '${clip(fromSystem)}' contradicts valueSetVersion '${clip(vsVersion)}'`);
  }
  const release = await releaseFor(scope, vsVersion ?? fromSystem);
  const filter = p.string('filter')?.trim() || undefined;
  if (filter && filter.length > MAX_QUERY_LENGTH) throw invalidParam('filter', `must be at most ${MAX_QUERY_LENGTH} characters`);
  const count = p.integer('count', 0, EXPAND_COUNT.max) ?? EXPAND_COUNT.default;
  const offset = p.integer('offset', 0, MAX_OFFSET) ?? 0;
  const activeOnly = p.boolean('activeOnly') ?? false;
  const designations = p.boolean('includeDesignations') ?? false;

  // Before the search: its filter matches names in the display language.
  const lang = displayLanguageOf(scope, release, p);
  const set = await resolveValueSet(scope, release, vs);
  // count=0 asks for the total only (FHIR): one row is read to learn it.
  const page = await expansionPage(scope, set, { filter, activeOnly }, { offset, limit: Math.max(count, 1) });
  const items = count === 0 ? [] : page.items;
  const synonyms = designations ? await Promise.all(items.map((c) => (c.level === 'PT' ? scope.loaders.synonymPage.load({ releaseId: c.releaseId, ptCode: c.code, offset: 0, limit: EXPAND_DESIGNATIONS + 1 }) : []))) : [];
  const named = (c: (typeof items)[number]) => nameIn(scope, withVersion(c, release.version), lang, release);
  // Displays in the display language (one batched statement per page for a non-primary one).
  const displays = await Promise.all(items.map(named));
  const synonymNames = await Promise.all(synonyms.map((list) => Promise.all(list.map(named))));
  // Every other hosted language's name, with includeDesignations (issue 28).
  const otherNames = designations ? await Promise.all(items.map(async (c) => (await namesOf(scope, withVersion(c, release.version), release)).filter((n) => n.language !== lang))) : [];

  const contains = items.map((c, i): ValueSetExpansionContains => ({
    system: CANONICAL,
    version: release.version,
    code: String(c.code),
    display: displays[i]!,
    ...(c.current ? {} : { inactive: true }),
    ...(designations && (synonyms[i]!.length > 1 || otherNames[i]!.length > 0)
      ? {
          designation: [
            ...synonyms[i]!
              .map((s, k) => ({ s, name: synonymNames[i]![k]! }))
              .filter(({ s }) => s.code !== c.code)
              .slice(0, EXPAND_DESIGNATIONS)
              .map(({ name }) => ({ language: lang, use: SYNONYM_USE, value: name })),
            ...otherNames[i]!.map((n) => ({ language: n.language, use: DISPLAY_USE, value: n.name })),
          ],
        }
      : {}),
  }));
  const parameter: ValueSetExpansionParameter[] = [
    { name: 'version', valueUri: `${CANONICAL}|${release.version}` },
    ...(filter ? [{ name: 'filter', valueString: filter }] : []),
    { name: 'count', valueInteger: count },
    { name: 'offset', valueInteger: offset },
    ...(activeOnly ? [{ name: 'activeOnly', valueBoolean: true }] : []),
    ...(designations ? [{ name: 'includeDesignations', valueBoolean: true }] : []),
  ];
  return {
    resourceType: 'ValueSet',
    url: valueSetUrl(vs),
    version: release.version,
    name: NAMES[vs.kind],
    status: 'active',
    expansion: {
      identifier: `urn:uuid:${randomUUID()}`,
      timestamp: new Date().toISOString(),
      total: page.total,
      offset,
      parameter,
      ...(contains.length ? { contains } : {}),
    },
  };
}
