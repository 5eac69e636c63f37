// A collapsible section of the Details tab: a header (toggle, title, count, actions) and its body.
import { useId, type ReactNode } from 'react';
import { Button, CounterBadge, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ChevronDownRegular, ChevronRightRegular } from '@fluentui/react-icons';
import type { SectionKey } from './drawer-rules';

const useStyles = makeStyles({
  section: { borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  header: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    minHeight: '40px',
    padding: `0 ${tokens.spacingHorizontalS} 0 ${tokens.spacingHorizontalXS}`,
  },
  toggle: {
    flexGrow: 1,
    justifyContent: 'flex-start',
    minWidth: 0,
    fontWeight: tokens.fontWeightSemibold,
    paddingLeft: tokens.spacingHorizontalXS,
  },
  toggleText: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  actions: { display: 'flex', alignItems: 'center', gap: '2px', flexShrink: 0 },
  body: { padding: `0 ${tokens.spacingHorizontalM} ${tokens.spacingVerticalM}` },
});

export function DrawerSection(props: {
  /** A persisted section's key, or 'crmSync' (the sync history, open state kept by the section itself). */
  id: SectionKey | 'crmSync';
  title: string;
  count?: number;
  open: boolean;
  onToggle: () => void;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const styles = useStyles();
  const bodyId = useId();
  return (
    <section
      className={styles.section}
      data-testid={`drawer-section-${props.id}`}
      data-open={props.open ? 'true' : 'false'}
      aria-label={props.title}
    >
      <div className={styles.header}>
        <Button
          appearance="transparent"
          className={styles.toggle}
          icon={props.open ? <ChevronDownRegular /> : <ChevronRightRegular />}
          aria-expanded={props.open}
          aria-controls={bodyId}
          onClick={props.onToggle}
          data-testid={`drawer-section-toggle-${props.id}`}
        >
          <span className={styles.toggleText}>{props.title}</span>
        </Button>
        {props.count !== undefined && props.count > 0 && (
          <CounterBadge count={props.count} appearance="ghost" color="informative" size="small" />
        )}
        {props.actions && <div className={styles.actions}>{props.actions}</div>}
      </div>
      {props.open && (
        <div className={styles.body} id={bodyId}>
          {props.children}
        </div>
      )}
    </section>
  );
}

const useEmptyStyles = makeStyles({
  empty: { color: tokens.colorNeutralForeground3, display: 'block', padding: `${tokens.spacingVerticalXS} 0` },
});

export function SectionNote({ children, testId }: { children: ReactNode; testId?: string }) {
  const styles = useEmptyStyles();
  return (
    <Text size={200} className={styles.empty} data-testid={testId}>
      {children}
    </Text>
  );
}
