// The open drafts of a record in its Activities tab (spec 000 §2 'Activities tab'): each row opens
// its floating panel. Drafts are the user's own (GET /email/pending), matched on the contact (a
// contact drawer) or the company (a company drawer).
import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import { MailEditRegular } from '@fluentui/react-icons';
import { isDraftBusy } from '../../domain';
import { useDrafts } from './DraftsContext';

export const DRAFTS_GROUP = 'Drafts';

const useStyles = makeStyles({
  group: { display: 'flex', flexDirection: 'column', gap: '2px', padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}` },
  heading: { fontSize: tokens.fontSizeBase200, fontWeight: tokens.fontWeightSemibold, color: tokens.colorNeutralForeground3 },
  row: { justifyContent: 'flex-start', textAlign: 'left', minWidth: 0, width: '100%', fontWeight: tokens.fontWeightRegular },
  text: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  subject: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  sub: { fontSize: tokens.fontSizeBase100, color: tokens.colorNeutralForeground3 },
});

export function DraftItems({ entityType, id }: { entityType: 'company' | 'contact'; id: string }) {
  const styles = useStyles();
  const drafts = useDrafts();
  if (!drafts) return null;
  const mine = drafts.drafts.filter((d) => (entityType === 'contact' ? d.contact?.id === id : d.companyId === id));
  if (mine.length === 0) return null;
  return (
    <section className={styles.group} aria-label={DRAFTS_GROUP} data-testid="activity-drafts">
      <span className={styles.heading}>{`${DRAFTS_GROUP} (${mine.length})`}</span>
      {mine.map((d) => (
        <Button
          key={d.channelEmailId}
          appearance="subtle"
          className={styles.row}
          icon={<MailEditRegular />}
          onClick={() => drafts.open(d.channelEmailId)}
          data-testid="activity-draft"
          data-id={d.channelEmailId}
        >
          <span className={styles.text}>
            <Text className={styles.subject}>{d.subject || '(no subject)'}</Text>
            <span
              className={styles.sub}
            >{`Draft to ${d.title || d.to}${isDraftBusy(d.status) ? ' · being written' : d.status === 'error' ? ' · error' : ''}`}</span>
          </span>
        </Button>
      ))}
    </section>
  );
}
