import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractAffinity, extractHubSpot, extractLinkedIn, extractSalesforce, sameRecord } from './index';
import { splitName, websiteOf } from './dom';
import { salesforceRecordRef } from './salesforce';

const fixture = (name: string): Document =>
  new DOMParser().parseFromString(readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8'), 'text/html');

describe('Salesforce Lightning', () => {
  const base = 'https://acme.lightning.force.com';

  it('reads an Account record: its id from the address, the name of the active view, the website of the highlights panel', () => {
    const url = new URL(`${base}/lightning/r/Account/0015g00000XyZaBAAV/view`);
    expect(extractSalesforce(fixture('salesforce-account.html'), url)).toEqual({
      kind: 'company',
      source: 'salesforce',
      crmId: '0015g00000XyZaBAAV',
      name: 'Acme Robotics',
      website: 'http://www.acme-robotics.com',
      domain: 'acme-robotics.com',
      url: url.href,
    });
  });

  it('reads the website from the details tab when the highlights panel has none', () => {
    const doc = fixture('salesforce-account.html');
    doc.querySelectorAll('records-highlights-details-item').forEach((e) => e.remove());
    const item = doc.createElement('records-record-layout-item');
    item.setAttribute('data-target-selection-name', 'sfdc:RecordField.Account.Website');
    item.innerHTML =
      '<span>Website</span><lightning-formatted-url><a href="https://acme-robotics.com/">acme-robotics.com</a></lightning-formatted-url>';
    doc.querySelector('.oneContent.active')!.append(item);
    const r = extractSalesforce(doc, new URL(`${base}/lightning/r/0015g00000XyZaBAAV/view`));
    expect(r).toMatchObject({
      kind: 'company',
      crmId: '0015g00000XyZaBAAV',
      website: 'https://acme-robotics.com',
      domain: 'acme-robotics.com',
    });
  });

  it('an account without a website still has its name and id', () => {
    const doc = fixture('salesforce-account.html');
    doc.querySelectorAll('records-highlights-details-item').forEach((e) => e.remove());
    expect(extractSalesforce(doc, new URL(`${base}/lightning/r/Account/0015g00000XyZaBAAV/view`))).toMatchObject({
      name: 'Acme Robotics',
      website: null,
      domain: null,
    });
  });

  it('reads a Contact record: name split without the honorific, email lowercased, its Account with the Account id', () => {
    const url = new URL(`${base}/lightning/r/Contact/0035g00000QwErTAAV/view?ws=1`);
    expect(extractSalesforce(fixture('salesforce-contact.html'), url)).toEqual({
      kind: 'person',
      source: 'salesforce',
      crmId: '0035g00000QwErTAAV',
      name: 'Dr. Jane van Dyke',
      firstName: 'Jane',
      lastName: 'van Dyke',
      email: 'jane.vandyke@acme-robotics.com',
      company: { name: 'Acme Robotics', crmId: '0015g00000XyZaBAAV', website: null, domain: null },
      url: url.href,
    });
  });

  it('is not a record page: list views, home, other objects', () => {
    const doc = fixture('salesforce-account.html');
    for (const p of [
      '/lightning/o/Account/list',
      '/lightning/page/home',
      '/lightning/r/Opportunity/0065g00000AbCdEAAV/view',
      '/lightning/r/0065g00000AbCdEAAV/view',
    ]) {
      expect(extractSalesforce(doc, new URL(base + p)), p).toBeNull();
    }
    expect(salesforceRecordRef(new URL(`${base}/lightning/r/0035g00000QwErT/view`))).toEqual({ object: 'Contact', id: '0035g00000QwErT' });
  });

  it('finds fields inside open shadow roots (native-shadow Lightning components)', () => {
    const doc = fixture('salesforce-account.html');
    doc.querySelectorAll('records-highlights-details-item').forEach((e) => e.remove());
    const host = doc.createElement('records-record-layout-item');
    doc.querySelector('.oneContent.active')!.append(host);
    const shadow = host.attachShadow({ mode: 'open' });
    shadow.innerHTML =
      '<div data-target-selection-name="sfdc:RecordField.Account.Website"><a href="https://shadow-acme.com">shadow-acme.com</a></div>';
    expect(extractSalesforce(doc, new URL(`${base}/lightning/r/Account/0015g00000XyZaBAAV/view`))).toMatchObject({
      domain: 'shadow-acme.com',
    });
  });
});

describe('Affinity', () => {
  it('reads an organization: id, name, and the website among social links', () => {
    const url = new URL('https://acmecapital.affinity.co/companies/98765');
    expect(extractAffinity(fixture('affinity-company.html'), url)).toEqual({
      kind: 'company',
      source: 'affinity',
      crmId: '98765',
      name: 'Globex Analytics',
      website: 'https://globex-analytics.io',
      domain: 'globex-analytics.io',
      url: url.href,
    });
  });

  it('reads a person: name, email and their organization with its Affinity id', () => {
    const url = new URL('https://acmecapital.affinity.co/persons/555/notes');
    expect(extractAffinity(fixture('affinity-person.html'), url)).toEqual({
      kind: 'person',
      source: 'affinity',
      crmId: '555',
      name: 'Hank Scorpio',
      firstName: 'Hank',
      lastName: 'Scorpio',
      email: 'hank@globex-analytics.io',
      company: { name: 'Globex Analytics', crmId: '98765', website: null, domain: null },
      url: url.href,
    });
  });

  it('lists and other pages are not records', () => {
    expect(extractAffinity(fixture('affinity-company.html'), new URL('https://acmecapital.affinity.co/lists/1234'))).toBeNull();
  });
});

describe('LinkedIn', () => {
  it("reads a company page: the slug as id, the top card's name and the unwrapped 'Visit website' link", () => {
    const url = new URL('https://www.linkedin.com/company/initech/');
    expect(extractLinkedIn(fixture('linkedin-company.html'), url)).toEqual({
      kind: 'company',
      source: 'linkedin',
      crmId: 'initech',
      name: 'Initech',
      website: 'https://www.initech.com',
      domain: 'initech.com',
      url: url.href,
    });
  });

  it("reads the logged-out About page: the About list's Website before the JSON-LD", () => {
    const url = new URL('https://www.linkedin.com/company/Umbrella-Corp/about/');
    expect(extractLinkedIn(fixture('linkedin-about-public.html'), url)).toMatchObject({
      crmId: 'umbrella-corp',
      name: 'Umbrella Corp',
      website: 'https://www.umbrella-corp.com',
      domain: 'umbrella-corp.com',
    });
    const doc = fixture('linkedin-about-public.html');
    doc.querySelector('.about-us')!.remove();
    expect(extractLinkedIn(doc, url)).toMatchObject({ domain: 'umbrella.example' });
  });

  it('people, feed and job pages are not company records', () => {
    for (const p of ['/feed/', '/in/someone/', '/jobs/view/1'])
      expect(extractLinkedIn(fixture('linkedin-company.html'), new URL(`https://www.linkedin.com${p}`))).toBeNull();
  });
});

describe('HubSpot', () => {
  it('reads a company record (legacy and 0-2 record addresses): id, name, domain', () => {
    for (const p of ['/contacts/4455667/company/9988776655', '/contacts/4455667/record/0-2/9988776655/view/1']) {
      const url = new URL(`https://app.hubspot.com${p}`);
      expect(extractHubSpot(fixture('hubspot-company.html'), url), p).toEqual({
        kind: 'company',
        source: 'hubspot',
        crmId: '9988776655',
        name: 'Soylent Foods',
        website: 'https://soylent-foods.com',
        domain: 'soylent-foods.com',
        url: url.href,
      });
    }
  });

  it("falls back to the 'Company domain name' property", () => {
    const doc = fixture('hubspot-company.html');
    doc.querySelector('[data-selenium-test="highlightSubtitle"]')!.remove();
    expect(extractHubSpot(doc, new URL('https://app-eu1.hubspot.com/contacts/1/record/0-2/42'))).toMatchObject({
      crmId: '42',
      website: 'soylent-foods.com',
      domain: 'soylent-foods.com',
    });
  });

  it('contacts (0-1) and other pages are not company records', () => {
    expect(extractHubSpot(fixture('hubspot-company.html'), new URL('https://app.hubspot.com/contacts/1/record/0-1/42'))).toBeNull();
    expect(extractHubSpot(fixture('hubspot-company.html'), new URL('https://www.hubspot.com/products'))).toBeNull();
  });
});

describe('helpers', () => {
  it('websiteOf: bare domains, redirects, non-web addresses', () => {
    expect(websiteOf('www.Acme.com')).toEqual({ website: 'www.Acme.com', domain: 'acme.com' });
    expect(websiteOf('https://www.linkedin.com/redir/redirect?url=https%3A%2F%2Facme.io%2F')).toEqual({
      website: 'https://acme.io',
      domain: 'acme.io',
    });
    expect(websiteOf('mailto:a@b.com')).toBeNull();
    expect(websiteOf('Customer - Direct')).toBeNull();
    expect(websiteOf('')).toBeNull();
  });

  it('splitName: honorifics, particles, single names', () => {
    expect(splitName('Mr. John Smith')).toEqual({ firstName: 'John', lastName: 'Smith' });
    expect(splitName('Ludwig van Beethoven')).toEqual({ firstName: 'Ludwig', lastName: 'van Beethoven' });
    expect(splitName('Mary Ann  Jones')).toEqual({ firstName: 'Mary Ann', lastName: 'Jones' });
    expect(splitName('Cher')).toEqual({ firstName: 'Cher', lastName: '' });
  });

  it('sameRecord tells a change from a re-read', () => {
    const url = new URL('https://www.linkedin.com/company/initech/');
    const a = extractLinkedIn(fixture('linkedin-company.html'), url);
    expect(sameRecord(a, extractLinkedIn(fixture('linkedin-company.html'), url))).toBe(true);
    expect(sameRecord(a, null)).toBe(false);
  });
});
