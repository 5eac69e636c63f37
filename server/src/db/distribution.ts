// Distributing the database by organization (Citus): where each table goes. docs/CITUS.md shows the
// calls `distributionSql` writes for the migrated schema, and server/test/citus.test.ts holds the
// schema to what Citus needs (keys, unique constraints and foreign keys that include organization_id,
// joins that equate it) and the documentation to these lists.

/** The column every tenant table is distributed by. */
export const DISTRIBUTION_COLUMN = 'organization_id';

export type Placement = 'reference' | 'local';

/**
 * The tables of no organization (entities.ts `globalTables`), each with where it goes and why it can:
 * a reference table is copied whole to every node, so any statement may join it; a local table stays
 * on the coordinator, read and written by statements of its own.
 */
export const GLOBAL_TABLES: Record<string, { placement: Placement; reason: string }> = {
  organization: {
    placement: 'reference',
    reason:
      'one row per organization, the target of every tenant foreign key (organization_id → organization.id); small, written at setup and from its settings',
  },
  login_throttle: {
    placement: 'reference',
    reason:
      'failed sign-in counters per account email and per client address, counted before any organization is known; few rows, each gone after its window',
  },
  mikro_orm_migrations: {
    placement: 'local',
    reason:
      "the migrator's record of the migrations run; read and written only by the migrator on the coordinator (Citus propagates the DDL)",
  },
};

/**
 * Tenant tables (they have an organization_id) kept whole on every node rather than distributed: each is
 * looked up before the organization is known, by a key unique across the product, which a distributed
 * table cannot enforce (Citus requires the distribution column in every unique constraint). They are
 * small and rarely written; distributed tables keep their foreign keys to them.
 */
export const TENANT_REFERENCE_TABLES: Record<string, { uniques: string[]; reason: string }> = {
  app_user: {
    uniques: ['app_user_email_live_unique'],
    reason:
      'sign-in finds the account by its email alone, and a live email is unique across the product; an ' +
      "organization's seats (tens of rows), written when users are invited, edited or sign in",
  },
  session: {
    uniques: ['session_token_hash_unique'],
    reason:
      'every request finds its session by the hash of its token before the organization is known; written at sign-in ' +
      'and sign-out and touched every few minutes of use',
  },
  password_reset: {
    uniques: ['password_reset_token_hash_unique'],
    reason: 'a reset link is found by the hash of its token before the organization is known; a few rows, each short-lived',
  },
  invitation: {
    uniques: ['invitation_token_hash_unique'],
    reason: 'an invitation link is found by the hash of its token before the organization is known; a few rows per organization',
  },
};

/** The first distributed table; every other one is colocated with it (their shards of one organization on one node). */
export const COLOCATION_ANCHOR = 'company';

/**
 * The Citus calls for a schema: reference tables first (in foreign-key order), then the distributed
 * tenant tables colocated with COLOCATION_ANCHOR, each after the tables its foreign keys point at
 * (Citus refuses a foreign key to a table not distributed yet). `tenantTables`: the tables with an
 * organization_id; `references`: table → the tables its foreign keys point at.
 */
export function distributionSql(tenantTables: readonly string[], references: ReadonlyMap<string, readonly string[]>): string[] {
  const reference = [
    ...Object.entries(GLOBAL_TABLES)
      .filter(([, g]) => g.placement === 'reference')
      .map(([t]) => t),
    ...Object.keys(TENANT_REFERENCE_TABLES),
  ];
  const distributed = tenantTables.filter((t) => !(t in TENANT_REFERENCE_TABLES));
  const ordered = (tables: string[]): string[] => {
    const out: string[] = [];
    const seen = new Set<string>();
    const visit = (t: string) => {
      if (seen.has(t)) return;
      seen.add(t);
      for (const target of [...(references.get(t) ?? [])].sort()) if (target !== t && tables.includes(target)) visit(target);
      out.push(t);
    };
    for (const t of [...tables].sort((a, b) => (a === COLOCATION_ANCHOR ? -1 : b === COLOCATION_ANCHOR ? 1 : a.localeCompare(b)))) visit(t);
    return out;
  };
  const dist = ordered(distributed);
  // The anchor first: the tables it references are reference tables, never distributed ones.
  if (dist[0] !== COLOCATION_ANCHOR) throw new Error(`${COLOCATION_ANCHOR} must come first (it references ${dist[0]})`);
  return [
    ...ordered(reference).map((t) => `select create_reference_table('${t}');`),
    `select create_distributed_table('${COLOCATION_ANCHOR}', '${DISTRIBUTION_COLUMN}');`,
    ...dist
      .slice(1)
      .map((t) => `select create_distributed_table('${t}', '${DISTRIBUTION_COLUMN}', colocate_with => '${COLOCATION_ANCHOR}');`),
  ];
}
