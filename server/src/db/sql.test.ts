// The one helper for raw SQL and the tenant filter (db/sql.ts): a tenant statement that does not
// bind its organization never reaches the database, the statements run on the EntityManager's
// transaction, and the find options scope by the organization given.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, createOrg, createUser, type TestContext } from '../../test/helpers';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { tenantSql, unscopedSql, scopedTo, crossTenant, tenantCopyClient, UnscopedStatementError, UNSCOPED } from './sql';
import { isConnectionLoss } from './connection-loss';
import { User } from '../modules/users/user.entity';

describe('db/sql.ts', () => {
  let ctx: TestContext;
  let a: string;
  let b: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    a = (await createOrg(ctx, { name: 'Sql A' })).organization.id;
    b = (await createOrg(ctx, { name: 'Sql B' })).organization.id;
    await createUser(ctx, b, { firstName: 'Other' });
  });
  afterAll(async () => ctx.close());

  it('tenantSql refuses a statement that does not name organization_id or does not bind the organization', async () => {
    const em = ctx.em();
    await expect(tenantSql(em, a).all('select id from app_user where id = ?', [a])).rejects.toThrow(/never names organization_id/);
    await expect(tenantSql(em, a).all('select id from app_user where organization_id = ?', [b])).rejects.toThrow(
      /not among the statement's parameters/,
    );
    await expect(tenantSql(em, a).run('delete from app_user where organization_id is not null')).rejects.toThrow(UnscopedStatementError);
    await expect(tenantSql(em, a).bound('select id from app_user where organization_id = $1', [b])).rejects.toThrow(UnscopedStatementError);
    await expect(tenantSql(em, '' as string).all('select 1 where ? is not null and organization_id = 1', [''])).rejects.toThrow(
      /organization id is required/,
    );
    await expect(tenantSql(em, undefined as unknown as string).all('select 1')).rejects.toThrow(/organization id is required/);
    // Nothing of B was touched.
    const [{ n }] = await unscopedSql(em, 'operator').all<{ n: number }>(
      'select count(*)::int as n from app_user where organization_id = ?',
      [b],
    );
    expect(n).toBeGreaterThan(0);
  });

  it('tenantSql reads and changes only what the statement scopes; run answers the row count; the own organization row by id counts as scoped', async () => {
    const em = ctx.em();
    const rows = await tenantSql(em, a).all<{ organization_id: string }>('select organization_id from app_user where organization_id = ?', [
      a,
    ]);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.organization_id))).toEqual(new Set([a]));
    expect(await tenantSql(em, a).run('update app_user set updated_at = updated_at where organization_id = ?', [a])).toBe(rows.length);
    const bound = await tenantSql(em, a).bound<{ n: number }>('select count(*)::int as n from app_user where organization_id = $1', [a]);
    expect(bound[0].n).toBe(rows.length);
    const [org] = await tenantSql(em, a).all<{ name: string }>('select name from organization where id = ?', [a]);
    expect(org.name).toBe('Sql A');
  });

  it(
    'prepared: checked like the others; outside a transaction a named prepared statement the connection keeps, ' +
      "inside one the transaction's own statement",
    async () => {
      const em = ctx.em();
      await expect(tenantSql(em, a).prepared('select id from app_user where organization_id = $1', [b])).rejects.toThrow(
        UnscopedStatementError,
      );
      const text = 'select count(*)::int as n, $2::text as tag from app_user where organization_id = $1';
      const [first] = await tenantSql(em, a).prepared<{ n: number; tag: string }>(text, [a, 'one']);
      const [again] = await tenantSql(em, a).prepared<{ n: number; tag: string }>(text, [a, 'two']);
      expect([first.tag, again.tag, again.n]).toEqual(['one', 'two', first.n]);
      // The connection keeps it by name (the pool hands back the connection that just ran it).
      const kept = await unscopedSql(em, 'connection').prepared<{ name: string }>(
        'select name from pg_prepared_statements where statement = $1',
        [text],
      );
      expect(kept.map((k) => k.name)).toEqual([expect.stringMatching(/^ds_[0-9a-f]{20}$/)]);
      const before = (await tenantSql(em, a).all<{ name: string }>('select name from organization where id = ?', [a]))[0].name;
      await expect(
        em.transactional(async (tem) => {
          await tenantSql(tem, a).prepared('update organization set name = $2 where id = $1', [a, 'Renamed by prepared']);
          const [inside] = await tenantSql(tem, a).prepared<{ name: string }>('select name from organization where id = $1', [a]);
          expect(inside.name).toBe('Renamed by prepared');
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect((await tenantSql(em, a).all<{ name: string }>('select name from organization where id = ?', [a]))[0].name).toBe(before);
    },
  );

  it("runs on the EntityManager's transaction (a rollback undoes it)", async () => {
    const em = ctx.em();
    const before = (await tenantSql(em, a).all<{ name: string }>('select name from organization where id = ?', [a]))[0].name;
    await expect(
      em.transactional(async (tem) => {
        await tenantSql(tem, a).run('update organization set name = ? where id = ?', ['Renamed in trx', a]);
        const [seen] = await tenantSql(tem, a).all<{ name: string }>('select name from organization where id = ?', [a]);
        expect(seen.name).toBe('Renamed in trx');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await tenantSql(em, a).all<{ name: string }>('select name from organization where id = ?', [a]))[0].name).toBe(before);
  });

  it('scopedTo scopes an ORM call to the organization given; crossTenant turns the filter off only for a listed reason', async () => {
    const em = ctx.em();
    const mine = await em.find(User, {}, scopedTo(a));
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((u) => u.organization.id === a)).toBe(true);
    const all = await em.find(User, {}, crossTenant('operator'));
    const orgs = new Set(all.map((u) => u.organization.id));
    expect(orgs.has(a) && orgs.has(b)).toBe(true);
    // Without an organization the tenant filter refuses (MikroORM throws for a default filter without its argument).
    await expect(em.find(User, {})).rejects.toThrow();
    expect(() => scopedTo('not-a-uuid')).toThrow(UnscopedStatementError);
    expect(() => crossTenant('because' as keyof typeof UNSCOPED)).toThrow(/unknown reason/);
    expect(() => unscopedSql(em, 'because' as keyof typeof UNSCOPED)).toThrow(/unknown reason/);
    expect(await em.count(User, { id: randomUUID() }, scopedTo(b))).toBe(0);
  });

  it('tenantCopyClient: tenant statements checked like tenantSql, COPY and local statements only on its own temporary tables', async () => {
    const c = await tenantCopyClient(ctx.dbUrl, a, 'sql-test');
    try {
      await expect(c.query('select id from app_user where id = $1', [a])).rejects.toThrow(/never names organization_id/);
      await expect(c.query('select id from app_user where organization_id = $1', [b])).rejects.toThrow(
        /not among the statement's parameters/,
      );
      await expect(c.local('delete from app_user')).rejects.toThrow(UnscopedStatementError);
      await expect(c.local('select * from app_user')).rejects.toThrow(UnscopedStatementError);
      expect(() => c.copyInto('app_user', ['id'])).toThrow(/not a temporary table/);
      await c.local('begin');
      await c.temp('t_rows', 'n int, name text');
      // A statement naming the temporary table and a tenant table is not local.
      await expect(c.local('insert into t_rows select 1, email from app_user')).rejects.toThrow(UnscopedStatementError);
      await c.local('rollback');
      await c.local('begin');
      await c.temp('t_rows', 'n int, name text');
      await pipeline(Readable.from(['1\tone\n', '2\ttwo\n']), c.copyInto('t_rows', ['n', 'name']));
      expect(await c.local(`update t_rows set name = upper(name) where n = 2`)).toBe(1);
      // CSV format: PostgreSQL parses the quotes; only the three separators; local statements take bound parameters.
      expect(() => c.copyInto('t_rows', ['n', 'name'], { delimiter: "'" as ',' })).toThrow(/separator/);
      await pipeline(Readable.from(['3;"a;b ""c"""\n']), c.copyInto('t_rows', ['n', 'name'], { delimiter: ';' }));
      expect(await c.local('update t_rows set n = 30 where name = $1', ['a;b "c"'])).toBe(1);
      const { rows } = await c.query<{ n: number; users: number }>(
        'select (select count(*) from t_rows)::int as n, (select count(*) from app_user where organization_id = $1)::int as users',
        [a],
      );
      expect(rows[0].n).toBe(3);
      expect(rows[0].users).toBeGreaterThan(0);
      await c.local('commit');
      // Statistics and the visibility map of a table it loaded: only these two maintenance statements.
      await c.local('analyze app_user');
      await c.local('vacuum (index_cleanup off, truncate off) app_user');
      await expect(c.local('vacuum full app_user')).rejects.toThrow(UnscopedStatementError);
    } finally {
      await c.end();
    }
  });

  it('tenantCopyClient: a connection cut in the middle of a COPY fails the COPY and every later statement, not the process', async () => {
    const c = await tenantCopyClient(ctx.dbUrl, a, 'sql-test-cut');
    const admin = new pg.Client({ connectionString: ctx.dbUrl });
    await admin.connect();
    try {
      expect(await c.lease('sql-test-lease')).toBe(true);
      await c.local('begin');
      await c.temp('t_cut', 'n int');
      const copy = c.copyInto('t_cut', ['n']);
      const copied = pipeline(
        Readable.from(
          (async function* rows() {
            yield '1\n';
            // The COPY waits for more rows: terminate its connection, as an operator's pg_terminate_backend does.
            const cut = await admin.query<{ n: number }>(`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
                                                       where application_name = 'sql-test-cut' and datname = current_database()`);
            expect(cut.rows[0].n).toBe(1);
            await new Promise((r) => setTimeout(r, 200));
            yield '2\n';
          })(),
        ),
        copy,
      );
      const err = await copied.then(
        () => null,
        (e: unknown) => e,
      );
      expect(isConnectionLoss(err), String(err)).toBe(true);
      await expect(c.local('commit')).rejects.toSatisfy(isConnectionLoss);
      // The lease went with the connection: another one takes it.
      const next = await tenantCopyClient(ctx.dbUrl, a, 'sql-test-next');
      expect(await next.lease('sql-test-lease')).toBe(true);
      await next.end();
    } finally {
      await admin.end();
      await c.end();
    }
  });

  it('every reason in UNSCOPED says why', () => {
    for (const [k, why] of Object.entries(UNSCOPED)) expect(why.length, k).toBeGreaterThan(20);
  });
});
