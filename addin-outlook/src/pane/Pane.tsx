// The signed-in task pane: the selected email's people matched to contacts, and the chosen one's
// drawer in plugin mode (Activities, Details, enrichments, Log Activity) — or, for someone not in
// Dealscout, the one-step create. A pinned pane follows the selection (useMailItem). In compose
// mode the people are the recipients, and the chosen one's email is drafted with a play (ComposeDraft);
// in read mode the same card drafts a reply that opens as Outlook's reply form.
import { Suspense, lazy, useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Avatar,
  Badge,
  Button,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Spinner,
  Text,
  Tooltip,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import {
  ArrowClockwiseRegular,
  ArrowReplyRegular,
  BookOpenRegular,
  MailRegular,
  PersonRegular,
  SignOutRegular,
} from '@fluentui/react-icons';
import { realtimePaths, type UserConfig } from '@dealscout/shared/domain';
import type { MatchedContact } from '@dealscout/shared/contracts';
import { ActiveRuns, serverMessage, useApi, useDrawer, useMiniDrawer, useRealtimeEvents, useRealtimeStatus } from '@dealscout/shared/ui';
import type { OutlookHost } from '../office/outlook';
import { useMailItem } from './useMailItem';
import { participantsOf, type Participant } from './people';
import { matchQueryKey } from './prefetch';

// The first chunk holds the pane's frame and the people list; the rest loads beside the first API
// calls (speed budget). Compose mode's drafting (the draft panel, its editor and send
// controls) loads when an email is being written; the drawer, the mini drawer and the one-step
// create come in one chunk (parts.ts) that preloadPaneParts() starts as the signed-in pane starts.
let parts: Promise<typeof import('./parts')> | null = null;
export const preloadPaneParts = () => (parts ??= import('./parts'));
const RecordDrawer = lazy(() => preloadPaneParts().then((m) => ({ default: m.RecordDrawer })));
const MiniDrawer = lazy(() => preloadPaneParts().then((m) => ({ default: m.MiniDrawer })));
const NewContactFromEmail = lazy(() => preloadPaneParts().then((m) => ({ default: m.NewContactFromEmail })));
const ComposeDraft = lazy(() => import('./ComposeDraft').then((m) => ({ default: m.ComposeDraft })));

export const NO_ITEM = 'Select an email to see its people in Dealscout.';
export const NOT_IN_OUTLOOK = 'Open this pane from Outlook to see the people of an email.';
export const NO_PEOPLE = 'No one else is on this email.';
export const NO_RECIPIENTS = 'Add recipients to see them in Dealscout.';

const useStyles = makeStyles({
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

export interface PaneProps {
  host: OutlookHost;
  userName: string;
  userId: string;
  /** The user's saved drawer config; null while it loads (the people list shows meanwhile, the drawer waits). */
  initialConfig: UserConfig | null;
  onSignOut: () => void;
}

function LiveDot() {
  const styles = useStyles();
  const { status } = useRealtimeStatus();
  const live = status === 'open';
  const label = live
    ? 'Live: changes appear as they happen'
    : status === 'idle' || status === 'connecting'
      ? 'Connecting...'
      : 'Reconnecting...';
  return (
    <Tooltip content={label} relationship="label">
      <span
        role="img"
        className={styles.live}
        style={{ backgroundColor: live ? tokens.colorPaletteGreenForeground1 : tokens.colorNeutralForeground4 }}
        data-testid="realtime-status"
        data-status={status}
      />
    </Tooltip>
  );
}

export function Pane({ host, userName, userId, initialConfig, onSignOut }: PaneProps) {
  const styles = useStyles();
  const api = useApi();
  const drawer = useDrawer();
  const mini = useMiniDrawer();
  const queryClient = useQueryClient();
  const mail = useMailItem(host);
  const { item } = mail;
  const people = useMemo(() => participantsOf(item, host.userEmail()), [item, host]);
  const emails = useMemo(() => people.map((p) => p.email), [people]);
  useEffect(() => void preloadPaneParts(), []);
  const match = useQuery({
    queryKey: matchQueryKey(emails),
    queryFn: () => api.mailbox.matchEmails(emails),
    enabled: emails.length > 0,
  });
  // A contact created or changed anywhere (the web app, a colleague) shows up here at once.
  useRealtimeEvents(
    ({ oid }) => realtimePaths.entities(oid, 'contact'),
    () => void queryClient.invalidateQueries({ queryKey: ['mailbox-match'] }),
  );
  const byEmail = useMemo(() => new Map((match.data?.contacts ?? []).map((c) => [c.email, c])), [match.data]);

  // The sender (or the first recipient) is chosen for every new selection; a click chooses another.
  const [chosen, setChosen] = useState<string | null>(null);
  // Read mode: 'Reply with a play' shows the drafting card for the chosen contact (closed again for
  // every new selection); its result opens as Outlook's reply form.
  const [replying, setReplying] = useState(false);
  useEffect(() => {
    setChosen(null);
    setReplying(false);
  }, [mail.selection]);
  const selected: Participant | null = people.find((p) => p.email === chosen) ?? people[0] ?? null;
  const contact: MatchedContact | null = selected ? (byEmail.get(selected.email) ?? null) : null;
  const { open, close } = drawer;
  useEffect(() => {
    if (contact) open({ entityType: 'contact', id: contact.id });
    else close();
  }, [contact, open, close]);

  const mode = !item ? '' : item.mode === 'read' ? item.subject || '(no subject)' : `Writing: ${item.subject || '(no subject)'}`;

  let body: React.ReactNode;
  if (mail.loading)
    body = (
      <div className={styles.center}>
        <Spinner size="small" label="Reading the email..." />
      </div>
    );
  else if (!item)
    body = (
      <div className={styles.center} data-testid="pane-no-item">
        <MailRegular fontSize={32} />
        <Text>{host.inOutlook() ? NO_ITEM : NOT_IN_OUTLOOK}</Text>
      </div>
    );
  else {
    body = (
      <>
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
                onClick={() => setChosen(p.email)}
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
        <div className={styles.main}>
          {item.mode === 'read' && replying && contact && selected && (
            <Suspense fallback={<Spinner aria-label="Loading" size="tiny" className={styles.center} />}>
              <ComposeDraft
                key={`${mail.selection}:${contact.id}`}
                reply
                replyToMessageId={item.id ? host.graphId(item.id) : null}
                host={host}
                recipient={selected}
                contact={contact}
                currentSubject={item.subject}
                userId={userId}
              />
            </Suspense>
          )}
          {item.mode === 'compose' && (people.length === 0 || (!match.isPending && !match.isError)) && (
            <Suspense fallback={<Spinner aria-label="Loading" size="tiny" className={styles.center} />}>
              <ComposeDraft
                key={mail.selection}
                host={host}
                recipient={selected}
                contact={contact}
                currentSubject={item.subject}
                userId={userId}
              />
            </Suspense>
          )}
          <Suspense fallback={<Spinner aria-label="Loading" size="small" className={styles.center} />}>
            {selected && !contact && !match.isPending && !match.isError && (
              <NewContactFromEmail
                key={selected.email}
                person={selected}
                onCreated={(r) => open({ entityType: 'contact', id: r.contact.id })}
              />
            )}
            {contact &&
              (initialConfig ? (
                <RecordDrawer className={styles.drawer} initialConfig={initialConfig} defaultOwnerId={userId} />
              ) : (
                <Spinner aria-label="Loading" size="small" className={styles.center} />
              ))}
          </Suspense>
        </div>
      </>
    );
  }

  return (
    <div className={styles.root} data-testid="addin-pane" data-mode={item?.mode ?? 'none'}>
      <header className={styles.header}>
        <Text className={styles.brand}>Dealscout</Text>
        <Text size={200} className={styles.mode} title={mode} data-testid="pane-mode">
          {mode}
        </Text>
        <LiveDot />
        {mini && (
          <Tooltip content="Run Play" relationship="label">
            <Button
              appearance="subtle"
              size="small"
              icon={<BookOpenRegular />}
              onClick={() => mini.open({ tab: 'Run Play' })}
              data-testid="pane-run-play"
            />
          </Tooltip>
        )}
        {item?.mode === 'read' && contact && (
          <Tooltip content="Reply with a play" relationship="label">
            <Button
              appearance="subtle"
              size="small"
              icon={<ArrowReplyRegular />}
              aria-pressed={replying}
              onClick={() => setReplying((r) => !r)}
              data-testid="pane-reply"
            />
          </Tooltip>
        )}
        {item?.mode === 'compose' && (
          <Tooltip content="Refresh recipients" relationship="label">
            <Button appearance="subtle" size="small" icon={<ArrowClockwiseRegular />} onClick={mail.refresh} data-testid="pane-refresh" />
          </Tooltip>
        )}
        <Menu>
          <MenuTrigger disableButtonEnhancement>
            <Button
              appearance="subtle"
              size="small"
              icon={<Avatar name={userName} size={20} />}
              aria-label={`Signed in as ${userName}`}
              data-testid="pane-user-menu"
            />
          </MenuTrigger>
          <MenuPopover>
            <MenuList>
              <MenuItem disabled>{userName}</MenuItem>
              <MenuItem icon={<SignOutRegular />} onClick={onSignOut} data-testid="pane-sign-out">
                Sign out
              </MenuItem>
            </MenuList>
          </MenuPopover>
        </Menu>
      </header>
      {/* The user's long runs (an enrichment or a play over many rows), each with Cancel. */}
      <ActiveRuns style={{ margin: '6px 8px 0' }} />
      {body}
      <Suspense fallback={null}>
        {/* Run Play runs on the record open in the drawer (the matched contact, or a record opened from it). */}
        <MiniDrawer defaultOwnerId={userId} runPlayTarget={drawer.target} />
      </Suspense>
    </div>
  );
}
