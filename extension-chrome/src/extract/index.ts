// Every page reader by site. Pure: (document, address) → the record shown, or null.
import { extractAffinity } from './affinity';
import { extractHubSpot } from './hubspot';
import { extractLinkedIn } from './linkedin';
import { extractSalesforce } from './salesforce';
import type { PageRecord, RecordSource } from './types';

export type Extractor = (doc: Document, url: URL) => PageRecord | null;

export const EXTRACTORS: Record<RecordSource, Extractor> = {
  salesforce: extractSalesforce,
  affinity: extractAffinity,
  linkedin: extractLinkedIn,
  hubspot: extractHubSpot,
};

/** Two readings name the same record with the same details (so the panel is told only of changes). */
export function sameRecord(a: PageRecord | null, b: PageRecord | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export * from './types';
export { CRM_MATCHES } from './sites';
export { extractAffinity, extractHubSpot, extractLinkedIn, extractSalesforce };
