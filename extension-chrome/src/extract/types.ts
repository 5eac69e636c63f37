// What a content script reads from a CRM or LinkedIn page and tells the side panel.

export type RecordSource = 'salesforce' | 'affinity' | 'linkedin' | 'hubspot';

export const SOURCE_LABELS: Record<RecordSource, string> = {
  salesforce: 'Salesforce',
  affinity: 'Affinity',
  linkedin: 'LinkedIn',
  hubspot: 'HubSpot',
};

export interface PageCompany {
  kind: 'company';
  source: RecordSource;
  /** The CRM's own id of the record (Salesforce Account Id, Affinity organization id, LinkedIn company slug, HubSpot company id). */
  crmId: string | null;
  name: string;
  /** As shown on the page (may be a bare domain). */
  website: string | null;
  /** Lowercased host without www. (normalizeDomain of the website). */
  domain: string | null;
  url: string;
}

export interface PagePerson {
  kind: 'person';
  source: RecordSource;
  /** The CRM's own id of the person (Salesforce Contact Id, Affinity person id). */
  crmId: string | null;
  name: string;
  firstName: string;
  lastName: string;
  email: string | null;
  /** The person's company when the page shows it (a Salesforce Contact's Account…). */
  company: { name: string; crmId: string | null; website: string | null; domain: string | null } | null;
  url: string;
}

export type PageRecord = PageCompany | PagePerson;
