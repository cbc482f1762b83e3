// Route templates for the metrics' `route` label: a request's path is matched against the
// app's own route table (the paths its routers were mounted with), never used raw, so codes,
// versions and query strings in paths add no series. Warm answers, sent before the app runs,
// are classified the same way.
import { TrieRouter } from 'hono/router/trie-router';

export type Surface = 'rest' | 'graphql' | 'fhir' | 'explorer' | 'service';

export interface RouteLabel {
  route: string;
  surface: Surface;
  /** Small and dense within one classifier (0 … labelCount − 1): the HTTP metrics index their series by it. */
  id: number;
}

/** A path no route matches (404s): one series, whatever was asked. */
export const UNMATCHED: RouteLabel = { route: 'unmatched', surface: 'service', id: 0 };
const FHIR_UNMATCHED: RouteLabel = { route: 'unmatched', surface: 'fhir', id: 1 };

/** Service pages: health, API documentation, problem types. */
const SERVICE = /^\/(?:health|docs|openapi\.json|problems|metrics)(?:\/|$)/;

export function surfaceOf(template: string): Surface {
  if (template === '/graphql') return 'graphql';
  if (template === '/fhir' || template.startsWith('/fhir/')) return 'fhir';
  if (template === '/' || template.startsWith('/explorer')) return 'explorer';
  if (SERVICE.test(template)) return 'service';
  return 'rest';
}

export class RouteClassifier {
  private readonly router = new TrieRouter<RouteLabel>();
  /** Recent paths → label: a warm code page is classified once, not per request. Bounded. */
  private readonly recent = new Map<string, RouteLabel>();

  /** Labels this classifier gives (ids 0 … labelCount − 1, the two unmatched ones included). */
  readonly labelCount: number;

  constructor(routes: readonly { path: string }[]) {
    const seen = new Set<string>();
    for (const { path } of routes) {
      // Middleware is mounted on wildcards ('*', '/fhir/*'): not a route.
      if (path.endsWith('*') || seen.has(path)) continue;
      seen.add(path);
      this.router.add('ALL', path, { route: path, surface: surfaceOf(path), id: seen.size + 1 });
    }
    this.labelCount = seen.size + 2;
  }

  /** The label of a request target (path and query; the query is ignored). */
  classify(target: string): RouteLabel {
    const q = target.indexOf('?');
    const path = q < 0 ? target : target.slice(0, q);
    let label = this.recent.get(path);
    if (label) return label;
    let matched: [[RouteLabel, unknown][], unknown] | undefined;
    try {
      matched = this.router.match('GET', path) as [[RouteLabel, unknown][], unknown];
    } catch {
      matched = undefined;
    }
    label = matched?.[0][0]?.[0] ?? (path === '/fhir' || path.startsWith('/fhir/') ? FHIR_UNMATCHED : UNMATCHED);
    if (path.length <= 200) {
      if (this.recent.size >= 1_000) this.recent.clear();
      this.recent.set(path, label);
    }
    return label;
  }
}
