import { createTestApp } from '../test/helpers/app.ts';
import { miniSpec } from '../test/helpers/medascii.ts';
const t = await createTestApp({ fixtures: [miniSpec('1.0'), miniSpec('1.1')] });
for (const p of ['/versions', '/codes/10047700', '/codes/10047700?synonymsLimit=2&synonymsPage=2', '/codes?q=vomit', '/codes?q=haedache', '/codes?q=throwing', '/codes/abc', '/codes/99999', '/codes?foo=1&limit=500', '/nope', '/codes?level=soc']) {
  const r = await t.json(p);
  console.log(p, r.status, r.headers.get('x-terminology-version'), JSON.stringify(r.body).slice(0, 600));
}
const g = await t.graphql('{ code(code:"10017947") { term children { code { term children { code { term children { code { term children { code { term } } } } } } } } } }');
console.log(JSON.stringify(g.body).slice(0, 400), t.queries.length);
const e = await t.graphql('{ code(code:"x") { term } }');
console.log(JSON.stringify(e.body));
await t.cleanup();
