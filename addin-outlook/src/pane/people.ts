// The people of an email as the pane lists them: the sender first, then To and Cc, each address
// once, the rep's own address left out.
import { normalizeEmail } from '@dealscout/shared/domain';
import type { MailItem } from '../office/outlook';

export type ParticipantRole = 'From' | 'To' | 'Cc';

export interface Participant {
  email: string;
  displayName: string;
  role: ParticipantRole;
}

export function participantsOf(item: MailItem | null, ownEmail: string | null): Participant[] {
  if (!item) return [];
  const own = ownEmail ? normalizeEmail(ownEmail) : '';
  const out: Participant[] = [];
  const add = (p: { displayName: string; email: string } | null, role: ParticipantRole) => {
    if (!p) return;
    const email = normalizeEmail(p.email);
    if (!email.includes('@') || email === own || out.some((x) => x.email === email)) return;
    out.push({ email, displayName: p.displayName, role });
  };
  if (item.mode === 'read') add(item.from, 'From');
  for (const p of item.to) add(p, 'To');
  for (const p of item.cc) add(p, 'Cc');
  return out;
}
