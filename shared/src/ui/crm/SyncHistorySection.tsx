// A record's CRM sync history in its drawer: what sync changed, on which side, when —
// created, linked to a CRM record, or a field updated (old → new), newest first. Shown when the
// organization has an active CRM; collapsed until opened (its rows are read when it opens).
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { type SyncChangeDto } from '../../contracts';
import { CRM_NAMES } from '../../domain';
import { useApi } from '../ApiContext';
import { DrawerSection } from '../drawer/DrawerSection';
import { CRM_USER_SETTINGS_KEY } from './state';

export const SYNC_CHANGES_KEY = (entityType: string, id: string) => ['crm', 'sync-changes', entityType, id] as const;

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', gap: '6px', margin: 0, padding: 0, listStyle: 'none' },
  row: { display: 'flex', flexDirection: 'column', gap: '2px' },
  meta: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  empty: { color: tokens.colorNeutralForeground3 },
});

export function syncChangeText(c: SyncChangeDto): string {
  const where = c.side === 'crm' ? `in ${CRM_NAMES[c.provider]}` : 'in Dealscout';
  if (c.action === 'created')
    return `Created ${where} from ${c.side === 'crm' ? 'Dealscout' : CRM_NAMES[c.provider]}${c.crmId ? ` (${c.crmId})` : ''}`;
  if (c.action === 'linked') return `Linked to ${CRM_NAMES[c.provider]} record ${c.crmId ?? ''}`.trim();
  return `${c.fieldLabel ?? 'A field'} updated ${where}: ${c.oldValue ?? '(empty)'} → ${c.newValue ?? '(empty)'}`;
}

export function SyncHistorySection({ entityType, entityId }: { entityType: 'company' | 'contact'; entityId: string }) {
  const styles = useStyles();
  const api = useApi();
  const [open, setOpen] = useState(false);
  const crm = useQuery({
    queryKey: CRM_USER_SETTINGS_KEY,
    queryFn: async () => (await api.crm.userSettings()).settings,
    staleTime: 60_000,
  });
  const changes = useQuery({
    queryKey: SYNC_CHANGES_KEY(entityType, entityId),
    queryFn: async () => (await api.crm.syncChanges(entityType, entityId)).changes,
    enabled: open && Boolean(crm.data?.provider),
  });
  if (!crm.data?.provider) return null;
  return (
    <DrawerSection id="crmSync" title="CRM sync history" count={changes.data?.length} open={open} onToggle={() => setOpen((o) => !o)}>
      {changes.isLoading ? (
        <Spinner aria-label="Loading" size="tiny" />
      ) : changes.data && changes.data.length > 0 ? (
        <ul className={styles.list} data-testid="sync-history">
          {changes.data.map((c) => (
            <li key={c.id} className={styles.row} data-testid="sync-history-row">
              <Text size={200}>{syncChangeText(c)}</Text>
              <Text className={styles.meta}>
                {new Date(c.changedAt).toLocaleString('en-US', {
                  year: 'numeric',
                  month: 'short',
                  day: 'numeric',
                  hour: '2-digit',
                  minute: '2-digit',
                })}
              </Text>
            </li>
          ))}
        </ul>
      ) : (
        <Text className={styles.empty}>Sync has not changed this record.</Text>
      )}
    </DrawerSection>
  );
}
