// Which provider, key and models an organization's LLM calls use.
//   settings.llmSettings.useSystemLlmSetting (default true) → the system provider (OPENAI_API_KEY,
//   OPENAI_BASE_URL, OPENAI_MODELS); false with an active openai integration → the organization's own
//   key (decrypted here), base URL and models (OPENAI_MODELS when it lists none). The default model
//   is the one marked isDefault in settings.llm when it is offered, else the first offered.
// Raw SQL on purpose: callers pass any EntityManager (a request's, a job's) whatever its filters.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { decryptSecret } from '../../lib/secrets';
import { LlmError } from './port';
import { tenantSql } from '../../db/sql';

export const NOT_CONFIGURED_MESSAGE =
  'No AI provider is configured for your organization. An admin can connect an OpenAI API key under Profile → ' +
  'Integrations (AI provider), or the operator can set OPENAI_API_KEY on the server.';

export interface OrgLlmSettings {
  /** Stable id of the organization's llm settings (the organization id). */
  id: string;
  useSystemLlmSetting: boolean;
  /** Chosen models with the default marked (empty: every offered model, the first default). */
  llm: Array<{ llmModelId: string; isDefault: boolean }>;
}

export interface ResolvedLlm {
  source: 'system' | 'organization';
  /** Null when the source has no key (not configured). */
  apiKey: string | null;
  baseURL: string | null;
  /** Offered model ids, default first. */
  models: string[];
  /** Every model of the active provider (the organization may offer a subset). */
  available: string[];
  defaultModel: string | null;
  integrationId: string | null;
  settings: OrgLlmSettings;
  credits: { total: number | null; used: number; expiresAt: Date | null };
}

export function readLlmSettings(organizationId: string, settings: Record<string, unknown> | null | undefined): OrgLlmSettings {
  const raw = (settings?.llmSettings ?? {}) as { useSystemLlmSetting?: unknown };
  const llm = Array.isArray(settings?.llm) ? (settings.llm as Array<{ llmModelId?: unknown; isDefault?: unknown }>) : [];
  return {
    id: organizationId,
    useSystemLlmSetting: raw.useSystemLlmSetting !== false,
    llm: llm
      .filter((x) => typeof x?.llmModelId === 'string')
      .map((x) => ({ llmModelId: x.llmModelId as string, isDefault: x.isDefault === true })),
  };
}

interface OrgRow {
  settings: Record<string, unknown> | null;
  ai_credits_total: number | null;
  ai_credits_used: number;
  ai_credits_expires_at: Date | null;
}
interface IntegrationRow {
  id: string;
  secret: string | null;
  data: { baseUrl?: string | null; models?: string[] } | null;
}

export async function resolveLlm(em: EntityManager, config: Config, organizationId: string): Promise<ResolvedLlm> {
  const [org] = await tenantSql(em, organizationId).all<OrgRow>(
    `select settings, ai_credits_total, ai_credits_used, ai_credits_expires_at from organization where id = ?`,
    [organizationId],
  );
  if (!org) throw new LlmError('not_configured', 'Organization not found.');
  const settings = readLlmSettings(organizationId, org.settings);
  const credits = {
    total: org.ai_credits_total,
    used: org.ai_credits_used,
    expiresAt: org.ai_credits_expires_at ? new Date(org.ai_credits_expires_at) : null,
  };

  let base: Pick<ResolvedLlm, 'source' | 'apiKey' | 'baseURL' | 'integrationId'> & { offered: string[] };
  const [integration] = settings.useSystemLlmSetting
    ? []
    : await tenantSql(em, organizationId).all<IntegrationRow>(
        `select id, secret, data from integration where organization_id = ? and provider = 'openai' and user_id is null and active order
          by created_at desc limit 1`,
        [organizationId],
      );
  if (integration) {
    let apiKey: string | null = null;
    if (integration.secret) {
      try {
        apiKey = decryptSecret(integration.secret, config.SECRETS_KEY, organizationId);
      } catch {
        throw new LlmError(
          'not_configured',
          "Your organization's OpenAI API key cannot be read (the server's SECRETS_KEY changed). An admin must connect " +
            'the key again under Profile → Integrations.',
        );
      }
    }
    const models = (integration.data?.models ?? []).filter((m) => typeof m === 'string' && m.trim());
    base = {
      source: 'organization',
      apiKey,
      baseURL: integration.data?.baseUrl || null,
      integrationId: integration.id,
      offered: models.length ? models : config.openaiModels,
    };
  } else {
    base = {
      source: 'system',
      apiKey: config.OPENAI_API_KEY ?? null,
      baseURL: config.OPENAI_BASE_URL ?? null,
      integrationId: null,
      offered: config.openaiModels,
    };
  }
  const chosen = settings.llm.map((x) => x.llmModelId).filter((m) => base.offered.includes(m));
  const offered = chosen.length ? chosen : base.offered;
  const marked = settings.llm.find((x) => x.isDefault && offered.includes(x.llmModelId))?.llmModelId;
  const defaultModel = marked ?? offered[0] ?? null;
  const models = defaultModel ? [defaultModel, ...offered.filter((m) => m !== defaultModel)] : offered;
  return {
    source: base.source,
    apiKey: base.apiKey,
    baseURL: base.baseURL,
    integrationId: base.integrationId,
    models,
    available: base.offered,
    defaultModel,
    settings,
    credits,
  };
}

/** The provider model for an llmModelId ('default' or an offered id); throws not_configured. */
export function pickModel(r: ResolvedLlm, llmModelId: string | undefined): string {
  if (!r.apiKey || !r.defaultModel) throw new LlmError('not_configured', NOT_CONFIGURED_MESSAGE);
  if (!llmModelId || llmModelId === 'default') return r.defaultModel;
  if (r.models.includes(llmModelId)) return llmModelId;
  throw new LlmError(
    'not_configured',
    `The AI model '${llmModelId}' is not available to your organization. Choose another model (or Default) in the ` +
      `enrichment, or ask an admin to change the organization's LLM settings.`,
  );
}
