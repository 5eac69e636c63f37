// Who a play run skipped (the toast under 'N entities have missing information and could not be
// processed.'): each company or contact by name, what it lacks, and a link to fix it — its edit
// dialog for its own details (or its key contact's, when that one has no address), its drawer for a
// missing link (primary company, key contact). The first few are listed; the rest are counted.
import { Link, makeStyles, tokens } from '@fluentui/react-components';
import type { PlaySkippedTarget } from '../../contracts';
import { missingInfoText } from '../../domain';

/** How many skipped targets the toast lists. */
export const SKIPPED_SHOWN = 5;

const useStyles = makeStyles({
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '2px' },
  item: { display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: tokens.spacingHorizontalS },
  name: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  what: { color: tokens.colorNeutralForeground2 },
  more: { color: tokens.colorNeutralForeground3 },
});

export function fixLabel(t: PlaySkippedTarget): string {
  if (t.fix.action === 'open') return t.entityType === 'company' ? 'Set a key contact' : 'Link a company';
  return t.fix.entityType !== t.entityType ? 'Edit the key contact' : `Edit ${t.entityType}`;
}

export function SkippedTargets({
  skipped,
  total,
  onFix,
}: {
  skipped: readonly PlaySkippedTarget[];
  /** How many were skipped in all (the answer names the first ones). */
  total: number;
  /** Opens the record to fix; absent where no drawer is at hand (the names and reasons still show). */
  onFix?: (target: PlaySkippedTarget) => void;
}) {
  const styles = useStyles();
  const shown = skipped.slice(0, SKIPPED_SHOWN);
  const more = Math.max(0, total - shown.length);
  return (
    <ul className={styles.list} aria-label="Skipped" data-testid="play-skipped">
      {shown.map((t) => (
        <li key={t.entityId} className={styles.item} data-testid="play-skipped-item" data-entity-id={t.entityId}>
          <span className={styles.name} data-testid="play-skipped-name">
            {t.name}
          </span>
          <span className={styles.what} data-testid="play-skipped-missing">
            {missingInfoText(t.missing)}
          </span>
          {onFix && (
            <Link as="button" onClick={() => onFix(t)} aria-label={`${fixLabel(t)}: ${t.name}`} data-testid="play-skipped-fix">
              {fixLabel(t)}
            </Link>
          )}
        </li>
      ))}
      {more > 0 && <li className={styles.more} data-testid="play-skipped-more">{`and ${more.toLocaleString('en-US')} more`}</li>}
    </ul>
  );
}
