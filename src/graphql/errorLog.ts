// Where GraphQL errors are logged, and how: the error level is for the server's own faults;
// a client's mistake (syntax, unknown field, bad variable, unknown release) is logged at info
// by its code and request id only, because the messages quote what the client sent.
import type { ExecutionResult } from 'graphql';
import type { Logger } from '../logger.ts';
import { toGraphQLError } from './errors.ts';

/** Yoga's error channel: it reports client mistakes and faults alike; only faults go out at error level. */
export function logYogaError(log: Logger, args: unknown[]): void {
  const err = args.find((x): x is Error => x instanceof Error);
  const code = err ? toGraphQLError(err).extensions.code : 'INTERNAL_ERROR';
  if (code === 'INTERNAL_ERROR') {
    log.error({ err: err ? { message: err.message, stack: err.stack } : { message: args.map(String).join(' ') } }, 'unexpected GraphQL error');
  }
}

/** One line per answer that carries errors: their codes, with the request id of `log`. */
export function logResultErrors(log: Logger, result: ExecutionResult): void {
  if (!result.errors?.length) return;
  const codes = [...new Set(result.errors.map((e) => String(e.extensions?.code ?? 'INTERNAL_ERROR')))];
  if (codes.includes('INTERNAL_ERROR')) log.error({ codes }, 'GraphQL answer with an internal error');
  else log.info({ codes }, 'GraphQL answer with client errors');
}
