// LinkedIn company pages (https://www.linkedin.com/company/<slug>/, /about/ and the other tabs).
// The slug is the company's id on LinkedIn; the name is the top card's heading; the website is the
// top card's 'Visit website' link or the About tab's Website entry (LinkedIn wraps outside links in
// /redir/redirect?url=…, unwrapped), or the page's JSON-LD Organization when logged out.
import { deepQuery, deepQueryAll, firstText, firstWebsite, textOf, titlePrefix, websiteOf } from './dom';
import type { PageRecord } from './types';

const PATH = /^\/company\/([^/?#]+)/;
const LINKEDIN = /(^|\.)(linkedin\.com|licdn\.com|lnkd\.in)$/i;

function jsonLdOrganization(doc: Document): { name?: string; url?: string; sameAs?: string } | null {
  for (const s of doc.querySelectorAll('script[type="application/ld+json"]')) {
    try {
      const data = JSON.parse(s.textContent ?? '') as unknown;
      const items = Array.isArray(data) ? data : ((data as { '@graph'?: unknown[] })['@graph'] ?? [data]);
      for (const it of items as Record<string, unknown>[]) {
        if (it && it['@type'] === 'Organization') return it as { name?: string; url?: string; sameAs?: string };
      }
    } catch {
      /* not JSON */
    }
  }
  return null;
}

function aboutWebsite(doc: Document): ReturnType<typeof websiteOf> {
  for (const dt of deepQueryAll(doc, 'dt')) {
    if (textOf(dt).toLowerCase() !== 'website') continue;
    const dd = dt.nextElementSibling;
    const w = websiteOf(dd?.querySelector('a[href]')?.getAttribute('href')) ?? websiteOf(textOf(dd));
    if (w && !LINKEDIN.test(w.domain)) return w;
  }
  return null;
}

export function extractLinkedIn(doc: Document, url: URL): PageRecord | null {
  const m = PATH.exec(url.pathname);
  if (!m || !/(^|\.)linkedin\.com$/i.test(url.hostname)) return null;
  const slug = decodeURIComponent(m[1]).toLowerCase();
  const ld = jsonLdOrganization(doc);
  const top = deepQuery(doc, '.org-top-card') ?? deepQuery(doc, 'section.top-card-layout') ?? doc;
  const name =
    firstText(top, ['h1.org-top-card-summary__title', 'h1 .org-top-card-summary__title', 'h1']) || (ld?.name ?? '') || titlePrefix(doc);
  if (!name || /^linkedin$/i.test(name)) return null;
  const site =
    firstWebsite(
      top,
      [
        'a[data-control-name="top_card_visit_website"]',
        'a.org-top-card-primary-actions__action[href]',
        'a[data-tracking-control-name="about_website"]',
      ],
      LINKEDIN,
    ) ??
    aboutWebsite(doc) ??
    (ld?.sameAs ? websiteOf(ld.sameAs) : null);
  return {
    kind: 'company',
    source: 'linkedin',
    crmId: slug,
    name,
    website: site?.website ?? null,
    domain: site?.domain ?? null,
    url: url.href,
  };
}
