import { z } from 'zod';
import { DATA_PROVIDERS } from '../domain/lists';

// ---- Organization AI section (part of GET /api/v1/organization; answered by the llm settings routes)

export const LlmModelDto = z.object({ id: z.string(), name: z.string() });
export type LlmModelDto = z.infer<typeof LlmModelDto>;

export const AiCreditsDto = z.object({
  /** Null when unlimited. */
  remaining: z.number().nullable(),
  total: z.number().nullable(),
  expiresAt: z.string().nullable(),
});
export type AiCreditsDto = z.infer<typeof AiCreditsDto>;

export const OrganizationLlmSettingsDto = z.object({ id: z.string(), useSystemLlmSetting: z.boolean() });

export const OrganizationAiDto = z.object({
  credits: z.object({ ai: AiCreditsDto }),
  settings: z.object({
    /** The offered models, the organization's default marked. */
    llm: z.array(z.object({ isDefault: z.boolean(), llmModel: LlmModelDto })),
    llmSettings: OrganizationLlmSettingsDto,
  }),
  /** Every model of the active provider (the organization may offer a subset in settings.llm). */
  llmModels: z.array(LlmModelDto),
  llmProvider: z.object({
    /** Which key calls use now. */
    source: z.enum(['system', 'organization']),
    /** False: AI features fail with a message saying where to configure a provider. */
    configured: z.boolean(),
    /** The server has a system key (OPENAI_API_KEY). */
    systemAvailable: z.boolean(),
    /** The organization's connected openai integration, if any. */
    organizationIntegrationId: z.string().nullable(),
  }),
});
export type OrganizationAiDto = z.infer<typeof OrganizationAiDto>;

// PUT /api/v1/organization/useSystemLLMSetting (admin)
export const UseSystemLlmSettingBody = z.object({
  id: z.string().min(1, 'Invalid settings id'),
  status: z.boolean({ message: 'status must be true or false' }),
});
export type UseSystemLlmSettingBody = z.infer<typeof UseSystemLlmSettingBody>;

// PUT /api/v1/organization/llmSetting (admin): the offered models and the default one.
export const LlmSettingBody = z.object({
  settings: z.object({
    llm: z
      .array(z.object({ llmModelId: z.string().trim().min(1, 'Model is required').max(200), isDefault: z.boolean() }))
      .min(1, 'Choose at least one model')
      .max(50),
  }),
});
export type LlmSettingBody = z.infer<typeof LlmSettingBody>;

export const OrganizationAiResponse = z.object({ success: z.literal(true), message: z.string(), ai: OrganizationAiDto });
export type OrganizationAiResponse = z.infer<typeof OrganizationAiResponse>;

export const LLM_SETTINGS_MESSAGES = {
  updated: 'LLM settings updated',
  noOrganizationKey: "Connect your organization's OpenAI API key under Profile → Integrations first.",
  noSystemProvider: "The system AI provider is not configured on this server. Keep using your organization's own OpenAI API key.",
  oneDefault: 'Choose exactly one default model',
  unknownModel: (id: string) => `Unknown AI model: ${id}`,
  duplicateModel: (id: string) => `The model ${id} is listed twice`,
  settingsNotFound: 'Organization data not found',
} as const;

// ---- Integrations (spec 001 §3 Integration; §2 'Integrations settings page')

export const INTEGRATION_PROVIDERS = ['openai', 'salesforce', 'affinity', 'office365', 'ocean', 'sourceScrub', 'googleMaps'] as const;
export { DATA_PROVIDERS, DATA_PROVIDER_NAMES, type DataProvider } from '../domain/lists';
export type IntegrationProvider = (typeof INTEGRATION_PROVIDERS)[number];

export const IntegrationDto = z.object({
  id: z.string(),
  provider: z.string(),
  /** llm | crm | email */
  type: z.string(),
  /** An organization's integration, or a user's own. */
  scope: z.enum(['organization', 'user']),
  data: z.object({
    /** For openai: the API key name. */
    name: z.string(),
    createdById: z.string().nullable(),
    createdBy: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
    active: z.boolean(),
    metadata: z.object({
      name: z.string().nullable(),
      /** openai: the custom endpoint, null for OpenAI itself. */
      baseUrl: z.string().nullable().optional(),
      models: z.array(z.string()).optional(),
      /** openai: the last four characters of the key (the key itself is never returned). */
      keyHint: z.string().nullable().optional(),
      /** salesforce: production | sandbox. */
      environment: z.string().nullable().optional(),
      /** salesforce: the org's instance URL; affinity: the tenant's app URL. */
      instanceUrl: z.string().nullable().optional(),
      /** CRMs: the CRM user who authorized the connection (Salesforce username, Affinity email). */
      username: z.string().nullable().optional(),
    }),
  }),
});
export type IntegrationDto = z.infer<typeof IntegrationDto>;

// GET /api/v1/integration: the organization's integrations and the caller's own.
export const IntegrationsResponse = z.object({ success: z.literal(true), integrations: z.array(IntegrationDto) });
export type IntegrationsResponse = z.infer<typeof IntegrationsResponse>;

// POST /api/v1/organization/integration (admin) → 201. openai: name + apiKey (+ baseUrl, models);
// affinity: apiKey (+ name); salesforce: environment (production | sandbox), answered with the
// authorization URL of the OAuth web-server flow the browser goes to next.
export const CreateOrgIntegrationBody = z
  .object({
    provider: z.enum(['openai', 'salesforce', 'affinity', ...DATA_PROVIDERS], { message: 'Unsupported integration provider' }),
    name: z.string().trim().max(200, 'API key name is too long').optional(),
    apiKey: z.string().trim().max(500, 'API key is too long').optional(),
    baseUrl: z
      .union([z.url({ protocol: /^https?$/, message: 'Base URL must be an http(s) URL' }), z.literal('').transform(() => null), z.null()])
      .optional(),
    models: z.array(z.string().trim().min(1, 'Model names cannot be empty').max(200)).max(20, 'At most 20 models').optional(),
    environment: z.enum(['production', 'sandbox'], { message: 'Environment must be production or sandbox' }).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.provider === 'openai' && !b.name) ctx.addIssue({ code: 'custom', path: ['name'], message: 'API key name is required' });
    if ((b.provider === 'openai' || b.provider === 'affinity' || (DATA_PROVIDERS as readonly string[]).includes(b.provider)) && !b.apiKey)
      ctx.addIssue({ code: 'custom', path: ['apiKey'], message: 'API key is required' });
    if (b.provider === 'sourceScrub' && b.apiKey && !/^[^:]+:.+$/.test(b.apiKey))
      ctx.addIssue({ code: 'custom', path: ['apiKey'], message: 'Enter the Source Scrub account as username:password' });
  });
export type CreateOrgIntegrationBody = z.input<typeof CreateOrgIntegrationBody>;
export const IntegrationResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  integration: IntegrationDto,
  /** salesforce: where the browser goes to authorize (the integration stays inactive until the callback). */
  authorizationUrl: z.string().optional(),
});
export type IntegrationResponse = z.infer<typeof IntegrationResponse>;

export const INTEGRATION_MESSAGES = {
  notFound: 'Integration data not found',
  connected: 'AI provider connected',
  removed: 'Integration removed',
  keyRefused: 'The provider refused this API key. Check the key and try again.',
  unreachable: 'Could not reach the provider to check the API key. Check the base URL and try again.',
  httpsRequired: 'Base URL must use https',
  baseUrlRefused: (reason: string) => `This base URL cannot be used: ${reason}`,
} as const;

// ---- Enrichment AI helpers (spec 001 §3 'Generated column hint result', §5 'Enrichment form')

export const GENERATED_KEY_TYPES = ['string', 'number', 'boolean', 'categorical'] as const;
export type GeneratedKeyType = (typeof GENERATED_KEY_TYPES)[number];

// POST /api/v1/enrichment/generate-prompt
export const GeneratePromptBody = z.object({
  prompt: z.string().trim().min(1, 'Prompt is required').max(20_000, 'Prompt is too long'),
  entityType: z.enum(['company', 'contact', 'idea', 'list']).optional(),
  llmModelId: z.string().max(200).optional(),
});
export type GeneratePromptBody = z.infer<typeof GeneratePromptBody>;
export const GeneratePromptResponse = z.object({
  success: z.literal(true),
  enrichmentName: z.string(),
  keyName: z.string(),
  keyDescription: z.string(),
  /** 'categorical' means a categories schema item. */
  keyDataType: z.enum(GENERATED_KEY_TYPES),
  keyOptions: z.array(z.string()),
});
export type GeneratePromptResponse = z.infer<typeof GeneratePromptResponse>;

// POST /api/v1/enrichment/generate-schema-object
export const GenerateSchemaObjectBody = z.object({
  hint: z.string().trim().min(1, 'Hint is required').max(2000, 'Hint is too long'),
  /** The enrichment's prompt, as context. */
  prompt: z.string().max(20_000).optional(),
  /** Names already in the schema (the generated one differs). */
  existingNames: z.array(z.string().max(200)).max(100).optional(),
  llmModelId: z.string().max(200).optional(),
});
export type GenerateSchemaObjectBody = z.infer<typeof GenerateSchemaObjectBody>;
export const GenerateSchemaObjectResponse = z.object({
  success: z.literal(true),
  keyName: z.string(),
  keyDataType: z.enum(GENERATED_KEY_TYPES),
  keyDescription: z.string(),
  keyOptions: z.array(z.string()),
});
export type GenerateSchemaObjectResponse = z.infer<typeof GenerateSchemaObjectResponse>;

export const ENRICHMENT_AI_MESSAGES = {
  noColumns: "Couldn't find any columns matching the given hint. Please try again.",
} as const;
