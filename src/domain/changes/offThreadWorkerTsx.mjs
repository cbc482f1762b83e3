// Worker entry when the server runs from the TypeScript sources (tests, TERMINOLOGY_NO_BUNDLE=1):
// a worker thread does not inherit the parent's tsx loader, so it registers its own.
import { register } from 'tsx/esm/api';

register();
await import('./offThreadWorker.ts');
