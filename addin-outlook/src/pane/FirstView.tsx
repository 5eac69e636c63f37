// The signed-in pane's first view, in the first chunk: the frame and the email's people matched to
// contacts (the sender listed as known), through first-view-api.ts. Once it has shown what it
// can (the people matched, or no email to match), `onShown` lets the rest load: the connected chunk
// (the API client, realtime, the header's menu and buttons, the full Pane) and the drawer's parts.
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { OutlookHost } from '../office/outlook';
import type { FirstViewApi } from './first-view-api';
import { participantsOf } from './people';
import { matchQueryKey } from './prefetch';
import { MailStatus, PaneFrame, PeopleList } from './PaneView';
import type { MailItemState } from './useMailItem';

export interface FirstViewProps {
  host: OutlookHost;
  mail: MailItemState;
  api: FirstViewApi;
  onShown(): void;
}

export function FirstView({ host, mail, api, onShown }: FirstViewProps) {
  const { item } = mail;
  const people = useMemo(() => participantsOf(item, host.userEmail()), [item, host]);
  const emails = useMemo(() => people.map((p) => p.email), [people]);
  const key = matchQueryKey(emails);
  const match = useQuery({ queryKey: key, queryFn: () => api.matchEmails(emails, key), enabled: emails.length > 0 });
  const [chosen, setChosen] = useState<string | null>(null);
  const shown = !mail.loading && (emails.length === 0 || !match.isPending);
  useEffect(() => {
    if (shown) onShown();
  }, [shown, onShown]);
  const byEmail = useMemo(() => new Map((match.data?.contacts ?? []).map((c) => [c.email, c])), [match.data]);
  const selected = people.find((p) => p.email === chosen) ?? people[0] ?? null;
  return (
    <PaneFrame item={item}>
      {mail.loading || !item ? (
        <MailStatus mail={mail} host={host} />
      ) : (
        <PeopleList item={item} people={people} byEmail={byEmail} match={match} selected={selected} onChoose={setChosen} />
      )}
    </PaneFrame>
  );
}
