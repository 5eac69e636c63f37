// The signed-in panel's body: the record of the page in the active tab. Without one it says which
// pages it reads (PageStatus); with one, RecordView looks it up on the server and shows it in the
// shared detail drawer. Cells update live through the realtime provider mounted by connected.tsx.
import { useEffect } from 'react';
import { useDrawer } from '@dealscout/shared/ui';
import type { PageState } from './usePageRecord';
import { PANEL_TEXTS, PageStatus, lookupKey } from './record-panel-common';
import RecordView from './RecordView';

export { PANEL_TEXTS, lookupKey };

export function RecordPanel({ page, userId }: { page: PageState; userId: string }) {
  const { close } = useDrawer();
  const record = page.record;
  useEffect(() => {
    if (!record) close();
  }, [record, close]);
  if (!record) return <PageStatus page={page} />;
  return <RecordView record={record} userId={userId} />;
}
