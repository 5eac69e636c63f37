// The signed-in task pane: the selected email's people matched to contacts, and the chosen one's
// drawer in plugin mode (Activities, Details, enrichments, Log Activity) — or, for someone not in
// Dealscout, the one-step create. A pinned pane follows the selection (useMailItem). In compose
// mode the people are the recipients, and the chosen one's email is drafted with a play (ComposeDraft);
// in read mode the same card drafts a reply that opens as Outlook's reply form.
import { Suspense, lazy, useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger, Spinner, Tooltip, tokens } from '@fluentui/react-components';
import { ArrowClockwiseRegular, ArrowReplyRegular, BookOpenRegular, SignOutRegular } from '@fluentui/react-icons';
import { realtimePaths, type UserConfig } from '@dealscout/shared/domain';
import type { MatchedContact } from '@dealscout/shared/contracts';
import { ActiveRuns, useApi, useDrawer, useMiniDrawer, useRealtimeEvents, useRealtimeStatus } from '@dealscout/shared/ui';
import type { OutlookHost } from '../office/outlook';
import { useMailItem, type MailItemState } from './useMailItem';
import { participantsOf, type Participant } from './people';
import { matchQueryKey } from './prefetch';
import { lazyPart } from '../app/chunk';
import { paneParts, preloadPaneParts } from './parts-loader';
import { MailStatus, PaneFrame, PeopleList, usePaneStyles as useStyles } from './PaneView';

export { NO_ITEM, NOT_IN_OUTLOOK, NO_PEOPLE, NO_RECIPIENTS } from './PaneView';

// The full pane is in the connected chunk (app/connected.tsx); its first view (FirstView.tsx, the
// frame and the people list of PaneView.tsx) is in the first chunk. Compose mode's drafting (the
// draft panel, its editor and send controls) loads when an email is being written; the drawer, the
// mini drawer and the one-step create come in one chunk (parts.ts) that preloadPaneParts() starts
// with the connected chunk, once the first view has shown.
// Once that chunk has loaded, they render without suspending (lazyPart).
const RecordDrawer = lazyPart(paneParts, (m) => m.RecordDrawer);
const MiniDrawer = lazyPart(paneParts, (m) => m.MiniDrawer);
const NewContactFromEmail = lazyPart(paneParts, (m) => m.NewContactFromEmail);
const ComposeDraft = lazy(() => import('./ComposeDraft').then((m) => ({ default: m.ComposeDraft })));

export interface PaneProps {
  host: OutlookHost;
  userName: string;
  userId: string;
  /** The user's saved drawer config; null while it loads (the people list shows meanwhile, the drawer waits). */
  initialConfig: UserConfig | null;
  onSignOut: () => void;
  /** The email as the signed-in pane reads it (kept across the first view); without it, read here. */
  mail?: MailItemState;
  /** False while the first view's requests are on their way: the user's runs (ActiveRuns, a request of
   *  their own) wait for them. */
  firstViewDone?: boolean;
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

export function Pane(props: PaneProps) {
  return props.mail ? <PaneOf {...props} mail={props.mail} /> : <PaneReading {...props} />;
}

function PaneReading(props: PaneProps) {
  return <PaneOf {...props} mail={useMailItem(props.host)} />;
}

function PaneOf({ host, userName, userId, initialConfig, onSignOut, mail, firstViewDone = true }: PaneProps & { mail: MailItemState }) {
  const styles = useStyles();
  const api = useApi();
  const drawer = useDrawer();
  const queryClient = useQueryClient();
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

  let body: React.ReactNode;
  if (mail.loading || !item) body = <MailStatus mail={mail} host={host} />;
  else {
    body = (
      <>
        <PeopleList item={item} people={people} byEmail={byEmail} match={match} selected={selected} onChoose={setChosen} />
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
    <PaneFrame
      item={item}
      actions={
        <PaneActions
          item={item}
          hasContact={!!contact}
          replying={replying}
          onReply={() => setReplying((r) => !r)}
          onRefresh={mail.refresh}
          userName={userName}
          onSignOut={onSignOut}
        />
      }
    >
      {/* The user's long runs (an enrichment or a play over many rows), each with Cancel. */}
      {firstViewDone && <ActiveRuns style={{ margin: '6px 8px 0' }} />}
      {body}
      <Suspense fallback={null}>
        {/* Run Play runs on the record open in the drawer (the matched contact, or a record opened from it). */}
        <MiniDrawer defaultOwnerId={userId} runPlayTarget={drawer.target} />
      </Suspense>
    </PaneFrame>
  );
}

interface PaneActionsProps {
  item: MailItemState['item'];
  hasContact: boolean;
  replying: boolean;
  onReply(): void;
  onRefresh(): void;
  userName: string;
  onSignOut(): void;
}

/** The header's right side: the live dot, Run Play, Reply with a play or Refresh recipients, the user menu. */
function PaneActions({ item, hasContact, replying, onReply, onRefresh, userName, onSignOut }: PaneActionsProps) {
  const mini = useMiniDrawer();
  return (
    <>
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
      {item?.mode === 'read' && hasContact && (
        <Tooltip content="Reply with a play" relationship="label">
          <Button
            appearance="subtle"
            size="small"
            icon={<ArrowReplyRegular />}
            aria-pressed={replying}
            onClick={onReply}
            data-testid="pane-reply"
          />
        </Tooltip>
      )}
      {item?.mode === 'compose' && (
        <Tooltip content="Refresh recipients" relationship="label">
          <Button appearance="subtle" size="small" icon={<ArrowClockwiseRegular />} onClick={onRefresh} data-testid="pane-refresh" />
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
    </>
  );
}
