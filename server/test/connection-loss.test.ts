// Database connections terminated in the middle of each long operation, the way an operator (or a
// failover) does it: `pg_terminate_backend` of every connection to the database. The server runs as
// a real process (server/src/main.ts): an unhandled 'error' event of a database client ends a
// process, which vitest would otherwise report only as a failed test. For each operation: the
// process is still up afterwards and serves new requests on fresh connections, the operation ended
// failed with a reason the user sees (or resumed and finished), and nothing was written twice.
import { describe, it, expect, beforeAll, afterAll, beforeEach, afterEach } from 'vitest';
import http from 'node:http';
import pg from 'pg';
import { realtimePaths } from '@dealscout/shared/domain';
import { createTestApp, createOrg, signedIn, type TestContext } from './helpers';
import { eventually } from './execution-harness';
import { startServerProcess, streamUpload, importCopyRunning, BearerClient, type ServerProcess } from './server-process';
import { FakeOpenAiServer, lastUserText } from './fakes/openai-server';
import { FakeGraphServer } from './fakes/graph-server';
import { FakeSalesforce } from './fakes/salesforce-server';
import { connectMailbox, ALL_WEEK_HOURS } from './mailbox';
import { connectSalesforce, fieldIds } from './crm';
import { newCompany, newContact, link } from './records';
import { openSocket } from './ws-client';
import { configFor } from '../src/modules/enrichments/configs';
import { createQueues } from '../src/jobs/definitions';
import { jobDefinitions } from '../src/job-registry';

describe('database connections terminated in the middle of long operations (a real server process)', () => {
  let ctx: TestContext;
  let server: ServerProcess;
  let admin: pg.Client;
  let dbName: string;
  let openai: FakeOpenAiServer;
  let graph: FakeGraphServer;
  let sf: FakeSalesforce;
  let env: Record<string, string>;

  beforeAll(async () => {
    // Every outside service of the long operations, on loopback: the model (enrichments, plays),
    // Office 365 (sending), Salesforce (CRM sync).
    openai = await FakeOpenAiServer.start({ apiKeys: ['sk-test'] });
    graph = await FakeGraphServer.start();
    sf = await FakeSalesforce.start({ clientId: 'sf-client', pageSize: 200 });
    env = {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openai.url,
      OPENAI_MODELS: 'gpt-test',
      LLM_MAX_ATTEMPTS: '1',
      O365_CLIENT_ID: graph.clientId,
      O365_CLIENT_SECRET: graph.clientSecret,
      O365_AUTHORITY_URL: graph.url,
      GRAPH_BASE_URL: `${graph.url}/v1.0`,
      GRAPH_TIMEOUT_MS: '2000',
      SALESFORCE_CLIENT_ID: 'sf-client',
      SALESFORCE_LOGIN_URL: sf.url,
      OUTBOUND_ALLOWED_PRIVATE_HOSTS: new URL(sf.url).host,
      EXECUTION_RETRY_DELAY_SECONDS: '0',
      JOB_POLL_SECONDS: '0.5',
      JOB_HEARTBEAT_SECONDS: '10',
      JOB_SUPERVISE_SECONDS: '2',
    };
    ctx = await createTestApp({ boss: true, env });
    await createQueues(ctx.boss!, jobDefinitions, ctx.config);
    dbName = new URL(ctx.dbUrl).pathname.slice(1);
    admin = new pg.Client({ connectionString: ctx.dbUrl, application_name: 'test-admin' });
    admin.on('error', () => {});
    await admin.connect();
    server = await startServerProcess(ctx.dbUrl, env);
  }, 120_000);
  let outputMark = 0;
  beforeEach(() => {
    outputMark = server.output().length;
  });
  afterEach(() => {
    // DS_DEBUG=1: what the server logged at warn level and above during the test (how the operation took the cut).
    if (process.env.DS_DEBUG) {
      for (const l of server.output().slice(outputMark).split('\n')) {
        try {
          const j = JSON.parse(l) as { level: number; msg: string; err?: { message?: string }; queue?: string };
          if (j.level >= 40) console.log(j.level, j.msg, j.queue ?? '', j.err?.message ?? '');
        } catch {
          /* not a log line */
        }
      }
    }
    expect(server.alive(), `the server process died:\n${server.output().slice(-4000)}`).toBe(true);
  });
  afterAll(async () => {
    await server?.kill();
    await admin?.end().catch(() => {});
    await ctx?.close();
    await openai?.close();
    await graph?.close();
    await sf?.close();
  });

  /** Every connection to the test database but the admin's own, as the finder did. */
  const terminateAll = async () =>
    (
      await admin.query<{ n: number }>(
        `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
        [dbName],
      )
    ).rows[0].n;
  const query = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await admin.query<T>(sql, params)).rows;

  /** The process answers /health again (on new connections) and serves a signed-in request. */
  async function expectServing(c: BearerClient) {
    await eventually(async () => ((await fetch(`${server.url}/health`)).ok ? true : undefined), 'the server to answer /health', 30_000);
    expect((await c.get('/api/v1/user')).status).toBe(200);
  }

  it('a CSV upload: the source fails with its reason, nothing is written, the process serves on; the same file again imports once', async () => {
    const { admin: user } = await createOrg(ctx, { name: 'Upload Co' });
    const c = await BearerClient.signIn(server.url, user.email);
    const list = (await c.post('/api/v1/list-company', { name: 'Imports' })).json().list as { id: string };
    const ROWS = 60_000;
    const res = await streamUpload(server.url, c.token, list.id, ROWS, 20_000, async () => {
      // The import's COPY is running (it waits for the rest of the file): terminate every connection.
      await importCopyRunning(admin);
      expect(await terminateAll()).toBeGreaterThan(0);
    });
    if (process.env.DS_DEBUG) console.log('first upload answered', res.status, JSON.stringify(res.body));
    expect(server.alive(), server.output().slice(-4000)).toBe(true);
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body.message).toBe('The import was interrupted (the database connection was lost); please upload the file again.');
    const failed = (await c.get(`/api/v1/list-company/${list.id}`)).json().list as {
      totalIdeas: number;
      sources: { id: string; status: string }[];
    };
    expect(failed.totalIdeas).toBe(0);
    expect(failed.sources).toEqual([
      expect.objectContaining({ status: 'failed', statusSeverity: 'error', statusReason: res.body.message, total: 0 }),
    ]);
    expect(await query(`select count(*)::int as n from idea where list_id = $1`, [list.id])).toEqual([{ n: 0 }]);
    await expectServing(c);

    // Retry: the same file imports once; the failed source can be removed.
    const again = await streamUpload(server.url, c.token, list.id, ROWS, 0, async () => {});
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body).toMatchObject({ rows: ROWS, inserted: ROWS, merged: 0, rejected: 0 });
    expect((await c.del(`/api/v1/list-company/source/${failed.sources[0].id}`)).status).toBe(200);
    expect(await query(`select count(*)::int as n, count(distinct domain)::int as d from idea where list_id = $1`, [list.id])).toEqual([
      { n: ROWS, d: ROWS },
    ]);
    const after = (await c.get(`/api/v1/list-company/${list.id}`)).json().list as {
      totalIdeas: number;
      sources: { status: string; total: number }[];
    };
    expect(after).toMatchObject({ totalIdeas: ROWS, sources: [{ status: 'completed', total: ROWS }] });
  }, 180_000);

  it(
    'an export: the download breaks off (never a whole-looking file with a success), the process serves on; ' +
      'exported again it is whole, each row once',
    async () => {
      const { admin: user, organization } = await createOrg(ctx, { name: 'Export Co' });
      const c = await BearerClient.signIn(server.url, user.email);
      const ROWS = 30_000;
      await admin.query(
        `insert into company (id, organization_id, name, website, domain, created_at, updated_at)
       select gen_random_uuid(), $1, 'Exported ' || i, 'exported' || i || '.com', 'exported' || i || '.com', now(), now() from generate_series(1, $2::int) i`,
        [organization.id, ROWS],
      );
      const body = { selection: { allSelected: true } };
      const cut = await download(server.url, c.token, '/api/v1/company/export', body, async () => {
        // The first rows are here and the export's cursor transaction is open (the client reads no more for now).
        await eventually(
          async () =>
            (
              await query(
                `select 1 from pg_stat_activity where datname = $1 and state like 'idle in transaction%' and pid <> pg_backend_pid()`,
                [dbName],
              )
            ).length
              ? true
              : undefined,
          'the export cursor to be open',
          10_000,
        );
        expect(await terminateAll()).toBeGreaterThan(0);
      });
      expect(cut.status).toBe(200);
      // The transfer is broken off (a chunked answer without its end): the browser's download fails.
      expect(cut.complete).toBe(false);
      expect(lines(cut.text)).toBeLessThan(ROWS + 1);
      await expectServing(c);

      const whole = await download(server.url, c.token, '/api/v1/company/export', body, async () => {});
      expect([whole.status, whole.complete, lines(whole.text)]).toEqual([200, true, ROWS + 1]);
      expect(
        new Set(
          whole.text
            .split('\r\n')
            .filter(Boolean)
            .slice(1)
            .map((l) => l.split(',')[0]),
        ).size,
      ).toBe(ROWS);
    },
    60_000,
  );

  it(
    "an ideas export (a list's ideas, read page by page): the pages after the cut are read on new connections, the " +
      'file is whole, each idea once',
    async () => {
      const { admin: user } = await createOrg(ctx, { name: 'Ideas Export Co' });
      const c = await BearerClient.signIn(server.url, user.email);
      const list = (await c.post('/api/v1/list-company', { name: 'Exported ideas' })).json().list as { id: string };
      const ROWS = 30_000;
      expect((await streamUpload(server.url, c.token, list.id, ROWS, 0, async () => {})).status).toBe(201);
      const cut = await download(server.url, c.token, '/api/v1/list-company/idea/export', { listCompanyId: list.id }, async () => {
        expect(await terminateAll()).toBeGreaterThan(0);
      });
      if (process.env.DS_DEBUG) console.log('ideas export after the cut', cut.status, cut.complete, lines(cut.text));
      expect([cut.status, cut.complete, lines(cut.text)]).toEqual([200, true, ROWS + 1]);
      expect(
        new Set(
          cut.text
            .split('\r\n')
            .filter(Boolean)
            .slice(1)
            .map((l) => l.split(',')[0]),
        ).size,
      ).toBe(ROWS);
      await expectServing(c);
    },
    60_000,
  );

  it('a CRM sync: the page write in flight fails, the job is tried again and resumes after its mark; every account and contact once', async () => {
    const { admin: user, organization } = await createOrg(ctx, { name: 'Sync Co' });
    const org = organization.id;
    const rep = await signedIn(ctx, user.email);
    const c = await BearerClient.signIn(server.url, user.email);
    await connectSalesforce(rep, sf);
    const ACCOUNTS = 3_000;
    const CONTACTS = 800;
    sf.seed('Account', ACCOUNTS, (i) => ({ Name: `Cut ${i}`, Website: `cut-${i}.example.com` }), 5);
    const accounts = sf.records.Account;
    sf.seed(
      'Contact',
      CONTACTS,
      (i) => ({ FirstName: `C${i}`, LastName: 'Ut', Email: `c${i}@cut.example.com`, AccountId: accounts[i].Id }),
      5,
    );
    const fields = await fieldIds(rep);
    const saved = await rep.put('/api/v1/crm/sync-settings', {
      syncAccounts: true,
      syncContacts: true,
      accountMappings: [
        { crmField: 'Name', fieldId: fields.get('company.name') },
        { crmField: 'Website', fieldId: fields.get('company.website') },
      ],
      contactMappings: [
        { crmField: 'Email', fieldId: fields.get('contact.email') },
        { crmField: 'FirstName', fieldId: fields.get('contact.first_name') },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const count = async (sql: string) => (await query<{ n: number }>(sql, [org]))[0].n;
    const companies = () => count(`select count(*)::int as n from company where organization_id = $1`);

    const t0 = Date.now();
    const mark = (what: string) => {
      if (process.env.DS_DEBUG) console.log(what, Date.now() - t0, 'ms');
    };
    expect((await c.post('/api/v1/crm/sync', {})).json().status).toBe('progress');
    await eventually(async () => ((await companies()) >= 400 ? true : undefined), 'some pages written', 20_000);
    expect(await terminateAll()).toBeGreaterThan(0);
    mark('cut');
    expect(await companies()).toBeLessThan(ACCOUNTS);
    await expectServing(c);

    const done = await eventually(
      async () => {
        const st = (await c.get('/api/v1/crm/sync')).json();
        return st.status === 'progress' ? undefined : st;
      },
      'the sync to finish',
      25_000,
    );
    mark('finished');
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect(await companies()).toBe(ACCOUNTS);
    expect(await count(`select count(*)::int as n from contact where organization_id = $1`)).toBe(CONTACTS);
    expect(await count(`select count(*)::int as n from crm_link where organization_id = $1 and entity_type = 'company'`)).toBe(ACCOUNTS);
    expect(await count(`select count(*)::int as n from company_contact where organization_id = $1`)).toBe(CONTACTS);
    expect(
      await count(
        `select count(*)::int as n from crm_sync_change where organization_id = $1 and action = 'created' and entity_type = 'company'`,
      ),
    ).toBe(ACCOUNTS);
  }, 60_000);

  /** `n` companies named `${prefix} ${i}.` (the trailing dot keeps '1.' from matching '10.'). */
  async function companies(rep: Awaited<ReturnType<typeof signedIn>>, prefix: string, n: number) {
    const out: { id: string; name: string }[] = [];
    for (let i = 0; i < n; i++)
      out.push(await newCompany(rep, { name: `${prefix} ${i}.`, website: `https://${prefix.toLowerCase()}-${i}.example.com` }));
    return out;
  }
  /** Model calls whose prompt names each company (each company's count). */
  const callsPer = (names: string[]) => names.map((n) => openai.chatRequests.filter((r) => lastUserText(r).includes(n)).length);

  it(
    'an enrichment run: answers in flight are written once the connections are back, the run completes, one result ' +
      'per company, no model answer bought twice',
    async () => {
      const { admin: user } = await createOrg(ctx, { name: 'Enrich Co' });
      const rep = await signedIn(ctx, user.email);
      const c = await BearerClient.signIn(server.url, user.email);
      const N = 24;
      const cos = await companies(rep, 'Enrichcut', N);
      const names = await fieldIds(rep);
      // Answers spread over ~2.5 s: some are written before the cut, some are at the model during it, some commit around it.
      cos.forEach((co, i) =>
        openai.when((r) => lastUserText(r).includes(co.name), { json: { answer: 'Widgets' }, latencyMs: 200 + 100 * i }),
      );
      const created = await c.post('/api/v1/enrichment', {
        configId: configFor('company', 'llm')!.id,
        name: 'Cut run',
        schema: [{ name: 'answer', type: 'string', description: 'What the company makes.', required: true }],
        prompt: [
          { type: 'text', text: 'What does ' },
          { type: 'field-box', id: 'box000000001', fieldId: names.get('company.name'), required: true },
          { type: 'text', text: ' make?' },
        ],
      });
      expect(created.status, created.text).toBe(201);
      const enrichmentId = created.json().id as string;
      const run = await c.post('/api/v1/enrichment/execute', { entityType: 'company', enrichmentId, entityIds: cos.map((x) => x.id) });
      expect(run.status, run.text).toBe(200);
      const written = async () =>
        (
          await query<{ n: number }>(`select count(*)::int as n from enrichment_result where enrichment_id = $1 and status = 'complete'`, [
            enrichmentId,
          ])
        )[0].n;
      await eventually(async () => ((await written()) >= N / 3 ? true : undefined), 'a third of the results', 20_000);
      expect(await terminateAll()).toBeGreaterThan(0);
      expect(await written()).toBeLessThan(N);
      await expectServing(c);

      const results = await eventually(
        async () => {
          const rs = (
            await c.post('/api/v1/enrichment/results', {
              entityType: 'company',
              entityIds: cos.map((x) => x.id),
              enrichmentIds: [enrichmentId],
            })
          ).json().results as { entityId: string; status: string; value: { result: Record<string, unknown> | null } }[];
          return rs.length === N && rs.every((r) => r.status === 'complete' || r.status === 'error') ? rs : undefined;
        },
        'every result',
        25_000,
      );
      expect(results.map((r) => r.status)).toEqual(Array(N).fill('complete'));
      expect(results.every((r) => r.value.result?.answer === 'Widgets')).toBe(true);
      expect(
        await query(`select entity_id from enrichment_result where enrichment_id = $1 group by entity_id having count(*) > 1`, [
          enrichmentId,
        ]),
      ).toEqual([]);
      expect(callsPer(cos.map((x) => x.name))).toEqual(Array(N).fill(1));
    },
    60_000,
  );

  it('a play run: drafts in flight are written once the connections are back, one draft per target, no model answer bought twice', async () => {
    const { admin: user } = await createOrg(ctx, { name: 'Play Co' });
    const rep = await signedIn(ctx, user.email);
    const c = await BearerClient.signIn(server.url, user.email);
    const N = 16;
    const cos = await companies(rep, 'Playcut', N);
    for (const [i, co] of cos.entries())
      await link(rep, co.id, (await newContact(rep, { firstName: `Owner${i}`, lastName: 'Playcut' })).id);
    const names = await fieldIds(rep);
    cos.forEach((co, i) =>
      openai.when((r) => lastUserText(r).includes(co.name), {
        json: { subject: 'Hello', body: 'Dear owner,\n\nHello.\n\nBest' },
        latencyMs: 200 + 150 * i,
      }),
    );
    const play = await c.post('/api/v1/play', {
      status: 'published',
      name: 'Cut play',
      instructions: [
        { type: 'text', text: 'Write to the owner of ' },
        { type: 'field-box', id: 'fieldbox0001', fieldId: names.get('company.name'), required: true },
      ],
    });
    expect(play.status, play.text).toBe(201);
    const playId = (play.json().play as { id: string }).id;
    const run = await c.post('/api/v1/play/execute', {
      playId,
      targetIds: cos.map((x) => x.id),
      entityType: 'company',
      executionId: 'cut-run',
    });
    expect(run.json().message, run.text).toBe('Play execution started.');
    const written = async () =>
      (await query<{ n: number }>(`select count(*)::int as n from channel_email where play_id = $1`, [playId]))[0].n;
    await eventually(async () => ((await written()) >= N / 3 ? true : undefined), 'a third of the drafts', 20_000);
    expect(await terminateAll()).toBeGreaterThan(0);
    expect(await written()).toBeLessThan(N);
    await expectServing(c);

    const drafts = await eventually(
      async () => {
        const d = (
          (await c.get('/api/v1/email/pending')).json().emails as { play?: { id: string } | null; companyId: string; status: string }[]
        ).filter((e) => e.play?.id === playId);
        return d.length === N ? d : undefined;
      },
      'a draft per target',
      25_000,
    );
    expect(new Set(drafts.map((d) => d.companyId))).toEqual(new Set(cos.map((x) => x.id)));
    expect(
      await query(`select company_id from channel_email where play_id = $1 group by company_id having count(*) > 1`, [playId]),
    ).toEqual([]);
    expect(callsPer(cos.map((x) => x.name))).toEqual(Array(N).fill(1));
  }, 60_000);

  it(
    'sending: claims and sends in flight when the connections are cut are finished by their next attempt; every ' +
      'email leaves the mailbox once and is recorded sent',
    async () => {
      const { admin: user } = await createOrg(ctx, { name: 'Send Co' });
      const rep = await signedIn(ctx, user.email);
      await connectMailbox(rep, graph, user.email, { workingHours: ALL_WEEK_HOURS });
      const co = await newCompany(rep, { name: 'Inbox Co', website: 'https://inbox.example.com' });
      const ct = await newContact(rep, { firstName: 'Ina', lastName: 'Box', email: 'ina@inbox.example.com' });
      await link(rep, co.id, ct.id);
      const EMAILS = 6;
      const ids: string[] = [];
      graph.latencyMs = 300;
      const at = new Date(Date.now() + 2_000).toISOString();
      for (let i = 0; i < EMAILS; i++) {
        const id = (await rep.post('/api/v1/email/draft', { contactId: ct.id })).json().email.channelEmailId as string;
        ids.push(id);
        const res = await rep.post('/api/v1/email/send-to-email', {
          id,
          to: 'ina@inbox.example.com',
          cc: [],
          subject: `Cut ${i}`,
          body: `<p>Cut ${i}</p>`,
          scheduledAt: at,
        });
        expect(res.json().message).toBe('Email scheduled successfully.');
      }
      const mine = () => graph.sent(user.email).filter((m) => m.subject.startsWith('Cut '));
      try {
        await eventually(async () => (mine().length >= 1 ? true : undefined), 'the first send', 20_000);
        expect(mine().length).toBeLessThan(EMAILS);
        expect(await terminateAll()).toBeGreaterThan(0);
        // Right after the cut a pooled connection may still be a dead one: the sign-in is tried again, as a user would.
        const again = await eventually(
          async () => {
            try {
              return await BearerClient.signIn(server.url, user.email);
            } catch {
              return undefined;
            }
          },
          'a sign-in after the cut',
          15_000,
        );
        await expectServing(again);
        await eventually(
          async () =>
            (
              await query<{ n: number }>(`select count(*)::int as n from channel_email where id = any($1::uuid[]) and status = 'sent'`, [
                ids,
              ])
            )[0].n === EMAILS
              ? true
              : undefined,
          'every email recorded sent',
          25_000,
        );
      } finally {
        graph.latencyMs = 0;
      }
      expect(
        mine()
          .map((m) => m.subject)
          .sort(),
      ).toEqual(Array.from({ length: EMAILS }, (_, i) => `Cut ${i}`).sort());
      expect(
        await query(`select state, count(*)::int as n from email_outbox where channel_email_id = any($1::uuid[]) group by state`, [ids]),
      ).toEqual([{ state: 'sent', n: EMAILS }]);
    },
    60_000,
  );

  it('the realtime listener: it reconnects, and a socket gets every event once, also those committed while it was cut', async () => {
    const { admin: user, organization } = await createOrg(ctx, { name: 'Realtime Co' });
    const c = await BearerClient.signIn(server.url, user.email);
    const s = await openSocket(`${server.url.replace(/^http/, 'ws')}/api/v1/realtime`);
    try {
      s.send({ type: 'auth', token: (await c.get('/api/v1/notifications/token')).json().token });
      await s.next('ready');
      s.send({ type: 'subscribe', paths: [realtimePaths.entities(organization.id)] });
      await s.next('subscribed');
      const create = async (name: string) => {
        // Right after the cut a pooled connection may still be a dead one: the request is tried again, as a user would.
        const res = await eventually(
          async () => {
            const r = await c.post('/api/v1/entity/company', { company: { name, website: `https://${name.toLowerCase()}.example.com` } });
            return r.status === 201 ? r : undefined;
          },
          `company ${name}`,
          15_000,
        );
        return (res.json().company as { id: string }).id;
      };
      const before = await create('Before');
      await s.waitForEvents((ev) => ev.some((e) => (e.data as { id?: string } | null)?.id === before));
      expect(await terminateAll()).toBeGreaterThan(0);
      // Committed while the listener may still be reconnecting, and after.
      const during = await create('During');
      await expectServing(c);
      const after = await create('After');
      const events = await s.waitForEvents(
        (ev) => [during, after].every((id) => ev.some((e) => (e.data as { id?: string } | null)?.id === id)),
        20_000,
      );
      const created = events.filter((e) => e.kind === 'entity.created').map((e) => (e.data as { id: string }).id);
      expect(created).toEqual([before, during, after]);
      expect(new Set(events.map((e) => e.seq)).size).toBe(events.length);
    } finally {
      await s.close();
    }
  }, 60_000);
});

/** Lines of a CSV text (CRLF), the header included. */
const lines = (text: string) => text.split('\r\n').filter(Boolean).length;

/**
 * POSTs `body` and reads the streamed answer: the first chunk, then `whilePaused()` while reading
 * nothing more (the server's writes wait), then the rest. `complete`: the answer reached its end
 * (a chunked answer broken off by the server is not complete).
 */
function download(
  url: string,
  token: string,
  path: string,
  body: unknown,
  whilePaused: () => Promise<void>,
): Promise<{ status: number; text: string; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}${path}`,
      { method: 'POST', agent: false, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        let ended = false;
        let paused = false;
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
          if (paused) return;
          paused = true;
          res.pause();
          whilePaused().then(
            () => res.resume(),
            (e: unknown) => {
              res.destroy();
              reject(e);
            },
          );
        });
        res.on('end', () => {
          ended = true;
        });
        res.on('error', () => {});
        res.on('close', () => resolve({ status: res.statusCode ?? 0, text, complete: ended }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
