// `npm run bench:crm`: the first Salesforce sync of BENCH_CRM_ACCOUNTS accounts (default
// 100,000) and BENCH_CRM_CONTACTS contacts (default 200,000) from the loopback fake (2,000 records a
// query page, as Salesforce answers), run by the crmsync execution on a pg-boss worker in this
// process, then an incremental sync of BENCH_CRM_CHANGES (default 1,000) records changed in the
// fake. Mappings: Account Name / Website / Industry (a custom field), Contact First / Last name /
// Email. Writes its section of docs/benchmarks.md with --write. Needs TEST_DATABASE_URL.
import fs from 'node:fs';
import path from 'node:path';
import { FakeSalesforce } from '../../server/test/fakes/salesforce-server';
import { connectSalesforce, fieldIds } from '../../server/test/crm';
import { createOrg, signedIn } from '../../server/test/helpers';
import { startCrmBench } from './crm-bench-app';
import { newField } from '../../server/test/records';

const ACCOUNTS = Number(process.env.BENCH_CRM_ACCOUNTS ?? 100_000);
const CONTACTS = Number(process.env.BENCH_CRM_CONTACTS ?? 200_000);
const CHANGES = Number(process.env.BENCH_CRM_CHANGES ?? 1_000);

const sf = await FakeSalesforce.start({ clientId: 'sf-client', requestLimit: 1_000_000 });
const env = { SALESFORCE_CLIENT_ID: 'sf-client', SALESFORCE_LOGIN_URL: sf.url, OUTBOUND_ALLOWED_PRIVATE_HOSTS: new URL(sf.url).host };
const bench = await startCrmBench('crm', env);
const { ctx, orm } = bench;

const { admin, organization } = await createOrg(ctx, { name: 'Bench CRM' });
const client = await signedIn(ctx, admin.email);
await connectSalesforce(client, sf);
const industry = await newField(client, 'company', 'string', 'Industry');
const fields = await fieldIds(client);
const saved = await client.put('/api/v1/crm/sync-settings', {
  syncAccounts: true,
  syncContacts: true,
  accountMappings: [
    { crmField: 'Name', fieldId: fields.get('company.name') },
    { crmField: 'Website', fieldId: fields.get('company.website') },
    { crmField: 'Industry', fieldId: industry.id },
  ],
  contactMappings: [
    { crmField: 'FirstName', fieldId: fields.get('contact.first_name') },
    { crmField: 'LastName', fieldId: fields.get('contact.last_name') },
    { crmField: 'Email', fieldId: fields.get('contact.email') },
  ],
});
if (saved.statusCode !== 200) throw new Error(saved.body);

// A bulk load into Salesforce spreads over time: 1 ms between records' stamps.
sf.seed(
  'Account',
  ACCOUNTS,
  (i) => ({ Name: `Account ${i}`, Website: `account-${i}.example.com`, Industry: ['Energy', 'Software', 'Retail'][i % 3] }),
  1,
);
const accounts = sf.records.Account;
sf.seed(
  'Contact',
  CONTACTS,
  (i) => ({
    FirstName: `First${i}`,
    LastName: `Last${i}`,
    Email: `person${i}@account-${i % ACCOUNTS}.example.com`,
    AccountId: accounts[i % ACCOUNTS].Id,
  }),
  1,
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
const first = await runSync();
console.log('first', first.seconds, JSON.stringify(first.body.result));
const count = async (t: string) =>
  (await orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from ${t} where organization_id = ?`, [organization.id]))[0].n;
const companies = await count('company');
const contacts = await count('contact');
const links = await count('company_contact');
await new Promise((r) => setTimeout(r, 1100));
for (let i = 0; i < CHANGES; i += 1)
  sf.touch(
    i % 2 ? 'Contact' : 'Account',
    (i % 2 ? sf.records.Contact : accounts)[i * 7].Id,
    i % 2 ? { LastName: `Changed${i}` } : { Name: `Changed ${i}` },
  );
const second = await runSync();
console.log('incremental', second.seconds, JSON.stringify(second.body.result));
const load1 = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const r1 = first.body.result as { accounts: Record<string, number>; contacts: Record<string, number> };
const r2 = second.body.result as { accounts: Record<string, number>; contacts: Record<string, number> };

const report =
  `## CRM sync (Salesforce)

\`npm run bench:crm\` ` +
  `(tests/bench/crm-sync.ts), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: the crmsync ` +
  `execution on a pg-boss worker in the bench's process against the loopback fake of Salesforce (2,000 records a ` +
  `query page), PostgreSQL on loopback, 2 shared cores. Load average ${load0} before, ${load1} after (the bench's ` +
  `own processes count in it).

| run | records | time | target | outcome |
|---|---|---|---|---|
| first sync | ${ACCOUNTS.toLocaleString('en-US')} accounts + ${CONTACTS.toLocaleString('en-US')} contacts ` +
  `| ${first.seconds.toFixed(1)} s | ≤ 60 s (100,000 + 200,000) | ${first.body.status}: accounts ` +
  `created ${r1.accounts.created}, contacts created ${r1.contacts.created}; in the ` +
  `database ${companies} companies, ${contacts} contacts, ${links} company–contact links |
| incremental | ${CHANGES.toLocaleString('en-US')} changed records | ${second.seconds.toFixed(2)} s | ≤ 5 s ` +
  `| ${second.body.status}: accounts updated ${r2.accounts.updated}, contacts updated ${r2.contacts.updated}, read ${second.body.processed} |

Each query page is written in one transaction with a handful of set-based statements, its rows bound as one ` +
  `JSON parameter (crm_link lookup, insert … on conflict do nothing, the domain / email match of the keys it did ` +
  `not create, the custom field values, the change log, the high-water mark); two pages are written at once on ` +
  `two connections (the mark kept in page order) while the next page is read. The incremental run reads from the ` +
  `mark's second (\`SystemModstamp >= …\`), so it reads the changed records plus the few on the mark's second.
`;
console.log(report);
const file = path.resolve('docs/benchmarks.md');
const doc = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
const at = doc.indexOf('## CRM sync (Salesforce)');
const next = at < 0 ? -1 : doc.indexOf('\n## ', at + 5);
const updated = at < 0 ? `${doc.trimEnd()}\n\n${report}` : `${doc.slice(0, at)}${report}${next < 0 ? '' : doc.slice(next + 1)}`;
if (process.argv.includes('--write')) fs.writeFileSync(file, updated);
await bench.close();
await sf.close();
process.exit(0);
