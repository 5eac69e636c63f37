import { defineConfig, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { entities, tenantEntities } from './entities';

const here = path.dirname(fileURLToPath(import.meta.url));
export const MIGRATIONS_DIR = path.join(here, 'db', 'migrations');

/** Connections per process; a pool closes a connection that has been idle for 10 s unless told otherwise. */
export const POOL = { min: 0, max: 10 } as const;

export function ormConfig(clientUrl: string, extra: Partial<Options> = {}): Options {
  return defineConfig({
    clientUrl,
    entities,
    extensions: [Migrator],
    // A request or job sets the organization; a query on a tenant entity without it fails loudly
    // (MikroORM throws when a default filter has no arguments) instead of reading across tenants.
    filters: {
      tenant: {
        name: 'tenant',
        cond: (args: Record<string, unknown>) => ({ organization: args.organizationId }),
        entity: tenantEntities,
        default: true,
      },
    },
    migrations: {
      path: MIGRATIONS_DIR,
      pathTs: MIGRATIONS_DIR,
      glob: '!(*.d).{js,ts}',
      emit: 'ts',
      snapshot: false,
      transactional: true,
      allOrNothing: true,
    },
    pool: { ...POOL },
    debug: false,
    ...extra,
  });
}
