// `node --import tsx tests/bench/crm-write.ts` (the CRM write layer): the CrmWriter
// against the loopback fakes, no database. Salesforce: 100,000 new accounts and 200,000 new contacts
// (Bulk API 2.0 upserts by Dealscout_Id__c), then 1,000 changed accounts (sObject Collections, 5
// requests), then the same 1,000 again (idempotent re-run). Affinity: 500 new organizations with
// two field values each (lookup, create, field values: sequential requests). Prints a Markdown table.
import { FakeSalesforce } from '../../server/test/fakes/salesforce-server';
import { FakeAffinity } from '../../server/test/fakes/affinity-server';
import { SalesforceClient, authorizationUrl, exchangeCode } from '../../server/src/modules/crm/providers/salesforce';
import { AffinityClient } from '../../server/src/modules/crm/providers/affinity';
import { AffinityCrmWriter, SalesforceCrmWriter, type CrmWriteResult } from '../../server/src/modules/crm/providers/writer';
import { pkcePair } from '../../server/test/pkce';

const ACCOUNTS = Number(process.env.BENCH_CRM_ACCOUNTS ?? 100_000);
const CONTACTS = Number(process.env.BENCH_CRM_CONTACTS ?? 200_000);
const CHANGES = Number(process.env.BENCH_CRM_CHANGES ?? 1_000);
const AFFINITY_ORGS = Number(process.env.BENCH_CRM_AFFINITY ?? 500);

const rows: Array<[string, string]> = [];
async function timed(label: string, fn: () => Promise<CrmWriteResult[]>): Promise<void> {
  const t0 = performance.now();
  const res = await fn();
  const s = (performance.now() - t0) / 1000;
  const bad = res.filter((r) => r.error !== null).length;
  const created = res.filter((r) => r.error === null && r.created).length;
  rows.push([label, `${s.toFixed(2)} s (${res.length} records, ${created} created, ${bad} failed)`]);
  console.log(label, s.toFixed(2), 's', { created, bad });
}

const sf = await FakeSalesforce.start({ clientId: 'bench', clientSecret: 'bench', requestLimit: 1_000_000 });
const cfg = { clientId: 'bench', clientSecret: 'bench', loginUrl: sf.url, redirectUri: 'http://localhost/cb' };
const { verifier, challenge } = await pkcePair();
const authUrl = new URL(authorizationUrl(cfg, 's', challenge));
const consent = await fetch(`${sf.url}/services/oauth2/authorize`, {
  method: 'POST',
  redirect: 'manual',
  body: new URLSearchParams({
    client_id: 'bench',
    redirect_uri: cfg.redirectUri,
    state: 's',
    code_challenge: authUrl.searchParams.get('code_challenge') ?? '',
    decision: 'allow',
  }),
});
const code = new URL(consent.headers.get('location') ?? '').searchParams.get('code') ?? '';
const client = new SalesforceClient(cfg, await exchangeCode(cfg, code, verifier));
const writer = new SalesforceCrmWriter(client, { bulkPollIntervalMs: 200 });

await timed(`Salesforce: ${ACCOUNTS.toLocaleString('en')} new accounts (Bulk API 2.0 upsert)`, () =>
  writer.upsertAccounts(
    Array.from({ length: ACCOUNTS }, (_, i) => ({
      localId: `co-${i}`,
      fields: { Name: `Company ${i}`, Website: `company${i}.example.com`, NumberOfEmployees: i % 5000 },
    })),
  ),
);
await timed(`Salesforce: ${CONTACTS.toLocaleString('en')} new contacts (Bulk API 2.0 upsert)`, () =>
  writer.upsertContacts(
    Array.from({ length: CONTACTS }, (_, i) => ({
      localId: `ct-${i}`,
      fields: { FirstName: 'Pat', LastName: `Person ${i}`, Email: `p${i}@company${i % ACCOUNTS}.example.com` },
    })),
  ),
);
const changes = Array.from({ length: CHANGES }, (_, i) => ({
  localId: `co-${(i * 37) % ACCOUNTS}`,
  fields: { Name: `Company ${i} renamed`, Industry: 'Software' },
}));
await timed(`Salesforce: ${CHANGES.toLocaleString('en')} changed accounts (collections, ${Math.ceil(CHANGES / 200)} requests)`, () =>
  writer.upsertAccounts(changes),
);
await timed(`Salesforce: the same ${CHANGES.toLocaleString('en')} again (re-run)`, () => writer.upsertAccounts(changes));
rows.push([
  'Salesforce records after the runs',
  `${sf.records.Account.length.toLocaleString('en')} accounts, ${sf.records.Contact.length.toLocaleString('en')} contacts`,
]);
await sf.close();

const aff = await FakeAffinity.start({ apiKeys: ['bench'] });
const aw = new AffinityCrmWriter(new AffinityClient({ apiKey: 'bench', baseUrl: aff.url }));
await timed(`Affinity: ${AFFINITY_ORGS} new organizations with 2 field values (sequential)`, () =>
  aw.upsertAccounts(
    Array.from({ length: AFFINITY_ORGS }, (_, i) => ({
      localId: `a-${i}`,
      fields: { name: `Org ${i}`, domain: `org${i}.example.com`, '103': i, '104': 'bench' },
    })),
  ),
);
rows.push(['Affinity requests', String(aff.requests.length)]);
await aff.close();

const load = (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').trim();
console.log(
  `\n| figure | value |\n|---|---|\n${rows.map(([a, b]) => `| ${a} | ${b} |`).join('\n')}\n\nload average before the end: ${load}`,
);
