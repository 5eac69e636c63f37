// Scoring model routes (spec 002 §7 'Scoring', 'Executions' POST /scoring-model/execute). Base path
// /api/v1. The body of a model is validated by the same rules the editor uses (domain/scoring), so
// the client and the server answer with the same messages.
import { z } from 'zod';
import { SCORE_FIELD_TYPES, SCORE_OPERATORS, SCORING_MESSAGES, validateScoreModel } from '../domain/scoring';
import { cleanString } from './plays';
import { IdeaFilters } from './lists';

export const ScoreRuleSchema = z.object({
  id: z.string().min(1).max(64),
  operator: z.enum(SCORE_OPERATORS, { message: SCORING_MESSAGES.noOperator }),
  value: z.object({ primary: cleanString(500), secondary: cleanString(500).nullish() }),
  score: z.number({ message: SCORING_MESSAGES.score }),
});

export const ScoreFieldDataSchema = z.object({
  id: z.string().min(1).max(200),
  sourceType: z.enum(['mandatory', 'enrichment']),
  fieldType: z.enum(SCORE_FIELD_TYPES, { message: SCORING_MESSAGES.noOperator }),
  fieldPath: cleanString(500).pipe(z.string().min(1)),
  enrichmentId: z.uuid().nullish(),
});

export const ScoreRuleSetSchema = z.object({
  id: z.string().min(1).max(64),
  label: cleanString(200),
  weight: z.number({ message: SCORING_MESSAGES.weight }),
  defaultScore: z.number({ message: SCORING_MESSAGES.score }),
  fieldData: ScoreFieldDataSchema,
  rules: z.array(ScoreRuleSchema).max(50),
});

const modelFields = {
  name: cleanString(255, SCORING_MESSAGES.invalidName),
  description: cleanString(2000).optional().default(''),
  ruleSets: z.array(ScoreRuleSetSchema).max(100),
};

const checkModel = (m: { name: string; description?: string; ruleSets: z.infer<typeof ScoreRuleSetSchema>[] }, ctx: z.RefinementCtx) => {
  const problem = validateScoreModel(m as Parameters<typeof validateScoreModel>[0]);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [] });
};

/** POST /scoring-model — name, description, listCompanyId, ruleSets. */
export const CreateScoreModelBody = z
  .object({ ...modelFields, listCompanyId: z.uuid({ message: SCORING_MESSAGES.listNotFound }) })
  .superRefine(checkModel);
export type CreateScoreModelBody = z.input<typeof CreateScoreModelBody>;
/** PUT /scoring-model/{id} — the same fields; the list does not change. */
export const UpdateScoreModelBody = z.object(modelFields).superRefine(checkModel);
export type UpdateScoreModelBody = z.input<typeof UpdateScoreModelBody>;

/** GET /scoring-model?listCompanyId= (also answered at /scoring-model/, the specification's spelling) */
export const ListScoreModelsQuery = z.object({ listCompanyId: z.uuid({ message: SCORING_MESSAGES.listNotFound }) });

export const ScoreModelDto = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  listCompanyId: z.string(),
  ruleSets: z.array(ScoreRuleSetSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ScoreModelDto = z.infer<typeof ScoreModelDto>;

export const ScoreModelResponse = z.object({ success: z.literal(true), message: z.string().optional(), scoringModel: ScoreModelDto });
export const ScoreModelsResponse = z.object({ success: z.literal(true), scoringModels: z.array(ScoreModelDto) });

/** The breakdown kept on an idea's scoring result (scores explain themselves). */
export const FieldScoreSchema = z.object({
  ruleSetId: z.string(),
  label: z.string(),
  fieldPath: z.string(),
  value: z.string().nullable(),
  reason: z.enum(['rule', 'no_match', 'missing', 'invalid']),
  ruleId: z.string().nullable(),
  score: z.number(),
  weight: z.number(),
  contribution: z.number(),
});

/** POST /scoring-model/execute — scoringModelId, entityType, entityIds, options, ideasFilter. */
export const ExecuteScoreModelBody = z
  .object({
    scoringModelId: z.uuid({ message: SCORING_MESSAGES.notFound }),
    entityType: z.literal('idea').default('idea'),
    entityIds: z.array(z.uuid()).max(10_000).optional().default([]),
    /** runAll: every idea of the list (or of ideasFilter); otherwise entityIds. */
    options: z
      .object({ runAll: z.boolean().optional().default(false) })
      .optional()
      .default({ runAll: false }),
    /** 'all selected': the ideas table's filters (runAll). */
    ideasFilter: IdeaFilters.nullish(),
  })
  .superRefine((b, ctx) => {
    if (!b.options.runAll && b.entityIds.length === 0)
      ctx.addIssue({ code: 'custom', message: SCORING_MESSAGES.noIdeasOn, path: ['entityIds'] });
  });
export type ExecuteScoreModelBody = z.infer<typeof ExecuteScoreModelBody>;
export type ExecuteScoreModelInput = z.input<typeof ExecuteScoreModelBody>;
export const ExecuteScoreModelResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  executionId: z.string(),
  total: z.number(),
});
