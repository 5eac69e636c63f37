import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { ScoreRuleSet } from '@dealscout/shared/domain';
import { Organization } from '../../db/organization.entity';
import { User } from '../users/user.entity';
import { ListCompany } from '../lists/list.entity';

/** A scoring model of a list (spec 002 §3 'Scoring model'): weighted rule sets over the ideas' fields. */
export const ScoringModel = defineEntity({
  name: 'ScoringModel',
  tableName: 'scoring_model',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    list: () => p.manyToOne(ListCompany).deleteRule('cascade'),
    name: p.string().length(255),
    description: p.text().default(''),
    ruleSets: p.json<ScoreRuleSet[]>(),
    createdBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [{ name: 'scoring_model_org_list_index', properties: ['organization', 'list'] }],
  uniques: [{ properties: ['organization', 'id'] }],
});
export type IScoringModel = InferEntity<typeof ScoringModel>;

/**
 * What one score run covers (one execution of type score per run): the ideas it names, or every idea
 * of the list that matches `filters` when it runs on all. Written with the execution, read by the
 * handler; a retried job reads the same scope. Its `fields` (the model's part of every breakdown
 * entry, breakdown.ts) are read with each result the run wrote: the row lives as long as they do.
 */
export const ScoreRun = defineEntity({
  name: 'ScoreRun',
  tableName: 'score_run',
  properties: {
    /** The execution's id. */
    id: p.uuid().primary(),
    organization: () => p.manyToOne(Organization),
    model: () => p.manyToOne(ScoringModel).deleteRule('cascade'),
    list: () => p.manyToOne(ListCompany).deleteRule('cascade'),
    ideaIds: p.array<string>().nullable(),
    filters: p.json<Record<string, unknown>>().nullable(),
    /** What the run's model brings to each breakdown entry (breakdown.ts RunField[]), written when the run starts. */
    fields: p.json<unknown[]>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['organization', 'id'] }],
});
export type IScoreRun = InferEntity<typeof ScoreRun>;

/**
 * One idea's result for one model (spec 002 §3, the idea's scoringResults): the total and, per field,
 * the value seen, the reason, the rule, the score, the weight and the contribution. A table of its
 * own rather than a JSON column of the idea: a run writes a million narrow rows (insert, or update in
 * place) instead of rewriting a million wide idea rows with all their indexes. Keyed by (organization,
 * idea, model), its one index. No foreign key to the idea or the model: a statement trigger on each
 * deletes their results, and a writer writes only for a model it reads under the list's lock
 * (Migration20261130060000, Migration20261130090000, hand-written.ts). `id` is no longer written (the
 * API derives a result's id from model and idea); a later release drops it.
 */
export const IdeaScore = defineEntity({
  name: 'IdeaScore',
  tableName: 'idea_score',
  properties: {
    organization: () => p.manyToOne(Organization).primary(),
    ideaId: p.uuid().primary(),
    modelId: p.uuid().primary(),
    id: p.uuid().nullable(),
    executionId: p.uuid().nullable(),
    /** completed | error */
    status: p.string().length(20).default('completed'),
    statusMessage: p.text().nullable(),
    totalScore: p.double().nullable(),
    /** json, not jsonb: stored as a run builds it, never queried inside (Migration20261130070000). */
    details: p.json<unknown[]>().columnType('json'),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IIdeaScore = InferEntity<typeof IdeaScore>;
