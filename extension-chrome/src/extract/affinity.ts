// Affinity: organization and person profile pages (https://<team>.affinity.co/companies/<id>,
// /persons/<id>). The id comes from the address; the name from the profile header's heading; the
// domain from the header's website link (social and data-provider links are skipped); a person's
// email from its mailto link and their company from the first organization linked on the profile.
import { deepQuery, deepQueryAll, emailOf, firstText, firstWebsite, splitName, textOf, titlePrefix } from './dom';
import type { PageRecord } from './types';

const PATH = /^\/(companies|persons)\/(\d+)(?:\/|$)/;
const NOT_A_WEBSITE = new RegExp(
  '(^|\\.)(affinity\\.co|linkedin\\.com|twitter\\.com|x\\.com|facebook\\.com|instagram\\.com|crunchbase\\.com|angel\\.co|' +
    'wellfound\\.com|youtube\\.com|github\\.com|google\\.com|pitchbook\\.com)$',
  'i',
);
const HEADER = ['[data-testid="profile-header"]', '[class*="ProfileHeader"]', '[class*="profile-header"]', 'header', 'main'];

function header(doc: Document): Element | Document {
  for (const s of HEADER) {
    const el = deepQuery(doc, s);
    if (el && el.querySelector('h1')) return el;
  }
  return doc;
}

export function extractAffinity(doc: Document, url: URL): PageRecord | null {
  const m = PATH.exec(url.pathname);
  if (!m) return null;
  const root = header(doc);
  const name = firstText(root, ['[data-testid="entity-name"]', 'h1']) || titlePrefix(doc);
  if (!name || /^affinity$/i.test(name)) return null;
  if (m[1] === 'companies') {
    const site = firstWebsite(
      root,
      ['[data-testid="entity-domain"] a[href]', '[data-testid="entity-domain"]', 'a[href^="http"]'],
      NOT_A_WEBSITE,
    );
    return {
      kind: 'company',
      source: 'affinity',
      crmId: m[2],
      name,
      website: site?.website ?? null,
      domain: site?.domain ?? null,
      url: url.href,
    };
  }
  const mail = deepQuery(root, 'a[href^="mailto:"]') ?? deepQuery(doc, 'a[href^="mailto:"]');
  const email = emailOf(mail?.getAttribute('href'));
  let company: Extract<PageRecord, { kind: 'person' }>['company'] = null;
  for (const a of deepQueryAll(doc, 'a[href*="/companies/"]')) {
    const id = /\/companies\/(\d+)/.exec(a.getAttribute('href') ?? '')?.[1];
    if (id && textOf(a)) {
      company = { name: textOf(a), crmId: id, website: null, domain: null };
      break;
    }
  }
  const { firstName, lastName } = splitName(name);
  return { kind: 'person', source: 'affinity', crmId: m[2], name, firstName, lastName, email, company, url: url.href };
}
