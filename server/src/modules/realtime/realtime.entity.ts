import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../db/organization.entity';

/**
 * An event for realtime clients, written once in the transaction of the change it describes (moved
 * here from realtime_pending as that transaction commits). `seq` counts per organization without
 * gaps, in commit order (see realtime_sequence); a trigger sends it to every API process with NOTIFY.
 */
export const RealtimeEventRow = defineEntity({
  name: 'RealtimeEventRow',
  tableName: 'realtime_event',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    seq: p.bigint('number'),
    path: p.string().length(300),
    kind: p.string().length(60),
    /** Events with the same key supersede each other (progress, execution state). */
    key: p.string().length(200).nullable(),
    data: p.json<unknown>(),
    createdAt: p
      .datetime()
      .onCreate(() => new Date())
      .index('realtime_event_created_at_index'),
  },
  uniques: [{ name: 'realtime_event_org_seq_unique', properties: ['organization', 'seq'] }],
});
export type IRealtimeEventRow = InferEntity<typeof RealtimeEventRow>;

/**
 * The last sequence number of each organization. Taking the next number locks the row until the
 * transaction ends, so numbers are handed out in commit order and a rollback leaves no gap.
 */
export const RealtimeSequence = defineEntity({
  name: 'RealtimeSequence',
  tableName: 'realtime_sequence',
  properties: {
    organization: () => p.manyToOne(Organization).primary(),
    lastSeq: p.bigint('number').default(0),
  },
});
export type IRealtimeSequence = InferEntity<typeof RealtimeSequence>;

/**
 * The events one publish() call wrote, waiting for their transaction to commit: a deferred trigger
 * (Migration20261129170000) numbers them from realtime_sequence just before the commit, moves them
 * into realtime_event and deletes this row, so a committed transaction leaves none behind.
 */
export const RealtimePending = defineEntity({
  name: 'RealtimePending',
  tableName: 'realtime_pending',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    /** [{ path, kind, key, data }] in the order they are numbered. */
    events: p.json<unknown>(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IRealtimePending = InferEntity<typeof RealtimePending>;
