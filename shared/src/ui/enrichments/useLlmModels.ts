// The AI Model choices of the editors: the organization's default (its llm list entry with
// isDefault) and the models it may pick (GET /api/v1/organization: settings.llm, llmModels).
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../ApiContext';

export interface LlmModelChoice {
  id: string;
  name: string;
}

type Named = { id?: unknown; name?: unknown };
const isNamed = (m: unknown): m is { id: string; name: string } =>
  !!m && typeof (m as Named).id === 'string' && typeof (m as Named).name === 'string';

/** Reads the organization's models; tolerant of an organization answer without them. */
export function llmModelsOf(org: unknown): { defaultName: string | null; models: LlmModelChoice[] } {
  const o = (org ?? {}) as { settings?: { llm?: unknown }; llmModels?: unknown };
  const list = Array.isArray(o.settings?.llm) ? (o.settings.llm as { isDefault?: boolean; llmModel?: unknown }[]) : [];
  const def = list.find((l) => l.isDefault)?.llmModel;
  // The models the organization offers (settings.llm); all of the provider's when it lists none.
  const offered = list.map((l) => l.llmModel).filter(isNamed);
  const models = offered.length ? offered : Array.isArray(o.llmModels) ? o.llmModels.filter(isNamed) : [];
  return { defaultName: isNamed(def) ? def.name : null, models: models.map((m) => ({ id: m.id, name: m.name })) };
}

export function useLlmModels(): { defaultName: string | null; models: LlmModelChoice[] } {
  const api = useApi();
  // Same key and data as the organization settings page, so one fetch serves both.
  const q = useQuery({
    queryKey: ['organization', 'details'],
    queryFn: async () => (await api.organization.get()).organization,
    staleTime: 60_000,
  });
  return llmModelsOf(q.data);
}
