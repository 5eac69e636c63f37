import { z } from 'zod';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { parseAllowedPrivateHosts, type AllowedPrivateHost } from './lib/private-hosts';

/** The repository root (server/src/config.ts → ../..). */
export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no', '']).transform((v) => v === 'true' || v === '1' || v === 'yes');
const optional = z
  .string()
  .trim()
  .min(1)
  .optional()
  .or(z.literal('').transform(() => undefined));

/** The id of the product's own Chrome extension (derived from the public key in its manifest). */
export const OWN_EXTENSION_ID = 'lmpiopghbddnplkmihdpolifpfjmgfke';

/** Every setting, from the environment, with its default. README's configuration table lists them. */
export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: optional,
  DATABASE_URL: optional,
  DATA_DIR: z.string().default(path.join(ROOT_DIR, '.data')),
  EMBEDDED_PG_PORT: z.coerce.number().int().default(5488),
  /** shared_buffers of the embedded PostgreSQL in MB; default a quarter of the memory, 128–4096 (db/embedded.ts). */
  EMBEDDED_PG_SHARED_BUFFERS_MB: z.coerce.number().int().min(16).optional(),
  /** How long the server keeps an idle database connection open (database.ts). */
  DB_POOL_IDLE_SECONDS: z.coerce.number().int().min(1).default(300),
  /** Database connections per process (MikroORM's pool); pg-boss keeps up to 5 more of its own (jobs/boss.ts). */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  ROLE: z.enum(['api', 'worker', 'both']).default('both'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CORS_ORIGINS: z.string().default(''),
  /**
   * Chrome extension ids whose pages may call the API with credentials (CORS) and open the realtime
   * socket; default: the product's own extension (its id follows from the `key` in
   * extension-chrome/public/manifest.json). A store-published build has the store's id: set it here.
   */
  CHROME_EXTENSION_IDS: z.string().default(OWN_EXTENSION_ID),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 14),
  TOKEN_TTL_DAYS: z.coerce.number().positive().default(90),
  /**
   * How long an API process keeps a session it looked up (server/src/lib/session-cache.ts):
   * revocations, disabled users and changes to a user's row reach every process at once (NOTIFY);
   * this bounds only what no trigger announces. 0 looks the session up on every request.
   */
  SESSION_CACHE_MS: z.coerce.number().int().min(0).default(5000),
  COOKIE_SECURE: bool.optional(),
  TRUST_PROXY: bool.default(false),
  // GET /metrics answers only with `Authorization: Bearer <METRICS_TOKEN>`; unset: the route is a 404.
  METRICS_TOKEN: optional,
  /**
   * A metrics listener of its own (worker processes have no HTTP API): GET /metrics on this port, on
   * METRICS_HOST, with the same token. Unset: no listener.
   */
  METRICS_PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65535)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  METRICS_HOST: z.string().default('127.0.0.1'),
  // After SIGTERM the API answers not-ready (GET /ready 503) this long before it stops listening.
  READY_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /**
   * The nice value of a `--role worker` process (0 leaves it as started): its jobs yield CPU to the API
   * processes and PostgreSQL on the same host (lib/priority.ts). 5: about a quarter of a core's share against
   * one busy process at 0 — requests keep their pace, and a run's work and events still move while the host is
   * busy (at 10, a tenth, a run's events reached sockets seconds late). A one-process install (`both`) is not lowered.
   */
  WORKER_NICE: z.coerce.number().int().min(0).max(19).default(5),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().positive().default(20),
  LOGIN_WINDOW_MINUTES: z.coerce.number().positive().default(15),
  RESET_TOKEN_TTL_MINUTES: z.coerce.number().positive().max(60).default(60),
  INVITE_TTL_DAYS: z.coerce.number().positive().default(7),
  DEFAULT_MAX_USERS: z.coerce.number().int().positive().default(10),
  SMTP_URL: optional,
  MAIL_FROM: z.string().default('Dealscout <no-reply@dealscout.local>'),
  DEALSCOUT_ADMIN_EMAIL: optional,
  DEALSCOUT_ADMIN_PASSWORD: optional,
  DEALSCOUT_ORG_NAME: optional,
  WEB_DIST: z.string().default(path.join(ROOT_DIR, 'web', 'dist')),
  // The Outlook add-in's built task pane, served at /addin/, and office.js from the npm package
  // (@microsoft/office-js), served at /addin/office-js/ (the pane loads no script from elsewhere).
  ADDIN_DIST: z.string().default(path.join(ROOT_DIR, 'addin-outlook', 'dist')),
  OFFICE_JS_DIST: z.string().default(path.join(ROOT_DIR, 'node_modules', '@microsoft', 'office-js', 'dist')),
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).default(0.5),
  /**
   * pg-boss worker heartbeats (every queue): a worker refreshes its active jobs every half of this;
   * a job whose worker stopped refreshing (killed, frozen, cut off) is failed and retried after this
   * many seconds plus at most JOB_SUPERVISE_SECONDS. pg-boss requires at least 10.
   */
  JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(3600).default(10),
  /** How often a worker process's pg-boss supervisor fails jobs whose heartbeat stopped (and expired ones). */
  JOB_SUPERVISE_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
  /** SIGTERM / SIGINT: how long in-flight work may take to finish before it is released to another worker. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(15),
  // Realtime (server/src/modules/realtime). The secret signs the short-lived socket tokens; every API
  // process must share it. Required in production; development and tests use a fixed default.
  REALTIME_SECRET: z
    .string()
    .min(32, 'REALTIME_SECRET must be at least 32 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  REALTIME_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
  REALTIME_MAX_BUFFERED_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(4 * 1_048_576),
  REALTIME_FLUSH_MS: z.coerce.number().int().min(0).max(1000).default(25),
  REALTIME_REPLAY_LIMIT: z.coerce.number().int().positive().default(10_000),
  REALTIME_RETENTION_HOURS: z.coerce.number().positive().default(72),
  REALTIME_SESSION_CHECK_SECONDS: z.coerce.number().positive().default(60),
  // Executions (server/src/modules/executions).
  EXECUTION_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
  EXECUTION_BATCH_SIZE: z.coerce.number().int().min(1).max(100).default(100),
  EXECUTION_ORG_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(200),
  EXECUTION_RETRY_LIMIT: z.coerce.number().int().min(0).max(20).default(3),
  EXECUTION_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).default(5),
  EXECUTION_EXPIRE_SECONDS: z.coerce.number().int().min(1).default(900),
  // Language model (server/src/providers/llm). The system provider: any OpenAI-compatible endpoint;
  // without OPENAI_API_KEY only organizations with their own key (an openai integration) can use AI.
  OPENAI_API_KEY: optional,
  OPENAI_BASE_URL: optional,
  /** Comma-separated model ids of the system provider; the first is the default. */
  OPENAI_MODELS: z.string().default('gpt-4o-mini'),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  /** Attempts per call for 429 / 5xx / connection errors (1 = no retry). */
  LLM_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(4),
  /** A Retry-After longer than this is not waited out in the call: it fails as retryable. */
  LLM_MAX_RETRY_WAIT_MS: z.coerce.number().int().min(0).default(30_000),
  /** Calls in flight per organization and process. */
  LLM_ORG_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
  /** Calls started per organization and process per minute (0 = no limit). */
  LLM_ORG_RATE_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  /**
   * Private hosts a URL typed by a user (an organization's AI provider base URL, later CRM and data
   * provider URLs) may reach although they are not public: comma-separated names, addresses or
   * CIDR ranges, each optionally with :port (e.g. `llm.internal,10.0.5.0/24,127.0.0.1:11434`).
   * Everything else must be a public internet address (providers/web/outbound.ts).
   */
  OUTBOUND_ALLOWED_PRIVATE_HOSTS: z.string().default(''),
  /** Lets organizations point their own key at an http:// base URL in production (tests, private gateways). */
  LLM_ALLOW_HTTP_BASE_URL: bool.default(false),
  // Office 365 mailboxes (server/src/modules/email/providers): the app registered in Microsoft Entra
  // (README 'Office 365'). Without O365_CLIENT_ID the email-service card says the service is not
  // configured. Authority and Graph URLs are the operator's (sovereign clouds, the loopback fake).
  O365_CLIENT_ID: optional,
  O365_CLIENT_SECRET: optional,
  O365_TENANT: z.string().default('common'),
  /** Where Microsoft sends the user back; default PUBLIC_URL + /api/v1/user/o365-integration/callback. */
  O365_REDIRECT_URL: optional,
  O365_AUTHORITY_URL: z.url().default('https://login.microsoftonline.com'),
  GRAPH_BASE_URL: z.url().default('https://graph.microsoft.com/v1.0'),
  /** A refresh token's life without use (Microsoft: 90 days, sliding): the integration's expiresAt. */
  O365_REFRESH_TOKEN_DAYS: z.coerce.number().int().min(1).max(365).default(90),
  GRAPH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(30_000),
  /** Attempts of one email's send job before it is marked failed ('Try Again'). */
  EMAIL_SEND_RETRY_LIMIT: z.coerce.number().int().min(0).max(20).default(5),
  EMAIL_SEND_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).default(10),
  // Encrypts stored secrets (integration API keys) with AES-256-GCM. Required in production; every
  // process must share it (a changed key makes stored secrets unreadable).
  SECRETS_KEY: z
    .string()
    .min(32, 'SECRETS_KEY must be at least 32 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  // CRM integrations (server/src/modules/crm, server/src/modules/integrations). Salesforce: the
  // connected app's consumer key (and secret, unless the app is a PKCE-only public client); its
  // callback URL is {PUBLIC_URL}/api/v1/integrations/salesforce/callback. Without the key the
  // Salesforce card says the operator must set it up. The login URLs are the operator's (a My
  // Domain, or a fake in tests); every instance URL Salesforce answers passes the outbound policy.
  SALESFORCE_CLIENT_ID: optional,
  SALESFORCE_CLIENT_SECRET: optional,
  SALESFORCE_LOGIN_URL: z.url().default('https://login.salesforce.com'),
  SALESFORCE_SANDBOX_LOGIN_URL: z.url().default('https://test.salesforce.com'),
  /** Affinity API base URL (v1). */
  AFFINITY_BASE_URL: z.url().default('https://api.affinity.co'),
  // Research agents and outside data (server/src/providers/web, search, company-details). Without
  // SEARCH_API_KEY the agents' web_search tool tells the model search is unavailable; without
  // MIXRANK_API_KEY the LinkedIn (mixrankCompanyDetails) enrichment fails with a message saying so.
  SEARCH_API_KEY: optional,
  /** Brave Search API base URL. */
  SEARCH_BASE_URL: z.url().default('https://api.search.brave.com'),
  MIXRANK_API_KEY: optional,
  MIXRANK_BASE_URL: z.url().default('https://api.mixrank.com/v2/json'),
  // List sources (server/src/providers/list-sources): the vendors' API base URLs. The keys are the
  // organizations' own (Profile → Integrations, stored encrypted); Source Scrub's API client
  // credential (base64 of client id:secret, sent as Basic to its token endpoint) is the operator's.
  OCEAN_BASE_URL: z.url().default('https://api.ocean.io'),
  GOOGLE_PLACES_BASE_URL: z.url().default('https://places.googleapis.com'),
  SOURCESCRUB_BASE_URL: z.url().default('https://api.sourcescrub.com'),
  SOURCESCRUB_IDENTITY_URL: z.url().default('https://identity.sourcescrub.com'),
  SOURCESCRUB_CLIENT_BASIC: optional,
  /** One call to a list-source provider. */
  LIST_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(30_000),
  /** Model calls with tools per research-agent run (then one call for the answer). */
  AGENT_MAX_STEPS: z.coerce.number().int().min(1).max(50).default(8),
  /** Wall time of one research-agent run; a deep research run gets three times this. */
  AGENT_MAX_SECONDS: z.coerce.number().int().min(5).max(1800).default(120),
  /** Per page fetched by an agent: total time (all redirects) and decoded body size. */
  FETCH_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(15_000),
  FETCH_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1_048_576)
    .default(2 * 1_048_576),
});

export type Config = Omit<z.infer<typeof ConfigSchema>, 'REALTIME_SECRET' | 'SECRETS_KEY'> & {
  REALTIME_SECRET: string;
  /** False when REALTIME_SECRET fell back to the development default. */
  realtimeSecretSet: boolean;
  SECRETS_KEY: string;
  /** False when SECRETS_KEY fell back to the development default. */
  secretsKeySet: boolean;
  /** OPENAI_MODELS as a list (first = default). */
  openaiModels: string[];
  publicUrl: string;
  /** Browser origins allowed with credentials (CORS) and on the realtime socket: CORS_ORIGINS and the extensions. */
  corsOrigins: string[];
  cookieSecure: boolean;
  /** OUTBOUND_ALLOWED_PRIVATE_HOSTS parsed. */
  allowedPrivateHosts: AllowedPrivateHost[];
  /** O365_REDIRECT_URL or its default. */
  o365RedirectUrl: string;
};

/** Tests only (NODE_ENV=test): fixed, public values. Development generates its own (localSecrets). */
export const DEV_REALTIME_SECRET = 'dealscout-development-realtime-secret-not-for-production';
/** Tests only, like DEV_REALTIME_SECRET. */
export const DEV_SECRETS_KEY = 'dealscout-development-secrets-key-not-for-production';

/** The file in DATA_DIR that keeps a development install's generated secrets. */
export const LOCAL_SECRETS_FILE = 'local-secrets.json';

/**
 * Development without REALTIME_SECRET / SECRETS_KEY: random values generated on first start and
 * kept in DATA_DIR/local-secrets.json (mode 0600), so every process of the install (api, worker,
 * scripts) shares them and nobody can forge socket tokens or read stored keys from the source code.
 * Created with O_EXCL: of two processes starting at once, one writes and the other reads.
 */
export function localSecrets(dataDir: string): { REALTIME_SECRET: string; SECRETS_KEY: string } {
  const file = path.join(dataDir, LOCAL_SECRETS_FILE);
  const read = () => JSON.parse(fs.readFileSync(file, 'utf8')) as { REALTIME_SECRET: string; SECRETS_KEY: string };
  if (fs.existsSync(file)) return read();
  fs.mkdirSync(dataDir, { recursive: true });
  const fresh = { REALTIME_SECRET: randomBytes(32).toString('base64url'), SECRETS_KEY: randomBytes(32).toString('base64url') };
  try {
    fs.writeFileSync(file, JSON.stringify(fresh, null, 2) + '\n', { flag: 'wx', mode: 0o600 });
    return fresh;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return read();
    throw err;
  }
}

/** Settings a production API process cannot run without (checked by main.ts at start). */
export function productionProblems(config: Config, role: { api: boolean }): string[] {
  const problems: string[] = [];
  if (config.NODE_ENV === 'production' && role.api && !config.realtimeSecretSet) {
    problems.push('REALTIME_SECRET is required in production: a random string of 32 characters or more, the same for every API process');
  }
  if (config.NODE_ENV === 'production' && !config.secretsKeySet) {
    problems.push(
      'SECRETS_KEY is required in production: a random string of 32 characters or more, the same for every process (it encrypts stored API keys)',
    );
  }
  return problems;
}

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Record<keyof z.infer<typeof ConfigSchema>, unknown>> = {},
): Config {
  const parsed = ConfigSchema.safeParse({ ...env, ...overrides });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const c = parsed.data;
  const publicUrl = (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, '');
  const extensionOrigins = c.CHROME_EXTENSION_IDS.split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((id) => `chrome-extension://${id}`);
  const corsOrigins = [
    ...(c.CORS_ORIGINS
      ? c.CORS_ORIGINS.split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [new URL(publicUrl).origin]),
    ...extensionOrigins,
  ];
  const openaiModels = c.OPENAI_MODELS.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  let allowedPrivateHosts: AllowedPrivateHost[];
  try {
    allowedPrivateHosts = parseAllowedPrivateHosts(c.OUTBOUND_ALLOWED_PRIVATE_HOSTS);
  } catch (err) {
    throw new Error(`Invalid configuration:\n  ${(err as Error).message}`, { cause: err });
  }
  // Production requires both (productionProblems); tests use the fixed values; development generates its own.
  const local = c.NODE_ENV === 'development' && (!c.REALTIME_SECRET || !c.SECRETS_KEY) ? localSecrets(c.DATA_DIR) : null;
  const fallback = local ?? { REALTIME_SECRET: DEV_REALTIME_SECRET, SECRETS_KEY: DEV_SECRETS_KEY };
  return {
    ...c,
    REALTIME_SECRET: c.REALTIME_SECRET ?? fallback.REALTIME_SECRET,
    realtimeSecretSet: Boolean(c.REALTIME_SECRET),
    SECRETS_KEY: c.SECRETS_KEY ?? fallback.SECRETS_KEY,
    secretsKeySet: Boolean(c.SECRETS_KEY),
    openaiModels,
    publicUrl,
    corsOrigins,
    allowedPrivateHosts,
    cookieSecure: c.COOKIE_SECURE ?? publicUrl.startsWith('https://'),
    o365RedirectUrl: c.O365_REDIRECT_URL ?? `${publicUrl}/api/v1/user/o365-integration/callback`,
  };
}
