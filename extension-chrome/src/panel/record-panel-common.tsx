// What the side panel's light frame (RecordPanel) and its lazily loaded record part (RecordView)
// share: the texts, the lookup's cache key and the styles.
import { Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { BuildingRegular } from '@fluentui/react-icons';
import type { PageRecord } from '../extract/types';
import type { PageState } from './usePageRecord';

export const PANEL_TEXTS = {
  noRecord: 'Open a company on Salesforce, Affinity, LinkedIn or HubSpot (or a Salesforce contact or Affinity person) to see it here.',
  unknownCompany: 'This company is not in Dealscout yet.',
  unknownContact: 'This person is not in Dealscout yet.',
  lookupFailed: 'Could not look this record up in Dealscout.',
} as const;

export const lookupKey = (r: PageRecord) => ['page-lookup', r.kind, r.source, r.crmId, r.kind === 'company' ? r.domain : r.email] as const;

export const useRecordPanelStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 },
  toolbar: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    flexWrap: 'wrap',
  },
  source: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200, marginLeft: 'auto' },
  drawer: { flexGrow: 1, minHeight: 0 },
  lists: {
    maxHeight: '40%',
    overflowY: 'auto',
    flexShrink: 0,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  center: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalM,
    padding: '32px 20px',
    textAlign: 'center',
    color: tokens.colorNeutralForeground3,
  },
  card: { margin: tokens.spacingHorizontalL, padding: '20px', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  cardTitle: { fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  icon: { fontSize: '32px', color: tokens.colorNeutralForeground4 },
});

/**
 * The panel's body without a record on screen yet: reading the page, 'open a CRM page' (the first
 * view), or looking the record up. In the panel's first chunk, so the first view does not wait for
 * the record part.
 */
export function PageStatus({ page }: { page: PageState }) {
  const styles = useRecordPanelStyles();
  const record = page.record;
  if (page.loading && !record)
    return (
      <div className={styles.center}>
        <Spinner size="small" label="Reading the page..." />
      </div>
    );
  if (!record)
    return (
      <div className={styles.center} data-testid="panel-no-record">
        <BuildingRegular className={styles.icon} aria-hidden />
        <Text>{PANEL_TEXTS.noRecord}</Text>
      </div>
    );
  return (
    <div className={styles.center}>
      <Spinner size="small" label={`Looking up ${record.name}...`} />
    </div>
  );
}
