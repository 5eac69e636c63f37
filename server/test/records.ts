// Fixtures for the companies, contacts and custom fields tests: thin wrappers over the real API
// that fail loudly, so a test body reads as the behaviour it checks.
import { expect } from 'vitest';
import type { TestClient } from './helpers';

export interface CompanyLike {
  id: string;
  name: string;
  website: string;
  domain: string;
  [k: string]: unknown;
}
export interface ContactLike {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  [k: string]: unknown;
}
export interface FieldLike {
  id: string;
  key: string;
  label: string;
  dataType: string;
  entityType: string;
  [k: string]: unknown;
}

let n = 0;
/** A unique suffix for names, domains and emails within a test file. */
export function uniq(): string {
  n += 1;
  return `${n}${Math.random().toString(36).slice(2, 7)}`;
}

export async function newCompany(
  c: TestClient,
  company: { name?: string; website?: string; accountOwnerId?: string | null } = {},
): Promise<CompanyLike> {
  const u = uniq();
  const res = await c.post('/api/v1/entity/company', {
    company: { name: `Company ${u}`, website: `https://company-${u}.example.com`, ...company },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().company;
}

export async function newContact(
  c: TestClient,
  contact: { firstName?: string; lastName?: string; email?: string; accountOwnerId?: string | null } = {},
): Promise<ContactLike> {
  const u = uniq();
  const res = await c.post('/api/v1/entity/contact', {
    contact: { firstName: 'Pat', lastName: `Person${u}`, email: `pat${u}@example.com`, ...contact },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().contact;
}

export async function newField(
  c: TestClient,
  entityType: 'company' | 'contact',
  dataType: string,
  label = `Field ${uniq()}`,
): Promise<FieldLike> {
  const res = await c.post('/api/v1/entity/field', { label, dataType, entityType });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().field;
}

export async function setValue(
  c: TestClient,
  entityType: 'company' | 'contact',
  entityId: string,
  fieldId: string,
  value: unknown,
): Promise<void> {
  const res = await c.put(`/api/v1/entity/${entityType}/field`, { entityId, fieldId, value });
  expect(res.statusCode, res.body).toBe(200);
}

export async function link(
  c: TestClient,
  companyId: string,
  contactId: string,
  extra: { label?: string | null; value?: string | null } = {},
) {
  const res = await c.post('/api/v1/company/create-mapping', { companyId, contactId, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().mapping as {
    companyId: string;
    contactId: string;
    isKey: boolean;
    isPrimary: boolean;
    label: string | null;
    value: string | null;
  };
}

/** A filter as the table sends it. */
export function f(key: string, items: [string, unknown][], operator?: 'and' | 'or') {
  return { key, operator, items: items.map(([condition, data], i) => ({ id: String(i + 1), condition, data })) };
}
