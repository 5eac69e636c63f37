// The two language-model helpers of the editors (spec 001 §7 'Generate prompt (prompt) and generate
// schema object from a hint (hint)'): POST /api/v1/enrichment/generate-prompt and
// /generate-schema-object.
import { useMemo } from 'react';
import type { GeneratedColumn } from '../../domain';
import { useApi } from '../ApiContext';

export interface GeneratedPrompt extends GeneratedColumn {
  enrichmentName?: string | null;
}

export interface GenerateContext {
  entityType?: 'company' | 'contact' | 'idea' | 'list';
  llmModelId?: string;
  /** generate-schema-object: the enrichment's prompt and the names already used. */
  prompt?: string;
  existingNames?: string[];
}

export interface EnrichmentLlm {
  generatePrompt: (prompt: string, ctx?: GenerateContext) => Promise<GeneratedPrompt>;
  generateColumn: (hint: string, ctx?: GenerateContext) => Promise<GeneratedColumn | null>;
}

export function useEnrichmentLlm(): EnrichmentLlm {
  const api = useApi();
  return useMemo(
    () => ({
      generatePrompt: (prompt: string, ctx: GenerateContext = {}) =>
        api.llm.generatePrompt({
          prompt: prompt.slice(0, 20_000),
          entityType: ctx.entityType,
          llmModelId: ctx.llmModelId && ctx.llmModelId !== 'default' ? ctx.llmModelId : undefined,
        }),
      generateColumn: async (hint: string, ctx: GenerateContext = {}) => {
        // No column for the hint answers 400 with the spec's message, shown by the schema editor.
        const r = await api.llm.generateSchemaObject({
          hint,
          prompt: ctx.prompt?.slice(0, 20_000) || undefined,
          existingNames: ctx.existingNames?.filter(Boolean).slice(0, 100),
          llmModelId: ctx.llmModelId && ctx.llmModelId !== 'default' ? ctx.llmModelId : undefined,
        });
        return r.keyName ? r : null;
      },
    }),
    [api],
  );
}
