// GET /codes/{code}/changes → query CodeChanges.
import { createRoute, z } from '@hono/zod-openapi';
import { CodeChangesDocument, type SnapshotFieldsFragment } from '../operations/generated.ts';
import { operation, respond, type RestApp, type RestDeps } from '../context.ts';
import { codeParam, errorResponses, langParam, versionIdParam, versionParam } from '../schemas.ts';

const SnapshotSchema = z
  .object({
    exists: z.boolean(),
    code: z.string(),
    term: z.string().nullable(),
    level: z.string().nullable(),
    status: z.enum(['current', 'non-current']).nullable(),
    primarySocCode: z.string().nullable(),
  })
  .openapi('CodeSnapshot');

const route = createRoute({
  method: 'get',
  path: '/codes/{code}/changes',
  tags: ['Changes'],
  summary: 'One code compared between two releases',
  description:
    '`against` is the source (from) release; the target (to) is `version`, else the X-Terminology-Version header, else the latest. A snapshot of a release the code is absent from has `exists: false` and nulls.',
  request: {
    params: z.object({ code: codeParam('code') }),
    query: z
      .object({
        against: versionIdParam('against').openapi({ description: 'Release to compare against (the from release). Required.' }),
        version: versionParam,
        lang: langParam(),
      })
      .strict(),
  },
  responses: {
    200: {
      description: 'Comparison',
      content: {
        'application/json': {
          schema: z.object({
            code: z.string(),
            versions: z.object({ from: z.string(), to: z.string() }),
            snapshots: z.object({ from: SnapshotSchema, to: SnapshotSchema }),
            differences: z.array(z.string()),
          }),
        },
      },
    },
    ...errorResponses(400, 404, 429, 500),
  },
});

const snap = (s: SnapshotFieldsFragment) => ({ ...s, status: s.status as 'current' | 'non-current' | null });

export function registerCodeChanges(app: RestApp, deps: RestDeps) {
  app.openapi(route, async (c) => {
    const { code } = c.req.valid('param');
    const { against, version, lang } = c.req.valid('query');
    const { data, usedVersions } = await operation(deps, c, CodeChangesDocument, { code, against, version, language: lang }, { language: 'lang' });
    const d = data.codeChanges;
    usedVersions.delete(d.from.version);
    return respond(
      c,
      {
        code: d.code,
        versions: { from: d.from.version, to: d.to.version },
        snapshots: { from: snap(d.fromSnapshot), to: snap(d.toSnapshot) },
        differences: d.differences,
      },
      usedVersions,
    );
  });
}
