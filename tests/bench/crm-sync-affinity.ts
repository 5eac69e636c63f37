// `npm run bench:crm:affinity`: the first Affinity sync of BENCH_AFF_ORGS organizations (default
// 50,000) and BENCH_AFF_PERSONS persons (default 100,000) from the loopback fake (v1 pages of 500,
// each organization with an Industry global field value read through v2), run by the crmsync
// execution on a pg-boss worker in this process, then a second sync (Affinity's v1 has no
// modification filter: it reads everything again and writes what differs — here BENCH_AFF_CHANGES
// (default 1,000) changed values). No target in the issue; printed, not written (the figures go
// into docs/benchmarks.md by hand). Needs TEST_DATABASE_URL (default: 127.0.0.1:5432).
import fs from 'node:fs';
import { FakeAffinity } from '../../server/test/fakes/affinity-server';
import { createOrg, signedIn } from '../../server/test/helpers';
import { startCrmBench } from './crm-bench-app';
import { newField } from '../../server/test/records';
import { fieldIds } from '../../server/test/crm';

const ORGS = Number(process.env.BENCH_AFF_ORGS ?? 50_000);
const PERSONS = Number(process.env.BENCH_AFF_PERSONS ?? 100_000);
const CHANGES = Number(process.env.BENCH_AFF_CHANGES ?? 1_000);
const KEY = 'affinity-bench-key-0123456789';

const aff = await FakeAffinity.start({ apiKeys: [KEY] });
const env = { AFFINITY_BASE_URL: aff.url, OUTBOUND_ALLOWED_PRIVATE_HOSTS: new URL(aff.url).host };
const bench = await startCrmBench('aff', env);
const { ctx, orm } = bench;

const { admin, organization } = await createOrg(ctx, { name: 'Bench Affinity' });
const client = await signedIn(ctx, admin.email);
const connected = await client.post('/api/v1/organization/integration', { provider: 'affinity', apiKey: KEY });
if (connected.statusCode !== 201) throw new Error(connected.body);
const industry = await newField(client, 'company', 'string', 'Industry');
const fields = await fieldIds(client);
const saved = await client.put('/api/v1/crm/sync-settings', {
  syncAccounts: true,
  syncContacts: true,
  accountMappings: [
    { crmField: 'name', fieldId: fields.get('company.name') },
    { crmField: 'field:101', fieldId: industry.id, reconciliation: 'use_latest' },
  ],
  contactMappings: [
    { crmField: 'first_name', fieldId: fields.get('contact.first_name') },
    { crmField: 'last_name', fieldId: fields.get('contact.last_name') },
    { crmField: 'primary_email', fieldId: fields.get('contact.email') },
  ],
});
if (saved.statusCode !== 200) throw new Error(saved.body);

aff.seed({ organizations: ORGS, persons: PERSONS });
const orgs = aff.organizations.filter((o) => o.name.startsWith('Org '));
orgs.forEach((o, i) =>
  aff.fieldValues.push({
    id: 10_000_000 + i,
    field_id: 101,
    entity_id: o.id,
    entity_type: 'organization',
    list_entry_id: null,
    value: ['Energy', 'Software', 'Retail'][i % 3],
  }),
);

async function runSync(): Promise<{ seconds: number; body: Record<string, unknown> }> {
  const t0 = Date.now();
  const s = await client.post('/api/v1/crm/sync', {});
  if (s.json().status !== 'progress') throw new Error(s.body);
  for (;;) {
    const st = (await client.get('/api/v1/crm/sync')).json();
    if (st.status !== 'progress') return { seconds: (Date.now() - t0) / 1000, body: st };
    await new Promise((r) => setTimeout(r, 200));
  }
}
const load0 = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const requests0 = aff.requests.length;
const first = await runSync();
const firstRequests = aff.requests.length - requests0;
console.log(
  'first',
  first.seconds,
  JSON.stringify(first.body.result),
  `${firstRequests} requests (${aff.requests.slice(requests0).filter((r) => r.path.startsWith('/v2/')).length} v2)`,
);
for (let i = 0; i < CHANGES; i += 1) aff.fieldValues[aff.fieldValues.length - ORGS + i * Math.floor(ORGS / CHANGES)].value = `Changed ${i}`;
const second = await runSync();
console.log('second', second.seconds, JSON.stringify(second.body.result));
const count = async (t: string) =>
  (await orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from ${t} where organization_id = ?`, [organization.id]))[0].n;
console.log(
  'database',
  JSON.stringify({
    companies: await count('company'),
    contacts: await count('contact'),
    links: await count('company_contact'),
    values: await count('field_value'),
  }),
);
console.log('load', load0, '→', fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '));
await bench.close();
await aff.close();
process.exit(0);
