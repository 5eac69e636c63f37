// The organization's AI section (GET /api/v1/organization: credits.ai, settings.llm,
// settings.llmSettings, llmModels, llmProvider) and LlmError → HTTP status for routes.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { OrganizationAiDto } from '@dealscout/shared/contracts';
import type { Config } from '../../config';
import { HttpError, notFound } from '../../lib/errors';
import { LLM_SETTINGS_MESSAGES } from '@dealscout/shared/contracts';
import { Organization } from '../../db/organization.entity';
import { LlmError, type LlmService } from '../../providers/llm';
import { creditsView } from '../../providers/llm/credits';
import { tenantSql } from '../../db/sql';

export async function organizationAi(
  em: EntityManager,
  llm: LlmService,
  config: Config,
  organizationId: string,
): Promise<OrganizationAiDto> {
  const r = await llm.resolve(organizationId);
  const [own] = await tenantSql(em, organizationId).all<{ id: string }>(
    `select id from integration where organization_id = ? and provider = 'openai' and user_id is null and active order by created_at desc limit 1`,
    [organizationId],
  );
  const model = (id: string) => ({ id, name: id });
  return {
    credits: { ai: creditsView(r.credits) },
    settings: {
      llm: r.models.map((id) => ({ isDefault: id === r.defaultModel, llmModel: model(id) })),
      llmSettings: { id: r.settings.id, useSystemLlmSetting: r.source === 'system' },
    },
    llmModels: r.available.map(model),
    llmProvider: {
      source: r.source,
      configured: Boolean(r.apiKey && r.defaultModel),
      systemAvailable: Boolean(config.OPENAI_API_KEY),
      organizationIntegrationId: own?.id ?? null,
    },
  };
}

const STATUS: Record<LlmError['kind'], number> = {
  not_configured: 400,
  credits_exhausted: 402,
  rate_limited: 429,
  timeout: 504,
  cancelled: 499,
  provider: 502,
  bad_output: 502,
};

/** An LlmError as an HTTP error with its user-facing message; other errors pass through. */
export function llmHttpError(err: unknown): unknown {
  if (err instanceof LlmError)
    return new HttpError(STATUS[err.kind], err.message, err.kind === 'rate_limited' ? { retryAfterSeconds: 30 } : {});
  return err;
}

/**
 * Changes organization.settings under a row lock (concurrent admins do not lose each other's keys),
 * in the caller's transaction when `em` is in one.
 */
export async function setLlmSettings(
  em: EntityManager,
  organizationId: string,
  change: (s: Record<string, unknown>) => Record<string, unknown>,
): Promise<void> {
  await em.transactional(async (tem) => {
    const [row] = await tenantSql(tem, organizationId).all<{ settings: Record<string, unknown> | null }>(
      `select settings from organization where id = ? for update`,
      [organizationId],
    );
    if (!row) throw notFound(LLM_SETTINGS_MESSAGES.settingsNotFound);
    await tem.nativeUpdate(Organization, { id: organizationId }, { settings: change(row.settings ?? {}) });
  });
}

/** Whether the organization has its own active OpenAI key (an organization-wide integration, not a user's). */
export async function hasOrganizationOpenAiKey(em: EntityManager, organizationId: string): Promise<boolean> {
  const [own] = await tenantSql(em, organizationId).all(
    `select id from integration where organization_id = ? and provider = 'openai' and user_id is null and active limit 1`,
    [organizationId],
  );
  return !!own;
}
