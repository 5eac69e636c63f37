// The header's CRM sync icon (spec 000 §2; 001 §4 'CRM sync result', §8 'CRM sync toasts', 'Sync
// tooltips'). Tooltip: not enabled (no active CRM) → disabled; a User without a linked CRM username →
// disabled with the profile hint; otherwise 'Click to fetch your data from {crm}'. A click starts
// the sync; every answer is a toast that stays until dismissed (a server message first): invalid
// (the settings message), progress ('Sync in progress, please wait..'), then completed ('Sync
// completed successfully!' or 'Sync completed with failures!') or failed ('Error syncing data' or
// the server's message). On completion the company and contact tables reload. The outcome is
// followed over the realtime feed (org/{oid}/executions/crmsync) with a poll as a fallback.
import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Spinner, Tooltip, makeStyles } from '@fluentui/react-components';
import { ArrowSyncRegular } from '@fluentui/react-icons';
import { type CrmSyncResponse } from '../../contracts';
import { CRM_NAMES, CRM_SYNC_MESSAGES } from '../../domain';
import { realtimePaths } from '../../domain';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { serverMessage } from '../server-message';
import { useRealtimeEvents } from '../realtime/RealtimeProvider';
import { CRM_USER_SETTINGS_KEY } from './state';

export const CRM_SYNC_STATUS_KEY = ['crm', 'sync'] as const;
const STICKY = 0;
const KIND = 'crm-sync';

const useStyles = makeStyles({ iconButton: { minWidth: '32px' } });

/** The tooltip and whether the icon is enabled, from the active CRM and the caller's link. */
export function syncTooltip(
  s: { provider: 'salesforce' | 'affinity' | null; crmUserId: string | null } | undefined,
  isAdmin: boolean,
): { text: string; enabled: boolean } {
  if (!s?.provider) return { text: CRM_SYNC_MESSAGES.tooltipNotEnabled, enabled: false };
  const name = CRM_NAMES[s.provider];
  if (!isAdmin && !s.crmUserId) return { text: CRM_SYNC_MESSAGES.tooltipUsername(name), enabled: false };
  return { text: CRM_SYNC_MESSAGES.tooltipFetch(name), enabled: true };
}

export function CrmSyncButton({ isAdmin }: { isAdmin: boolean }) {
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: CRM_USER_SETTINGS_KEY, queryFn: async () => (await api.crm.userSettings()).settings });
  // The execution this page started or saw running: its end is announced once.
  const [watching, setWatching] = useState<string | null>(null);
  const announced = useRef<string | null>(null);
  const status = useQuery({
    queryKey: CRM_SYNC_STATUS_KEY,
    queryFn: async () => api.crm.syncStatus(),
    enabled: Boolean(settings.data?.provider),
    refetchInterval: (q) => ((q.state.data as CrmSyncResponse | undefined)?.status === 'progress' || watching ? 2_000 : false),
  });
  useRealtimeEvents(
    ({ oid }) => realtimePaths.executions(oid, 'crmsync'),
    () => {
      void queryClient.invalidateQueries({ queryKey: CRM_SYNC_STATUS_KEY });
    },
  );

  const s = status.data;
  useEffect(() => {
    if (!s || !watching || s.executionId !== watching || s.status === 'progress' || announced.current === watching) return;
    announced.current = watching;
    setWatching(null);
    if (s.status === 'completed') {
      if (s.message === CRM_SYNC_MESSAGES.failures) notify.warning(s.message, STICKY, { kind: KIND });
      else notify.success(s.message ?? CRM_SYNC_MESSAGES.completed, STICKY, { kind: KIND });
      void queryClient.invalidateQueries({ queryKey: ['companies'] });
      void queryClient.invalidateQueries({ queryKey: ['contacts'] });
      void queryClient.invalidateQueries({ queryKey: ['company'] });
      void queryClient.invalidateQueries({ queryKey: ['contact'] });
      void queryClient.invalidateQueries({ queryKey: ['crm', 'sync-changes'] });
    } else {
      notify.error(s.message ?? CRM_SYNC_MESSAGES.error, STICKY, { kind: KIND });
    }
  }, [s, watching, notify, queryClient]);

  const running = s?.status === 'progress';
  const tip = syncTooltip(settings.data ?? undefined, isAdmin);
  const start = async () => {
    try {
      const res = await api.crm.sync();
      if (res.status === 'invalid') {
        notify.error(res.message ?? CRM_SYNC_MESSAGES.invalidSettings, STICKY, { kind: KIND });
        return;
      }
      notify.info(res.message ?? CRM_SYNC_MESSAGES.progress, STICKY, { kind: KIND });
      setWatching(res.executionId);
      announced.current = null;
      queryClient.setQueryData(CRM_SYNC_STATUS_KEY, res);
    } catch (e) {
      notify.error(serverMessage(e) ?? CRM_SYNC_MESSAGES.error, STICKY, { kind: KIND });
    }
  };
  return (
    <Tooltip content={running ? CRM_SYNC_MESSAGES.progress : tip.text} relationship="description">
      <Button
        appearance="subtle"
        className={styles.iconButton}
        icon={running ? <Spinner aria-hidden size="tiny" /> : <ArrowSyncRegular />}
        disabledFocusable={!tip.enabled}
        onClick={() => {
          if (tip.enabled) void start();
        }}
        aria-label="CRM sync"
        aria-busy={running}
        data-testid="crm-sync-button"
      />
    </Tooltip>
  );
}
