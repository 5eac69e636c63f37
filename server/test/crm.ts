// Connecting Salesforce for a test (or a bench) as an Admin would: POST /organization/integration,
// Allow on the fake's consent page, and the redirect back to the callback.
import type { TestClient } from './helpers';
import type { FakeSalesforce } from './fakes/salesforce-server';

export async function connectSalesforce(c: TestClient, sf: FakeSalesforce): Promise<void> {
  const start = await c.post('/api/v1/organization/integration', { provider: 'salesforce' });
  if (start.statusCode !== 201) throw new Error(`POST /organization/integration answered ${start.statusCode}: ${start.body}`);
  const url = new URL(start.json().authorizationUrl as string);
  const res = await fetch(`${sf.url}/services/oauth2/authorize`, {
    method: 'POST',
    body: new URLSearchParams({ ...Object.fromEntries(url.searchParams), decision: 'allow' }),
    redirect: 'manual',
  });
  const back = new URL(res.headers.get('location')!);
  const done = await c.get(`${back.pathname}${back.search}`);
  const crm = new URL(String(done.headers.location), 'http://localhost').searchParams.get('crm');
  if (crm !== 'salesforce') throw new Error(`the Salesforce callback redirected to ${String(done.headers.location)}`);
}

/** The organization's fields' ids by `entityType.key` (e.g. 'company.name'), as mappings name them. */
export async function fieldIds(c: TestClient): Promise<Map<string, string>> {
  const fields = (await c.get('/api/v1/entity/fields')).json().fields as { id: string; key: string; entityType: string }[];
  return new Map(fields.map((f) => [`${f.entityType}.${f.key}`, f.id]));
}
