// The REST layer's OpenAPI side: the router every REST part is built on (so a request
// that fails its route's schema gets the problem JSON), the /openapi.json document and
// the /docs pages that read it.
//
// Parts are separate OpenAPIHono routers joined with app.route('/', part). route() copies
// the part's routes *and* its registry entries (paths, components) into the parent at that
// moment, so a part registers every route before it is mounted; the document then lists
// the paths in mounting order, as when they were registered on the app itself.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../transport/appEnv.ts';
import { problem, sendProblem } from '../transport/problem.ts';
import { zodErrors } from '../rest/validation.ts';
import { onceCompressed, staticResponse } from './compressedBodies.ts';
import { mountDocs } from './docs.ts';
import { withNullableRefs } from './openapiNullable.ts';
import { validationDetail } from '../domain/errors.ts';

export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const errors = zodErrors(result.error);
        const detail = validationDetail(errors);
        return sendProblem(c, problem('VALIDATION_ERROR', detail || 'Invalid request.', c.get('requestId'), errors));
      }
    },
  });
}

/** /openapi.json (from the routes mounted so far) and /docs. */
export function mountOpenApi(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'sk-… key from `terminology keys create`; required by the narrative endpoints.',
  });
  const config = {
    openapi: '3.1.0',
    info: {
      title: 'Terminology Explorer',
      version: '1',
      description:
        'Browse, search and compare releases of a five-level adverse-event terminology (SOC → HLGT → HLT → PT → LLT). ' +
        'Every REST route is one GraphQL operation on /graphql. Release selection: `version` parameter, else the ' +
        '`X-Terminology-Version` header, else the latest release. Language of the names (a release may host several): ' +
        '`lang` parameter (BCP 47), else the best hosted match of `Accept-Language` (q-values), else the release\'s primary ' +
        'language; answers say which in `Content-Language` and carry `Vary: Accept-Language`. A `lang` the release does not ' +
        'host: 404 `LANGUAGE_NOT_FOUND` (problem JSON naming the hosted languages in `languages`).',
    },
  };
  // Generated on first request (every route is mounted by then), rewritten once: see openapiNullable.ts.
  const doc = onceCompressed(async () => ({ body: JSON.stringify(withNullableRefs(app.getOpenAPI31Document(config))), type: 'application/json' }));
  app.get('/openapi.json', async (c) => staticResponse(c.req.raw, await doc(), 'no-cache'));
  mountDocs(app);
}
