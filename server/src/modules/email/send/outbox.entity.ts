import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../../db/organization.entity';

/**
 * One send of one channel email (docs/ARCHITECTURE.md 'Sending email'): written in the
 * transaction that makes the email `scheduled`, together with its pg-boss job. Its id travels on
 * the Graph message (a single-value extended property), so a retry finds what an earlier attempt
 * did in the mailbox before doing anything. At most one active (queued / sending) row per email.
 * channel_email_id / owner_id / integration_id carry no foreign key, like channel_email's own
 * references: the row is the history of a send and outlives an edit or a disconnected mailbox.
 */
export const EmailOutbox = defineEntity({
  name: 'EmailOutbox',
  tableName: 'email_outbox',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    channelEmailId: p.uuid(),
    ownerId: p.uuid(),
    /** queued | sending | sent | failed | cancelled */
    state: p.string().length(20),
    /** Not before this instant (the schedule inside the send window, or a 429's Retry-After). */
    sendAfter: p.datetime(),
    /**
     * The mailbox's send slot this row holds (slots.ts): handed out at schedule time, unique per
     * mailbox among waiting, leaving and sent rows (a partial unique index, hand-written.ts).
     */
    slotAt: p.datetime().nullable(),
    /** What the user asked for (null = send now). */
    requestedAt: p.datetime().nullable(),
    attempt: p.integer().default(0),
    /** A claim holds the row until then; a crashed attempt's claim lapses. */
    leaseUntil: p.datetime().nullable(),
    claimedAt: p.datetime().nullable(),
    /** The Graph message (immutable id) once created. */
    graphMessageId: p.text().nullable(),
    /** Set just before POST /send: from then on, the mailbox decides whether it was sent. */
    sendAttemptedAt: p.datetime().nullable(),
    sentAt: p.datetime().nullable(),
    recipients: p.integer().default(1),
    /** The Graph conversation of the sent message (replies are matched by it). */
    conversationId: p.text().nullable(),
    /** When the first reply arrived (the Inbox delta query, replies.ts). */
    repliedAt: p.datetime().nullable(),
    /** A reply to a received message: that message's Graph id (sent through createReply, in its thread). */
    replyToMessageId: p.text().nullable(),
    error: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [
    { name: 'email_outbox_org_email_index', properties: ['organization', 'channelEmailId'] },
    { name: 'email_outbox_org_owner_state_index', properties: ['organization', 'ownerId', 'state', 'claimedAt'] },
    { name: 'email_outbox_org_owner_conversation_index', properties: ['organization', 'ownerId', 'conversationId'] },
  ],
});
export type IEmailOutbox = InferEntity<typeof EmailOutbox>;

/**
 * The Inbox delta query state of one connected mailbox (replies.ts): `nextLink` while a
 * round is under way (the next page), else `deltaLink` (the next round: changes since). Both null:
 * the next run starts a full round. Updated in the transaction that applies a page's replies, so a
 * crash repeats at most one page (applying a page is idempotent).
 */
export const MailboxSync = defineEntity({
  name: 'MailboxSync',
  tableName: 'mailbox_sync',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    integrationId: p.uuid(),
    ownerId: p.uuid(),
    nextLink: p.text().nullable(),
    deltaLink: p.text().nullable(),
    roundStartedAt: p.datetime().nullable(),
    syncedAt: p.datetime().nullable(),
    /** Replies found so far. */
    replies: p.integer().default(0),
    error: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: 'mailbox_sync_org_integration_unique', properties: ['organization', 'integrationId'] }],
});
export type IMailboxSync = InferEntity<typeof MailboxSync>;
