// /fhir: a FHIR R4 terminology service over the same use cases as REST and GraphQL
// (src/services). This file maps HTTP to the operations: parameter intake (query or
// Parameters body), the release header in answers, OperationOutcome for every failure.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { etag } from 'hono/etag';
import type { Resource } from 'fhir/r4.js';
import type { Logger } from '../logger.ts';
import { clip } from '../domain/clientText.ts';
import { createScope, type RequestScope, type Services } from '../services/scope.ts';
import { capabilityStatement, terminologyCapabilities } from './capabilities.ts';
import { codeSystemResource, searchBundle } from './codeSystem.ts';
import { expand } from './expand.ts';
import { lookup } from './lookup.ts';
import { documentFhirRoutes } from './openapi.ts';
import { FhirError, notFound, outcomeOf } from './outcome.ts';
import { Params } from './params.ts';
import { subsumes } from './subsumes.ts';
import { CANONICAL, FHIR_JSON, ID_PREFIX, isOurSystem, splitCanonical } from './system.ts';
import { validateCodeInCodeSystem, validateCodeInValueSet } from './validateCode.ts';

/** The variables the global middleware sets (request id, logger, client address). */
export type FhirEnv = { Variables: { requestId: string; log: Logger; clientIp: string } };
type C = Context<FhirEnv>;

const ACCEPTED_BODIES = ['application/fhir+json', 'application/json'];

function scopeOf(services: Services, c: C): RequestScope {
  return createScope(services, {
    requestId: c.get('requestId'),
    headerVersion: c.req.header('x-terminology-version') || undefined,
    acceptLanguage: c.req.header('accept-language') || undefined,
    log: c.get('log'),
    usedVersions: new Set(),
    clientIp: c.get('clientIp'),
  });
}

function send(c: C, body: Resource, scope?: RequestScope, status = 200, headers: Record<string, string> = {}): Response {
  const h: Record<string, string> = { 'content-type': FHIR_JSON, ...headers };
  if (scope?.usedVersions.size === 1) h['X-Terminology-Version'] = [...scope.usedVersions][0]!;
  if (scope?.usedLanguages.size) h['Content-Language'] = [...scope.usedLanguages].join(', ');
  return c.body(JSON.stringify(body), status as 200, h);
}

/** Operation input: the query string (GET) or a Parameters resource (POST). */
async function paramsOf(c: C): Promise<Params> {
  const url = new URL(c.req.url);
  if (c.req.method !== 'POST') return Params.fromQuery(url);
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!ACCEPTED_BODIES.includes(type)) {
    throw new FhirError(415, 'not-supported', `Content-Type '${clip(type || '(none)')}' is not accepted; send a Parameters resource as application/fhir+json.`);
  }
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    throw new FhirError(400, 'structure', 'The body is not valid JSON.');
  }
  return Params.fromBody(body, url);
}

/** The base URL of this FHIR endpoint as the client reached it. */
const baseOf = (c: C) => `${new URL(c.req.url).origin}/fhir`;

export function createFhirRouter(services: Services): OpenAPIHono<FhirEnv> {
  const r = new OpenAPIHono<FhirEnv>();

  r.onError((err, c) => {
    const a = outcomeOf(err, c.get('requestId') ?? '-');
    if (a.internal) c.get('log')?.error({ err: { message: err.message, stack: err.stack } }, 'unhandled error (fhir)');
    return send(c, a.body, undefined, a.status, a.headers);
  });

  // Releases are immutable: GET answers get a strong ETag (If-None-Match → 304).
  r.use('*', async (c, next) => (c.req.method === 'GET' ? etag()(c, next) : next()));

  r.get('/metadata', async (c) => {
    const p = Params.fromQuery(new URL(c.req.url)).only(['mode']);
    const mode = p.string('mode') ?? 'full';
    const releases = await services.catalog.releases();
    if (mode === 'terminology') return send(c, terminologyCapabilities(baseOf(c), releases));
    if (mode === 'full' || mode === 'normative') return send(c, capabilityStatement(baseOf(c), releases));
    throw new FhirError(400, 'invalid', `Parameter 'mode': '${clip(mode)}' is not one of full, normative, terminology.`, 'mode');
  });

  // Type-level operations before the instance read, which would take '$lookup' for an id.
  const operation = (path: string, run: (scope: RequestScope, p: Params, c: C) => Promise<Resource>) =>
    r.on(['GET', 'POST'], path, async (c) => {
      const scope = scopeOf(services, c);
      return send(c, await run(scope, await paramsOf(c), c), scope);
    });
  const instance = async (scope: RequestScope, c: C) => {
    const release = await releaseOfId(scope, c.req.param('id') ?? '');
    scope.usedVersions.add(release.version);
    return release;
  };
  operation('/CodeSystem/$lookup', (s, p) => lookup(s, p));
  operation('/CodeSystem/$validate-code', (s, p) => validateCodeInCodeSystem(s, p));
  operation('/CodeSystem/$subsumes', (s, p) => subsumes(s, p));
  operation('/CodeSystem/:id/$lookup', async (s, p, c) => lookup(s, p, await instance(s, c)));
  operation('/CodeSystem/:id/$validate-code', async (s, p, c) => validateCodeInCodeSystem(s, p, await instance(s, c)));
  operation('/CodeSystem/:id/$subsumes', async (s, p, c) => subsumes(s, p, await instance(s, c)));
  operation('/ValueSet/$expand', (s, p) => expand(s, p));
  operation('/ValueSet/$validate-code', (s, p) => validateCodeInValueSet(s, p));

  r.get('/CodeSystem', async (c) => {
    const url = new URL(c.req.url);
    const p = Params.fromQuery(url).only(['url', 'version', 'name', 'status', '_id']);
    const wantUrl = p.string('url');
    const { uri, version: urlVersion } = wantUrl === undefined ? { uri: undefined, version: undefined } : splitCanonical(wantUrl);
    const version = p.string('version') ?? urlVersion;
    const name = p.string('name')?.toLowerCase();
    const status = p.string('status');
    const id = p.string('_id');
    const releases = await services.catalog.releases();
    // Search parameters narrow; a system that is not ours simply matches nothing.
    const matching = releases.filter(
      (rel) =>
        (uri === undefined || isOurSystem(uri)) &&
        (version === undefined || rel.version === version) &&
        (name === undefined || 'meddra'.startsWith(name) || 'medical dictionary for regulatory activities'.startsWith(name)) &&
        (status === undefined || status === 'active') &&
        (id === undefined || `${ID_PREFIX}${rel.version}` === id),
    );
    const resources = await Promise.all(matching.map(async (rel) => codeSystemResource(rel, await services.catalog.levelCounts(rel.id))));
    return send(c, searchBundle(`${baseOf(c)}/CodeSystem${url.search}`, baseOf(c), resources));
  });

  r.get('/CodeSystem/:id', async (c) => {
    Params.fromQuery(new URL(c.req.url)).only([]);
    const scope = scopeOf(services, c);
    const release = await releaseOfId(scope, c.req.param('id'));
    return send(c, codeSystemResource(release, await services.catalog.levelCounts(release.id)), undefined, 200, { 'X-Terminology-Version': release.version });
  });

  documentFhirRoutes(r);

  // No catch-all: a path or method served by no route is the app's 404 or 405 (with Allow, from
  // every route mounted), an OperationOutcome here through refusals.ts.
  return r;
}

/** `meddra-{version}` → the release; any other id is an unknown resource (404). */
async function releaseOfId(scope: RequestScope, id: string) {
  const release = id.startsWith(ID_PREFIX) ? await scope.services.catalog.byVersion(id.slice(ID_PREFIX.length)) : undefined;
  if (!release) throw notFound(`CodeSystem/${clip(id)} is not known here; GET /fhir/CodeSystem?url=${CANONICAL} lists the hosted releases.`);
  return release;
}
