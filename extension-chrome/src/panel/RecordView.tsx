// The record part of the side panel (in the connected chunk, see connected.tsx): the page's record
// looked up on the server, then the shared detail drawer
// in plugin mode with the Enrich popover above it, or 'Create company' / 'Create contact' prefilled
// from the page for an unknown one. A company goes into a list ('Add to list'), and the lists that
// hold it show with its scores and key enrichments.
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Spinner, Text } from '@fluentui/react-components';
import { AddRegular, BuildingRegular, PersonRegular } from '@fluentui/react-icons';
import type { LookupMatch } from '@dealscout/shared/contracts';
import {
  AddToListButton,
  CompanyDialog,
  CompanyListsSection,
  ContactDialog,
  EnrichPopover,
  RecordDrawer,
  queryKeys,
  useApi,
  useDrawer,
  type EnrichRow,
} from '@dealscout/shared/ui';
import { SOURCE_LABELS, type PageRecord } from '../extract/types';
import { RECORD_SHOWN_MARK } from './usePageRecord';
import { PANEL_TEXTS, lookupKey, useRecordPanelStyles as useStyles } from './record-panel-common';

export default function RecordView({ record, userId }: { record: PageRecord; userId: string }) {
  const styles = useStyles();
  const api = useApi();
  const qc = useQueryClient();
  const drawer = useDrawer();
  const lookup = useQuery({
    queryKey: lookupKey(record),
    queryFn: async () => {
      const r = record;
      const res = await api.entity.lookup(
        r.kind === 'company'
          ? { entityType: 'company', source: r.source, crmId: r.crmId, website: r.domain ?? r.website }
          : { entityType: 'contact', source: r.source, crmId: r.crmId, email: r.email },
      );
      // The details come with the answer: the drawer reads them from its own cache entry at once.
      if (res.company) qc.setQueryData(queryKeys.company(res.company.id), { success: true, company: res.company });
      if (res.contact) qc.setQueryData(queryKeys.contact(res.contact.id), { success: true, contact: res.contact });
      return res.match;
    },
    staleTime: 30_000,
  });
  const match = lookup.data ?? null;
  const { open, close } = drawer;
  useEffect(() => {
    if (match) open({ entityType: match.entityType, id: match.id });
    else close();
  }, [match?.entityType, match?.id, open, close]);

  if (lookup.isPending)
    return (
      <div className={styles.center}>
        <Spinner size="small" label={`Looking up ${record.name}...`} />
      </div>
    );
  if (lookup.isError) {
    return (
      <div className={styles.center} role="alert" data-testid="panel-lookup-error">
        <Text>{PANEL_TEXTS.lookupFailed}</Text>
        <Button onClick={() => void lookup.refetch()}>Try again</Button>
      </div>
    );
  }
  if (!match) return <UnknownRecord record={record} userId={userId} />;
  return (
    <div className={styles.root} data-testid="panel-record" data-matched-by={match.matchedBy}>
      <RecordToolbar match={match} record={record} />
      {match.entityType === 'company' && <CompanyListsOf id={match.id} />}
      <RecordDrawer className={styles.drawer} defaultOwnerId={userId} />
    </div>
  );
}

function RecordToolbar({ match, record }: { match: LookupMatch; record: PageRecord }) {
  const styles = useStyles();
  const api = useApi();
  // The same cache entries as the drawer's, so both show one reading of the record.
  const company = useQuery({
    queryKey: queryKeys.company(match.id),
    queryFn: () => api.companies.details(match.id),
    enabled: match.entityType === 'company',
  });
  const contact = useQuery({
    queryKey: queryKeys.contact(match.id),
    queryFn: () => api.contacts.details(match.id),
    enabled: match.entityType === 'contact',
  });
  const fields: EnrichRow['fields'] = (match.entityType === 'company' ? company.data?.company.fields : contact.data?.contact.fields) ?? {};
  const rows: EnrichRow[] = [{ id: match.id, fields }];
  const shown = match.entityType === 'company' ? !!company.data : !!contact.data;
  useEffect(() => {
    if (shown) performance.mark(RECORD_SHOWN_MARK, { detail: record.crmId });
  }, [shown, record.crmId]);
  return (
    <div className={styles.toolbar} data-testid="panel-toolbar">
      <EnrichPopover entityType={match.entityType} targets={{ kind: 'ids', ids: [match.id] }} rows={rows} />
      {match.entityType === 'company' && (
        <AddToListButton
          name={company.data?.company.name ?? record.name}
          website={company.data?.company.website ?? ''}
          disabled={!company.data}
        />
      )}
      <Text className={styles.source} data-testid="panel-source">
        {SOURCE_LABELS[record.source]}
      </Text>
    </div>
  );
}

/** The lists that hold the page's company, with its scores and key enrichments (below the toolbar). */
function CompanyListsOf({ id }: { id: string }) {
  const styles = useStyles();
  const api = useApi();
  const company = useQuery({ queryKey: queryKeys.company(id), queryFn: () => api.companies.details(id) });
  const website = company.data?.company.website;
  if (!website) return null;
  return (
    <div className={styles.lists}>
      <CompanyListsSection website={website} />
    </div>
  );
}

function UnknownRecord({ record, userId }: { record: PageRecord; userId: string }) {
  const styles = useStyles();
  const qc = useQueryClient();
  const [creating, setCreating] = useState(false);
  // The new record is looked up again: that finds it by domain or email and remembers the CRM id.
  const created = () => void qc.invalidateQueries({ queryKey: lookupKey(record) });
  return (
    <Card className={styles.card} data-testid="panel-unknown">
      {record.kind === 'company' ? (
        <BuildingRegular className={styles.icon} aria-hidden />
      ) : (
        <PersonRegular className={styles.icon} aria-hidden />
      )}
      <Text className={styles.cardTitle} data-testid="panel-unknown-name">
        {record.name}
      </Text>
      {record.kind === 'company' ? (
        <Text data-testid="panel-unknown-detail">{record.website ?? 'No website on the page'}</Text>
      ) : (
        <Text data-testid="panel-unknown-detail">{record.email ?? 'No email on the page'}</Text>
      )}
      <Text>{record.kind === 'company' ? PANEL_TEXTS.unknownCompany : PANEL_TEXTS.unknownContact}</Text>
      <Button appearance="primary" icon={<AddRegular />} onClick={() => setCreating(true)} data-testid="panel-create">
        {record.kind === 'company' ? 'Create company' : 'Create contact'}
      </Button>
      {record.kind === 'company' && (record.website ?? record.domain) && (
        <>
          <AddToListButton name={record.name} website={record.website ?? record.domain ?? ''} />
          <CompanyListsSection website={record.website ?? record.domain ?? ''} />
        </>
      )}
      {record.kind === 'company' ? (
        <CompanyDialog
          open={creating}
          onOpenChange={setCreating}
          defaultOwnerId={userId}
          initial={{ name: record.name, website: record.website ?? record.domain ?? '' }}
          onSaved={created}
        />
      ) : (
        <ContactDialog
          open={creating}
          onOpenChange={setCreating}
          defaultOwnerId={userId}
          initial={{ firstName: record.firstName, lastName: record.lastName, email: record.email ?? '' }}
          onSaved={created}
        />
      )}
    </Card>
  );
}
