// What every HTTP surface (REST, FHIR, the app's own middleware) knows about a request: its
// id, its logger, the client's address, once a key guard let it through the API key, and how
// its surface writes refusals (problem JSON unless set).
import type { Logger } from '../logger.ts';
import type { RefusalRenderer } from './problem.ts';

export type AppEnv = { Variables: { requestId: string; log: Logger; clientIp: string; apiKeyId?: string; renderRefusal?: RefusalRenderer } };
