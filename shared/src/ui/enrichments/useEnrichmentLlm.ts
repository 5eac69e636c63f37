// The two language-model helpers of the editors (spec 001 §7 'Generate prompt (prompt) and generate
// schema object from a hint (hint)'): POST /api/v1/enrichment/generate-prompt and
// /generate-schema-object.
import { useMemo } from 'react';
import { z } from 'zod';
import type { GeneratedColumn } from '../../domain';
import { useApi } from '../ApiContext';

export interface GeneratedPrompt extends GeneratedColumn {
  enrichmentName?: string | null;
}

export interface EnrichmentLlm {
  generatePrompt: (prompt: string) => Promise<GeneratedPrompt>;
  generateColumn: (hint: string) => Promise<GeneratedColumn | null>;
}

// The answers as the editors read them (spec 001 §3 'Generated column hint result').
const Generated = z.object({
  enrichmentName: z.string().nullish(),
  keyName: z.string().nullish(),
  keyDescription: z.string().nullish(),
  keyDataType: z.string().nullish(),
  keyOptions: z.array(z.string()).nullish(),
}).loose();

export function useEnrichmentLlm(): EnrichmentLlm {
  const api = useApi();
  return useMemo(() => ({
    generatePrompt: (prompt: string) => api.http.request('POST', '/api/v1/enrichment/generate-prompt', Generated, { prompt }),
    generateColumn: async (hint: string) => {
      const r = await api.http.request('POST', '/api/v1/enrichment/generate-schema-object', Generated, { hint });
      return r.keyName ? r : null;
    },
  }), [api]);
}
