// The outbound phase of a CRM sync: what changed in Dealscout written back to the CRM. The sync
// execution calls pushChanges() after the inbound phase.
//
// NOT BUILT YET (issue 23): companies and contacts created in Dealscout and mapped fields changed
// here (enrichment results included) written back — Salesforce sObject collections (≤ 200 records a
// call) or Bulk API 2.0 ingest above a few thousand, Affinity organizations / persons / field
// values — and sent emails and logged activities as Salesforce Tasks or Affinity notes. The adapter
// methods for those writes are another branch's work (issue-23b); once they exist, this function
// reads the records whose mapped fields changed after their last sync (crm_sync_change, side
// 'crm', is where each write is logged) and writes them with the execution id as the idempotency
// key. Until then it writes nothing and answers null, which the sync result reports as
// `outbound: null`.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CrmProvider } from '@dealscout/shared/contracts';
import type { ResolvedMapping } from './inbound';

export interface PushContext {
  em: EntityManager;
  organizationId: string;
  provider: CrmProvider;
  executionId: string;
  accountMappings: readonly ResolvedMapping[];
  contactMappings: readonly ResolvedMapping[];
  signal: AbortSignal;
}

export interface PushOutcome { written: number; failed: number }

export async function pushChanges(_ctx: PushContext): Promise<PushOutcome | null> {
  return null;
}
