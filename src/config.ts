// Environment → typed, validated configuration. Every knob is documented in the README.
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const schema = z.object({
  PORT: port.default(4000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_REPLICA_URLS: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  TERMINOLOGY_DATA_DIR: z.string().min(1).default('./.data'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Import the bundled demo releases into an empty database at start. */
  TERMINOLOGY_DEMO: bool.default(true),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).max(50).default(14),
  GRAPHQL_MAX_COMPLEXITY: z.coerce.number().int().min(100).default(25_000),
  GRAPHQL_INTROSPECTION: bool.default(true),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  replicaUrls: string[];
  poolSize: number;
  dataDir: string;
  redisUrl: string | undefined;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  demo: boolean;
  graphql: { maxDepth: number; maxComplexity: number; introspection: boolean };
};

export class ConfigError extends Error {}

/** Reads the environment once; a bad value stops start-up with one line per problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset, as operators expect from `FOO= cmd`.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  return {
    port: c.PORT,
    host: c.HOST,
    databaseUrl: c.DATABASE_URL,
    replicaUrls: (c.DATABASE_REPLICA_URLS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    poolSize: c.DATABASE_POOL_SIZE,
    dataDir: c.TERMINOLOGY_DATA_DIR,
    redisUrl: c.REDIS_URL,
    logLevel: c.LOG_LEVEL,
    demo: c.TERMINOLOGY_DEMO,
    graphql: {
      maxDepth: c.GRAPHQL_MAX_DEPTH,
      maxComplexity: c.GRAPHQL_MAX_COMPLEXITY,
      introspection: c.GRAPHQL_INTROSPECTION,
    },
  };
}
