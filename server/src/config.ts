import { z } from 'zod';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The repository root (server/src/config.ts → ../..). */
export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optional = z.string().trim().min(1).optional().or(z.literal('').transform(() => undefined));

/** Every setting, from the environment, with its default. README's configuration table lists them. */
export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: optional,
  DATABASE_URL: optional,
  DATA_DIR: z.string().default(path.join(ROOT_DIR, '.data')),
  EMBEDDED_PG_PORT: z.coerce.number().int().default(5488),
  ROLE: z.enum(['api', 'worker', 'both']).default('both'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CORS_ORIGINS: z.string().default(''),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(24 * 14),
  TOKEN_TTL_DAYS: z.coerce.number().positive().default(90),
  COOKIE_SECURE: bool.optional(),
  TRUST_PROXY: bool.default(false),
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
  JOB_POLL_SECONDS: z.coerce.number().positive().default(0.5),
});

export type Config = z.infer<typeof ConfigSchema> & { publicUrl: string; corsOrigins: string[]; cookieSecure: boolean };

export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Record<keyof z.infer<typeof ConfigSchema>, unknown>> = {}): Config {
  const parsed = ConfigSchema.safeParse({ ...env, ...overrides });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const c = parsed.data;
  const publicUrl = (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, '');
  const corsOrigins = c.CORS_ORIGINS ? c.CORS_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean) : [new URL(publicUrl).origin];
  return { ...c, publicUrl, corsOrigins, cookieSecure: c.COOKIE_SECURE ?? publicUrl.startsWith('https://') };
}
