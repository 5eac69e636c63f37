// Small helpers the extractors share. They take a Document or an Element and never touch the
// extension APIs, so they run the same in a content script and in a unit test over a fixture.
import { normalizeDomain } from '@dealscout/shared/domain';

type Root = Document | Element | ShadowRoot;

/** querySelectorAll that also looks inside open shadow roots (Lightning's native-shadow components). */
export function deepQueryAll(root: Root, selector: string): Element[] {
  const out: Element[] = [...root.querySelectorAll(selector)];
  const walk = (node: Root) => {
    for (const el of node.querySelectorAll('*')) {
      const shadow = (el as Element & { shadowRoot: ShadowRoot | null }).shadowRoot;
      if (shadow) {
        out.push(...shadow.querySelectorAll(selector));
        walk(shadow);
      }
    }
  };
  walk(root);
  return out;
}

export function deepQuery(root: Root, selector: string): Element | null {
  return deepQueryAll(root, selector)[0] ?? null;
}

/** Visible text of an element, whitespace collapsed. */
export function textOf(el: Element | null | undefined): string {
  return (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The first non-empty text among the selectors. */
export function firstText(root: Root, selectors: string[]): string {
  for (const s of selectors) {
    for (const el of deepQueryAll(root, s)) {
      const t = textOf(el);
      if (t) return t;
    }
  }
  return '';
}

const HOST_RE = /^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}$/i;

/**
 * A website as the page shows it → {website, domain}, or null when it is not a web address.
 * Redirect wrappers (LinkedIn's /redir/redirect?url=…) are unwrapped first.
 */
export function websiteOf(raw: string | null | undefined): { website: string; domain: string } | null {
  let s = (raw ?? '').trim();
  if (!s) return null;
  try {
    const u = new URL(s);
    const inner = u.searchParams.get('url');
    if (inner && /linkedin\.com$/i.test(u.hostname)) s = inner;
  } catch {
    /* a bare domain */
  }
  if (/^(mailto|tel|javascript):/i.test(s)) return null;
  const domain = normalizeDomain(s);
  if (!HOST_RE.test(domain)) return null;
  return { website: s.replace(/\/+$/, ''), domain };
}

/** The href of the first link among the selectors whose target is a website (not the CRM itself). */
export function firstWebsite(root: Root, selectors: string[], ignoreHosts: RegExp): { website: string; domain: string } | null {
  for (const s of selectors) {
    for (const el of deepQueryAll(root, s)) {
      const candidates = [el.getAttribute('href'), textOf(el)];
      for (const c of candidates) {
        const w = websiteOf(c);
        if (w && !ignoreHosts.test(w.domain)) return w;
      }
    }
  }
  return null;
}

const HONORIFICS = /^(mr|mrs|ms|miss|mx|dr|prof)\.?$/i;

/** 'Dr. Jane van Dyke' → first 'Jane', last 'van Dyke' (honorifics dropped; one word → last name empty). */
export function splitName(full: string): { firstName: string; lastName: string } {
  const parts = full.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  while (parts.length > 1 && HONORIFICS.test(parts[0])) parts.shift();
  if (parts.length === 0) return { firstName: '', lastName: '' };
  if (parts.length === 1) return { firstName: parts[0], lastName: '' };
  // Lower-case particles belong to the last name ('van', 'de', 'von').
  let i = parts.length - 1;
  while (i > 1 && /^[a-z]/.test(parts[i - 1])) i--;
  return { firstName: parts.slice(0, i).join(' '), lastName: parts.slice(i).join(' ') };
}

export function emailOf(raw: string | null | undefined): string | null {
  const s = (raw ?? '')
    .replace(/^mailto:/i, '')
    .split('?')[0]
    .trim();
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s) ? s.toLowerCase() : null;
}

/** document.title without the site's suffix: 'Acme | Account | Salesforce' → 'Acme'. */
export function titlePrefix(doc: Document, separators = /\s+[|\-–·]\s+/): string {
  return (doc.title.split(separators)[0] ?? '').trim();
}
