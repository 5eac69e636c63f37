// Salesforce Lightning Experience: Account and Contact record pages
// (https://<MyDomain>.lightning.force.com/lightning/r/Account/001…/view). The record id comes from
// the address; the name from the highlights panel; the website, email and account from the record's
// fields, found by their stable `data-target-selection-name` (sfdc:RecordField.<Object>.<Field>)
// or `field-label`. A console keeps earlier records' DOM hidden: only the active view is read.
import { deepQuery, deepQueryAll, emailOf, firstText, firstWebsite, splitName, textOf, titlePrefix } from './dom';
import type { PageRecord } from './types';

const RECORD_PATH = /^\/lightning\/r\/(?:(Account|Contact)\/)?([a-zA-Z0-9]{15}(?:[a-zA-Z0-9]{3})?)\/view/;
const SF_HOSTS = /(^|\.)(force\.com|salesforce\.com|salesforce-setup\.com|visualforce\.com)$/i;

/** 'Account' | 'Contact' and the record id of a Lightning record address, else null. */
export function salesforceRecordRef(url: URL): { object: 'Account' | 'Contact'; id: string } | null {
  const m = RECORD_PATH.exec(url.pathname);
  if (!m) return null;
  const id = m[2];
  const object =
    (m[1] as 'Account' | 'Contact' | undefined) ?? (id.startsWith('001') ? 'Account' : id.startsWith('003') ? 'Contact' : null);
  return object ? { object, id } : null;
}

function fieldRoot(scope: Document | Element, object: string, field: string, label: string): Element | null {
  return (
    deepQuery(scope, `[data-target-selection-name="sfdc:RecordField.${object}.${field}"]`) ??
    deepQuery(scope, `records-record-layout-item[field-label="${label}"]`) ??
    highlightsItem(scope, label)
  );
}

/** A highlights-panel item ('Website', 'Phone'…) by its label. */
function highlightsItem(scope: Document | Element, label: string): Element | null {
  for (const item of deepQueryAll(scope, 'records-highlights-details-item')) {
    const l = item.querySelector('.slds-text-title, [title]');
    if (l && (l.getAttribute('title') === label || textOf(l) === label)) return item;
  }
  return null;
}

export function extractSalesforce(doc: Document, url: URL): PageRecord | null {
  const ref = salesforceRecordRef(url);
  if (!ref) return null;
  const scope: Document | Element = deepQuery(doc, '.oneContent.active') ?? doc;
  const name =
    firstText(scope, [
      'records-highlights2 [slot="primaryField"]',
      'h1 [slot="primaryField"]',
      '.slds-page-header__title [slot="primaryField"]',
      'h1 .slds-page-header__title',
      '.slds-page-header__title',
    ]) || titlePrefix(doc);
  if (!name || /^(salesforce|lightning experience)$/i.test(name)) return null;

  if (ref.object === 'Account') {
    const root = fieldRoot(scope, 'Account', 'Website', 'Website');
    const site = root ? firstWebsite(root, ['a[href]', 'lightning-formatted-url', '.slds-form-element__static'], SF_HOSTS) : null;
    return {
      kind: 'company',
      source: 'salesforce',
      crmId: ref.id,
      name,
      website: site?.website ?? null,
      domain: site?.domain ?? null,
      url: url.href,
    };
  }

  const emailRoot = fieldRoot(scope, 'Contact', 'Email', 'Email');
  const mail = emailRoot?.querySelector('a[href^="mailto:"]');
  const email = emailOf(mail?.getAttribute('href')) ?? emailOf(textOf(emailRoot));
  const accountRoot = fieldRoot(scope, 'Contact', 'AccountId', 'Account Name');
  const accountLink = accountRoot?.querySelector('a[href]') ?? null;
  let company: Extract<PageRecord, { kind: 'person' }>['company'] = null;
  if (accountLink && textOf(accountLink)) {
    const href = accountLink.getAttribute('href') ?? '';
    const accountRef = salesforceRecordRef(new URL(href, url));
    company = { name: textOf(accountLink), crmId: accountRef?.object === 'Account' ? accountRef.id : null, website: null, domain: null };
  }
  const { firstName, lastName } = splitName(name);
  return { kind: 'person', source: 'salesforce', crmId: ref.id, name, firstName, lastName, email, company, url: url.href };
}
