// The CRM card's sync line: the organization's sync while it runs and for ten minutes after it
// ended — records synced / total when the CRM tells it (Salesforce does; Affinity's total is not
// known until the end), the rate and the time left, and Cancel (a sync stops at its next page).
// The same shared progress line as every long run, fed by the crmsync execution's events.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type CrmProvider } from '../../contracts';
import { CRM_NAMES } from '../../domain';
import { realtimePaths } from '../../domain';
import { useApi } from '../ApiContext';
import { useRealtimeEvents } from '../realtime/RealtimeProvider';
import { RunProgress } from '../progress/RunProgress';
import { CRM_SYNC_STATUS_KEY } from './CrmSyncButton';

/** How long an ended sync stays on the card. */
const RECENT_MS = 10 * 60_000;

export function CrmSyncProgress({ provider }: { provider: CrmProvider }) {
  const api = useApi();
  const qc = useQueryClient();
  const status = useQuery({
    queryKey: CRM_SYNC_STATUS_KEY,
    queryFn: () => api.crm.syncStatus(),
    refetchInterval: (q) => (q.state.data?.status === 'progress' ? 4_000 : false),
  });
  useRealtimeEvents(
    ({ oid }) => realtimePaths.executions(oid, 'crmsync'),
    () => void qc.invalidateQueries({ queryKey: CRM_SYNC_STATUS_KEY }),
  );
  const s = status.data;
  if (!s?.executionId) return null;
  const recent = s.status === 'progress' || (s.completedAt !== null && Date.parse(s.completedAt) > Date.now() - RECENT_MS);
  if (!recent) return null;
  return (
    <div data-testid={`${provider}-sync-progress`}>
      <RunProgress id={s.executionId} label={`Syncing with ${CRM_NAMES[provider]}`} />
    </div>
  );
}
