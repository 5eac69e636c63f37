// Connecting a user's Office 365 mailbox in tests and benches: through the real routes and the
// loopback fake's consent page (authorization code + PKCE), as a user does.
import type { FakeGraphServer, FakeMailUser } from './fakes/graph-server';
import type { TestClient } from './helpers';

/** What connecting needs of the fake: the fake itself, or the bench's proxy of it in another process. */
export interface FakeGraphLike {
  addUser(u: Parameters<FakeGraphServer['addUser']>[0]): unknown;
  consent(authorizeUrl: string, mail: string): Promise<string>;
}

/** Working hours that never close (a send window that moves nothing). */
export const ALL_WEEK_HOURS: NonNullable<FakeMailUser['workingHours']> = {
  daysOfWeek: ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'],
  startTime: '00:00:00.0000000',
  endTime: '23:59:00.0000000',
  timeZone: { name: 'UTC' },
};

/**
 * Connects `mail`'s mailbox for the signed-in `client`: POST /user/o365-integration, the fake's
 * consent, then the callback. `workingHours` also adds the user to the fake first. Answers where
 * the callback sent the browser (throws when a step does not answer as Microsoft and we do).
 */
export async function connectMailbox(
  client: TestClient,
  fake: FakeGraphLike,
  mail: string,
  opts: { workingHours?: NonNullable<FakeMailUser['workingHours']> } = {},
): Promise<URL> {
  if (opts.workingHours) fake.addUser({ mail, workingHours: opts.workingHours });
  const start = await client.post('/api/v1/user/o365-integration', {});
  if (start.statusCode !== 200) throw new Error(`POST /user/o365-integration answered ${start.statusCode}: ${start.body}`);
  const back = new URL(await fake.consent(start.json().authorizeUrl, mail));
  const res = await client.get(back.pathname + back.search);
  if (res.statusCode !== 302) throw new Error(`the o365 callback answered ${res.statusCode}: ${res.body}`);
  return new URL(res.headers.location as string, 'http://localhost');
}
