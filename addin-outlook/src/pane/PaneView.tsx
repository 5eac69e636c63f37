// The pane's frame and people list, shared by its first view (FirstView.tsx, in the first chunk)
// and the full pane (Pane.tsx, in the connected chunk): the same markup and styles, so the first
// view turns into the full pane in place. Only the Fluent parts the first view needs: Avatar,
// Badge, Spinner and Text.
import type { ReactNode } from 'react';
import { Avatar, Badge, Spinner, Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { MailRegular, PersonRegular } from '@fluentui/react-icons';
import type { MatchedContact } from '@dealscout/shared/contracts';
import { serverMessage } from '@dealscout/shared/ui';
import type { MailItem, OutlookHost } from '../office/outlook';
import type { Participant } from './people';
import type { MailItemState } from './useMailItem';

export const NO_ITEM = 'Select an email to see its people in Dealscout.';
export const NOT_IN_OUTLOOK = 'Open this pane from Outlook to see the people of an email.';
export const NO_PEOPLE = 'No one else is on this email.';
export const NO_RECIPIENTS = 'Add recipients to see them in Dealscout.';

export const usePaneStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    height: '100vh',
    minWidth: 0,
    overflow: 'hidden',
    backgroundColor: tokens.colorNeutralBackground1,
  },
  header: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexShrink: 0,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  brand: { fontWeight: tokens.fontWeightSemibold, color: tokens.colorBrandForeground1 },
  mode: {
    flexGrow: 1,
    minWidth: 0,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    color: tokens.colorNeutralForeground3,
  },
  live: { width: '8px', height: '8px', borderRadius: '50%', flexShrink: 0 },
  people: {
    flexShrink: 0,
    maxHeight: '38vh',
    overflowY: 'auto',
    padding: `${tokens.spacingVerticalXS} 0`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  person: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    width: '100%',
    boxSizing: 'border-box',
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`,
    border: 'none',
    background: 'none',
    cursor: 'pointer',
    textAlign: 'left',
    color: tokens.colorNeutralForeground1,
    fontFamily: 'inherit',
    ':hover': { backgroundColor: tokens.colorSubtleBackgroundHover },
  },
  personSelected: {
    backgroundColor: tokens.colorSubtleBackgroundSelected,
    ':hover': { backgroundColor: tokens.colorSubtleBackgroundSelected },
  },
  personTexts: { display: 'flex', flexDirection: 'column', minWidth: 0, flexGrow: 1 },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  secondary: { color: tokens.colorNeutralForeground3 },
  main: { display: 'flex', flexDirection: 'column', flexGrow: 1, minHeight: 0, overflowY: 'auto' },
  drawer: { flexGrow: 1, minHeight: '240px', height: 'auto' },
  center: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    padding: '32px 24px',
    textAlign: 'center',
    color: tokens.colorNeutralForeground3,
  },
});

/** The header's line after 'Dealscout': the subject, or what is being written. */
export function modeText(item: MailItem | null): string {
  if (!item) return '';
  return item.mode === 'read' ? item.subject || '(no subject)' : `Writing: ${item.subject || '(no subject)'}`;
}

/** The pane's root and header (brand, subject, then `actions`); below them `children`. */
export function PaneFrame({ item, actions, children }: { item: MailItem | null; actions?: ReactNode; children: ReactNode }) {
  const styles = usePaneStyles();
  const mode = modeText(item);
  return (
    <div className={styles.root} data-testid="addin-pane" data-mode={item?.mode ?? 'none'}>
      <header className={styles.header}>
        <Text className={styles.brand}>Dealscout</Text>
        <Text size={200} className={styles.mode} title={mode} data-testid="pane-mode">
          {mode}
        </Text>
        {actions}
      </header>
      {children}
    </div>
  );
}

/** While the email is read, or when there is none: the pane's whole body. */
export function MailStatus({ mail, host }: { mail: MailItemState; host: OutlookHost }) {
  const styles = usePaneStyles();
  if (mail.loading)
    return (
      <div className={styles.center}>
        <Spinner size="small" label="Reading the email..." />
      </div>
    );
  return (
    <div className={styles.center} data-testid="pane-no-item">
      <MailRegular fontSize={32} />
      <Text>{host.inOutlook() ? NO_ITEM : NOT_IN_OUTLOOK}</Text>
    </div>
  );
}

export interface PeopleListProps {
  item: MailItem;
  people: Participant[];
  byEmail: Map<string, MatchedContact>;
  match: { isPending: boolean; isError: boolean; error: unknown };
  selected: Participant | null;
  onChoose(email: string): void;
}

/** The email's people, each matched to a contact (or 'Not in Dealscout'); the chosen one selected. */
export function PeopleList({ item, people, byEmail, match, selected, onChoose }: PeopleListProps) {
  const styles = usePaneStyles();
  return (
    <div className={styles.people} role="listbox" aria-label="People on this email" data-testid="pane-people">
      {people.length === 0 && (
        <Text className={styles.center} as="p">
          {item.mode === 'read' ? NO_PEOPLE : NO_RECIPIENTS}
        </Text>
      )}
      {people.map((p) => {
        const c = byEmail.get(p.email);
        const name = c ? `${c.firstName} ${c.lastName}`.trim() : p.displayName || p.email;
        const isSel = selected?.email === p.email;
        return (
          <button
            key={p.email}
            type="button"
            role="option"
            aria-selected={isSel}
            className={mergeClasses(styles.person, isSel && styles.personSelected)}
            onClick={() => onChoose(p.email)}
            data-testid="pane-person"
            data-email={p.email}
            data-known={c ? 'true' : match.isPending ? 'pending' : 'false'}
          >
            <Avatar name={name} size={28} color={c ? 'colorful' : 'neutral'} icon={c ? undefined : <PersonRegular />} />
            <span className={styles.personTexts}>
              <Text weight={isSel ? 'semibold' : 'regular'} className={styles.ellipsis}>
                {name}
              </Text>
              <Text size={200} className={mergeClasses(styles.ellipsis, styles.secondary)}>
                {c ? (c.primaryCompany?.name ?? p.email) : match.isPending ? p.email : `${p.email} · Not in Dealscout`}
              </Text>
            </span>
            <Badge appearance="tint" color={p.role === 'From' ? 'brand' : 'informative'} size="small">
              {p.role}
            </Badge>
          </button>
        );
      })}
      {match.isError && (
        <Text role="alert" className={styles.center} as="p">
          {serverMessage(match.error) ?? 'Could not match the people of this email.'}
        </Text>
      )}
    </div>
  );
}
