// SMQs: GET /smqs (smqList.ts), GET /smqs/{code} (smqDetail.ts), GET /versions/{toVersionId}/smq-changes
// (smqChanges.ts), POST /smqs/{code}/apply (smqApply.ts; needs X-API-Key: src/http/routers/smqs.ts mounts
// the key check). Registered in this order: the order of their paths in /openapi.json.
import type { RestApp, RestDeps } from '../context.ts';
import { registerSmqList } from './smqList.ts';
import { registerSmqDetail } from './smqDetail.ts';
import { registerSmqChanges } from './smqChanges.ts';
import { registerSmqApply } from './smqApply.ts';

export function registerSmqs(app: RestApp, deps: RestDeps) {
  registerSmqList(app, deps);
  registerSmqDetail(app, deps);
  registerSmqChanges(app, deps);
  registerSmqApply(app, deps);
}
