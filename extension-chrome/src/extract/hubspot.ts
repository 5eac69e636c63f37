// HubSpot company records (https://app.hubspot.com/contacts/<portal>/company/<id>, or the newer
// /contacts/<portal>/record/0-2/<id>; 0-2 is HubSpot's object type id of companies). The id comes
// from the address; the name and domain from the record's highlight card (its `data-selenium-test`
// hooks) or the 'Company domain name' property.
import { deepQuery, deepQueryAll, firstText, firstWebsite, textOf, titlePrefix, websiteOf } from './dom';
import type { PageRecord } from './types';

const PATH = /^\/contacts\/(\d+)\/(?:company|record\/0-2)\/(\d+)(?:\/|$)/;
const HUBSPOT = /(^|\.)(hubspot\.com|hs-sites\.com|hubspotusercontent.*)$/i;

function propertyValue(doc: Document, names: string[]): ReturnType<typeof websiteOf> {
  for (const n of names) {
    const el = deepQuery(doc, `[data-selenium-test="property-input-${n}"]`);
    const value = el?.getAttribute('value') ?? (el instanceof HTMLInputElement ? el.value : textOf(el));
    const w = websiteOf(value);
    if (w) return w;
  }
  // A property row shown as label + value.
  for (const label of deepQueryAll(doc, 'label, [data-selenium-test="property-label"]')) {
    if (!/^(company domain name|website url|domain)$/i.test(textOf(label))) continue;
    const w = websiteOf(textOf(label.nextElementSibling)) ?? websiteOf(label.parentElement?.querySelector('input')?.getAttribute('value'));
    if (w) return w;
  }
  return null;
}

export function extractHubSpot(doc: Document, url: URL): PageRecord | null {
  const m = PATH.exec(url.pathname);
  if (!m || !/(^|\.)hubspot\.com$/i.test(url.hostname)) return null;
  const name = firstText(doc, ['[data-selenium-test="highlightTitle"]', '[data-test-id="highlight-title"]', 'h1']) || titlePrefix(doc);
  if (!name || /^hubspot$/i.test(name)) return null;
  const site =
    firstWebsite(doc, ['[data-selenium-test="highlightSubtitle"] a[href]', '[data-selenium-test="company-domain"] a[href]'], HUBSPOT) ??
    propertyValue(doc, ['domain', 'website']);
  return {
    kind: 'company',
    source: 'hubspot',
    crmId: m[2],
    name,
    website: site?.website ?? null,
    domain: site?.domain ?? null,
    url: url.href,
  };
}
