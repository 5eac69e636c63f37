import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../db/organization.entity';
import { User } from '../users/user.entity';

/**
 * Every long action (enrichment, play, list build, score run) is an execution (spec 002 §3). The row
 * is created in the transaction that enqueues its pg-boss job, whose id is the execution's id.
 */
export const Execution = defineEntity({
  name: 'Execution',
  tableName: 'execution',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    /** enrichment | play | list | score */
    type: p.string().length(20),
    /** The enrichment, play, list or scoring model it runs (no FK: those tables belong to later modules). */
    typeId: p.uuid().nullable(),
    entityType: p.string().length(20),
    entityId: p.uuid().nullable(),
    /** draft | scheduled | processing | completed | error | cancelled */
    status: p.string().length(20),
    statusMessage: p.text().nullable(),
    /** Same key while active = the same execution (a second start answers 'duplicate'). */
    idempotencyKey: p.string().length(200).nullable(),
    /** The retry attempt that last claimed it (pg-boss retryCount). */
    attempt: p.integer().default(0),
    processed: p.integer().default(0),
    total: p.integer().nullable(),
    /** What the handler produced; written once, in the transaction that completes the execution. */
    result: p.json<unknown>().nullable(),
    createdBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
    /** The run it belongs to (started with others over many rows): its progress is counted from them. */
    runId: p.uuid().nullable(),
  },
  indexes: [
    { name: 'execution_org_run_index', properties: ['organization', 'runId'] },
    { name: 'execution_org_type_status_index', properties: ['organization', 'type', 'status'] },
    { name: 'execution_org_entity_index', properties: ['organization', 'entityId'] },
  ],
});
export type IExecution = InferEntity<typeof Execution>;

/**
 * A run: the executions started together over many rows (an enrichment or a play over a selection
 * or a whole list). It keeps how many rows it took (`total`) and whether it was cancelled; done,
 * failed and cancelled are counted from its executions (execution.run_id).
 */
export const ExecutionRun = defineEntity({
  name: 'ExecutionRun',
  tableName: 'execution_run',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    type: p.string().length(20),
    typeId: p.uuid().nullable(),
    entityType: p.string().length(20),
    total: p.integer().default(0),
    /** running | cancelled (finished is counted: every execution settled). */
    status: p.string().length(20),
    createdById: p.uuid().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    cancelledAt: p.datetime().nullable(),
  },
  indexes: [{ name: 'execution_run_org_user_created_index', properties: ['organization', 'createdById', 'createdAt'] }],
});
