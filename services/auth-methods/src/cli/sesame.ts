import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { connect } from 'nats';
import { defaultScopes, environments, explicitScopes, scopeSchema, scopes as allScopes, z } from '@sesame/contracts';
import type { Scope } from '@sesame/contracts';
import {
  Aggregate,
  AggregateView,
  KeyRing,
  MemoryReadModelStore,
  ProjectionRunner,
  baseConfigSchema,
  createLogger,
  loadConfig,
  natsConnectionOptions,
  requireStoreUrls,
} from '@sesame/platform';
import { openEventStore } from '@sesame/platform/stores';
import { systemActor } from '@sesame/platform';
import type { EventMetadata, EventStore } from '@sesame/platform';
import { apiKeyAggregate } from '../core/api-keys/api-key.aggregate';
import { createApiKey, revokeApiKey } from '../core/api-keys/api-key.commands';
import { apiKeysView } from '../core/api-keys/projections/api-keys.projection';

const usage = `Usage: npm run sesame -- <command>

  api-keys create --environment sandbox|production [--scopes a,b] [--name NAME] [--json]
      Creates an API key and prints its secret (shown once). Scopes default to all of:
      ${defaultScopes.join(', ')}
      Held only when named in --scopes: ${explicitScopes.join(', ')}
  api-keys list [--json]
  api-keys revoke CLIENT_ID
  keys generate
      Prints a new value for SESAME_ENCRYPTION_KEYS.

The tool talks to the event store configured by the same SESAME_* variables as the services.`;

const metadata = (): EventMetadata => ({
  correlationId: randomUUID(),
  actor: systemActor('auth-methods:cli'),
  occurredAt: new Date().toISOString(),
});

async function withEventStore<T>(task: (store: EventStore) => Promise<T>): Promise<T> {
  const config = loadConfig(baseConfigSchema.superRefine(requireStoreUrls));
  const logger = createLogger('cli', 'warn');
  // Its own NATS user, or auth-methods' when run inside an auth-methods container: that user's inbox.
  const nc = await connect(natsConnectionOptions(config, config.SESAME_NATS_USER === 'auth-methods' ? 'auth-methods' : 'cli'));
  const store = await openEventStore('auth-methods', config, nc, logger);
  try {
    return await task(store);
  } finally {
    await store.close();
    await nc.drain();
  }
}

async function createKey(options: { environment?: string; scopes?: string; name?: string; json?: boolean }) {
  const environment = z.enum(environments).safeParse(options.environment);
  if (!environment.success) throw new UsageError('--environment must be sandbox or production');
  const requested = options.scopes
    ? options.scopes
        .split(',')
        .map((scope) => scope.trim())
        .filter(Boolean)
    : [...defaultScopes];
  const parsedScopes = z.array(scopeSchema).min(1).safeParse(requested);
  if (!parsedScopes.success) throw new UsageError(`--scopes must be a comma-separated list of: ${allScopes.join(', ')}`);
  const key = await withEventStore((store) =>
    createApiKey(
      new Aggregate({ eventStore: store }, apiKeyAggregate),
      { name: options.name ?? `${environment.data} key`, environment: environment.data, scopes: parsedScopes.data as Scope[] },
      metadata(),
    ),
  );
  if (options.json) return console.log(JSON.stringify(key));
  console.log(`API key created (${key.environment}). The secret is shown only now: keep it safe.
  client_id:     ${key.client_id}
  client_secret: ${key.client_secret}
  scopes:        ${key.scopes.join(' ')}`);
}

async function listKeys(json: boolean) {
  const keys = await withEventStore(async (store) => {
    const readModels = new MemoryReadModelStore();
    const runner = new ProjectionRunner(store, readModels, createLogger('cli', 'warn'));
    const view = runner.register(new AggregateView(apiKeysView, readModels, store));
    await runner.start();
    await runner.whenReady();
    await runner.stop();
    return view.documents.find({}, { sort: { created_at: 1 } });
  });
  const rows = keys.map((key) =>
    key.status === 'empty'
      ? null
      : {
          client_id: key.client_id,
          name: key.name,
          environment: key.environment,
          status: key.status,
          scopes: key.scopes,
          created_at: key.created_at,
        },
  );
  if (json) return console.log(JSON.stringify(rows));
  for (const row of rows)
    if (row) console.log(`${row.client_id}  ${row.environment.padEnd(10)} ${row.status.padEnd(8)} ${row.name}`);
}

class UsageError extends Error {}

async function main(argv: string[]) {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      environment: { type: 'string' },
      scopes: { type: 'string' },
      name: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const [group, command, argument] = positionals;
  if (values.help || !group) return console.log(usage);
  if (group === 'api-keys' && command === 'create') return createKey(values);
  if (group === 'api-keys' && command === 'list') return listKeys(values.json ?? false);
  if (group === 'api-keys' && command === 'revoke' && argument) {
    const state = await withEventStore((store) =>
      revokeApiKey(new Aggregate({ eventStore: store }, apiKeyAggregate), argument, metadata()),
    );
    return console.log(`API key ${argument} is ${state.status === 'empty' ? 'unknown' : state.status}`);
  }
  if (group === 'keys' && command === 'generate') return console.log(KeyRing.generateKeySpec(`k${Date.now().toString(36)}`));
  throw new UsageError(`Unknown command: ${positionals.join(' ')}`);
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n\n${usage}`);
    else console.error((error as Error).name === 'ConfigError' ? (error as Error).message : error);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
