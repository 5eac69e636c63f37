// The pages the content scripts run on (MV3 match patterns). Lightning, Affinity, LinkedIn and
// HubSpot are single-page apps, so each script runs on the whole app and re-reads the page when
// its address or content changes; the extractors decide whether the page is a record.
import type { RecordSource } from './types';

export const CRM_MATCHES: Record<RecordSource, string[]> = {
  salesforce: ['https://*.lightning.force.com/*'],
  affinity: ['https://*.affinity.co/*'],
  linkedin: ['https://www.linkedin.com/*'],
  hubspot: ['https://*.hubspot.com/*'],
};
