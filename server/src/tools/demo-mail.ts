// The demo mailbox, offline: `npm run seed:demo` starts the loopback fake of the
// Microsoft identity platform and Graph (server/test/fakes/graph-server.ts) for the length of the
// seed, connects the demo admin's mailbox through the real consent flow (PKCE, encrypted tokens),
// sends a few emails now through the outbox (each lands in the fake's Sent Items, with its email
// activity), schedules a few for the coming days (queued outbox rows with their pg-boss jobs and
// 'Sending …' activities) and leaves one refused by the mailbox (the error activity with Try Again),
// then a contact answers one email and the reply follower (the Inbox delta query) marks it replied.
//
// Once the seed ends the fake is gone: the stored tokens are the fake's, so with a real Office 365
// configured the first send refreshes, is refused (invalid_grant) and the card asks to Re
// Authenticate — the documented path of a revoked mailbox, nothing special for the demo.
import type { MikroORM } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import type { Config } from '../config';
import { loadConfig } from '../config';
import { FakeGraphServer } from '../../test/fakes/graph-server';
import { connectUrl, readState, completeConnect, findConnection } from '../modules/email/connection/o365';
import { scheduleSend, deliverOutbox } from '../modules/email/send/send';
import { followInbox } from '../modules/email/replies/replies';
import { tenantSql } from '../db/sql';

export interface DemoMailSummary {
  created: boolean;
  account: string;
  sent: number;
  scheduled: number;
  failed: number;
  replied: number;
}

/** Connects the demo user's mailbox against the fake and sends, schedules, fails and answers a few emails. Idempotent: a connected mailbox is left alone. */
export async function seedDemoMail(
  orm: MikroORM,
  boss: PgBoss,
  baseConfig: Config,
  user: { organizationId: string; userId: string; email: string },
  log: (m: string) => void = () => {},
): Promise<DemoMailSummary> {
  const em = () => {
    const f = orm.em.fork();
    f.setFilterParams('tenant', { organizationId: user.organizationId });
    return f;
  };
  const existing = await findConnection(em(), user.organizationId, user.userId);
  if (existing) return { created: false, account: existing.name, sent: 0, scheduled: 0, failed: 0, replied: 0 };

  const fake = await FakeGraphServer.start();
  try {
    fake.addUser({ mail: user.email, displayName: 'Dana Demo', timeZone: 'UTC' });
    const config: Config = {
      ...baseConfig,
      ...loadConfig({
        ...process.env,
        O365_CLIENT_ID: fake.clientId,
        O365_CLIENT_SECRET: fake.clientSecret,
        O365_AUTHORITY_URL: fake.url,
        GRAPH_BASE_URL: `${fake.url}/v1.0`,
      }),
    };
    log('demo mailbox: connecting through the fake consent page');
    const back = new URL(await fake.consent(await connectUrl(em(), config, user), user.email));
    const state = await readState(em(), config, { state: back.searchParams.get('state') ?? '', code: back.searchParams.get('code') ?? '' });
    if (!state) throw new Error('demo mailbox: the consent state did not come back');
    await completeConnect(em(), config, state, back.searchParams.get('code') ?? '');

    const contacts = await tenantSql(em(), user.organizationId).all<{
      id: string;
      email: string;
      first_name: string;
      company_id: string | null;
    }>(
      `select c.id, c.email, c.first_name, (select cc.company_id from company_contact cc where cc.organization_id = c.organization_id
        and cc.contact_id = c.id limit 1) as company_id
         from contact c where c.organization_id = ? and c.email <> '' order by c.created_at, c.id limit 8`,
      [user.organizationId],
    );
    const draft = async (c: (typeof contacts)[number], subject: string) => {
      const [row] = await tenantSql(em(), user.organizationId).all<{ id: string }>(
        `insert into channel_email (id, organization_id, owner_id, title, from_address, to_address, cc, subject, body, contact_id,
          company_id, is_ai_email_generated, status, show_to_from_cc, created_at, updated_at)
         values (gen_random_uuid(), ?, ?, ?, ?, ?, '[]', ?, ?, ?, ?, false, 'draft', false, clock_timestamp(), clock_timestamp()) returning id`,
        [
          user.organizationId,
          user.userId,
          c.first_name,
          user.email,
          c.email,
          subject,
          `<p>Hi ${c.first_name},</p><p>${subject}.</p>`,
          c.id,
          c.company_id,
        ],
      );
      return row.id;
    };
    const deps = { em: em(), boss, config };
    const out: DemoMailSummary = { created: true, account: user.email, sent: 0, scheduled: 0, failed: 0, replied: 0 };
    const sentIds: { outboxId: string }[] = [];
    for (const c of contacts.slice(0, 3)) {
      const id = await draft(c, 'Following up on our call');
      const s = await scheduleSend(em(), boss, config, { ...user, calendar: null }, id, {
        to: c.email,
        cc: [],
        subject: 'Following up on our call',
        body: `<p>Hi ${c.first_name}, thanks for the call.</p>`,
      });
      if ((await deliverOutbox(deps, user.organizationId, s.outboxId)) === 'sent') out.sent += 1;
      sentIds.push({ outboxId: s.outboxId });
    }
    // Scheduled inside the mailbox's working hours in the coming days.
    for (const [n, c] of contacts.slice(3, 6).entries()) {
      const id = await draft(c, 'A quick introduction');
      await scheduleSend(em(), boss, config, { ...user, calendar: null }, id, {
        to: c.email,
        cc: [],
        subject: 'A quick introduction',
        body: `<p>Hi ${c.first_name}, a quick introduction.</p>`,
        scheduledAt: new Date(Date.now() + (n + 2) * 86_400_000).toISOString(),
      });
      out.scheduled += 1;
    }
    // One the mailbox refuses: the error activity with Try Again.
    if (contacts[6]) {
      const id = await draft(contacts[6], 'Partnership idea');
      const s = await scheduleSend(em(), boss, config, { ...user, calendar: null }, id, {
        to: contacts[6].email,
        cc: [],
        subject: 'Partnership idea',
        body: `<p>Hi ${contacts[6].first_name}, an idea.</p>`,
      });
      // Refused as Exchange Online refuses an address it cannot deliver to (its own words).
      fake.fault(/POST \/v1\.0\/me\/messages\/[^/]+\/send$/, {
        kind: 'status',
        status: 400,
        code: 'ErrorInvalidRecipients',
        message:
          `At least one recipient isn't valid., Recipient '${contacts[6].email}' isn't resolved. All recipients must be ` +
          `resolved before a message can be submitted.`,
      });
      if ((await deliverOutbox(deps, user.organizationId, s.outboxId)) === 'failed') out.failed += 1;
    }
    // The first contact answers: the reply follower marks that email replied.
    const [first] = sentIds;
    if (first) {
      const [o] = await tenantSql(em(), user.organizationId).all<{ graph_message_id: string | null }>(
        `select graph_message_id from email_outbox where id = ? and organization_id = ?`,
        [first.outboxId, user.organizationId],
      );
      if (o?.graph_message_id)
        fake.receive(user.email, { from: contacts[0].email, inReplyTo: o.graph_message_id, html: '<p>Thanks — next Tuesday works.</p>' });
      const integration = await findConnection(em(), user.organizationId, user.userId);
      out.replied = (await followInbox({ em: em(), config }, user.organizationId, integration!.id)).replies;
    }
    // The Inbox cursor is the fake's address, gone with it: the follower starts a new round against
    // the configured Graph instead of failing on a link it must refuse.
    await tenantSql(em(), user.organizationId).run(
      `update mailbox_sync set next_link = null, delta_link = null, error = null, updated_at = clock_timestamp() where organization_id = ? and owner_id = ?`,
      [user.organizationId, user.userId],
    );
    log(`demo mailbox: ${out.sent} sent, ${out.scheduled} scheduled, ${out.failed} refused, ${out.replied} answered`);
    return out;
  } finally {
    await fake.close();
  }
}
