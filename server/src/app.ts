import Fastify, { type FastifyInstance, type FastifyBaseLogger } from 'fastify';
import cookie from '@fastify/cookie';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config';
import { RedactingLogController, withRedaction } from './logger';
import './plugins/types';
import { registerErrorHandler, type SpaHtml } from './plugins/errors';
import { registerAuth } from './modules/auth/auth.plugin';
import { SessionCache } from './lib/session-cache';
import { FieldCache, useFieldCache } from './modules/fields/field-cache';
import { registerProxyWarning } from './plugins/proxy-warning';
import { registerInputGuard } from './plugins/input-guard';
import { registerOpenApi } from './plugins/openapi';
import { Mailer } from './modules/email/system/mailer';
import { BackgroundTasks } from './lib/background';
import { healthRoutes, type Readiness } from './modules/system/health.routes';
import { metricsPlugin } from './modules/system/metrics';
import { setupRoutes } from './modules/organization/setup.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { userRoutes } from './modules/users/user.routes';
import { organizationRoutes } from './modules/organization/organization.routes';
import { invitationRoutes } from './modules/invitations/invitation.routes';
import { fieldRoutes } from './modules/fields/fields.routes';
import { fieldValueRoutes } from './modules/records/field-value.routes';
import { recordRoutes } from './modules/records/records.routes';
import { crmLinkRoutes } from './modules/crm/links/crm-links.routes';
import { layoutRoutes } from './modules/records/layouts.routes';
import { mailboxRoutes } from './modules/email/people/mailbox.routes';
import { realtimePlugin } from './modules/realtime/realtime.plugin';
import { realtimeRoutes } from './modules/realtime/realtime.routes';
import { executionRoutes } from './modules/executions/executions.routes';
import { notificationRoutes } from './modules/notifications/notifications.routes';
import { activityRoutes } from './modules/activities/activities.routes';
import { enrichmentRoutes } from './modules/enrichments/enrichments.routes';
import { LlmService } from './providers/llm';
import { llmRoutes } from './modules/llm/llm.routes';
import { integrationRoutes } from './modules/integrations/integrations.routes';
import { crmRoutes } from './modules/crm/crm.routes';
import { crmConnector } from './modules/crm/connect/crm-connect';
import { crmSyncRoutes } from './modules/crm/sync/crm-sync.routes';
import { emailSettingsRoutes } from './modules/email/settings/email-settings.routes';
import { aiSummaryRoutes } from './modules/organization/ai-summary.routes';
import { playRoutes } from './modules/plays/plays.routes';
import { emailDraftRoutes } from './modules/email/drafts/drafts.routes';
import { listRoutes } from './modules/lists/lists.routes';
import { listSourceRoutes } from './modules/lists/list-sources.routes';
import { scoringRoutes } from './modules/scoring/scoring.routes';
import { emailSendRoutes } from './modules/email/send/email-send.routes';

export interface AppDeps {
  config: Config;
  orm: MikroORM;
  boss: PgBoss | null;
  /** Shared with main.ts, which flips it on SIGTERM and when the worker has started (GET /ready). */
  readiness?: Readiness;
  logger: Logger;
  mailer?: Mailer;
}

export type App = FastifyInstance;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    // Request lines never carry OAuth codes, `state` or other secrets of a query string (logger.ts).
    loggerInstance: withRedaction(deps.logger) as FastifyBaseLogger,
    logController: new RedactingLogController(),
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('orm', deps.orm);
  app.decorate('boss', deps.boss);
  app.decorate('readiness', deps.readiness ?? { shuttingDown: false, workerStarted: null });
  app.decorate('mailer', deps.mailer ?? new Mailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger: deps.logger }));
  app.decorate('background', new BackgroundTasks(deps.logger));
  app.decorate('llm', new LlmService({ orm: deps.orm, config, logger: deps.logger }));
  app.addHook('onClose', async () => app.background.drain());
  const spaHtml = readWebIndex(config.WEB_DIST, deps.logger);
  registerErrorHandler(app, { spaHtml });
  // Before every route: NUL characters and lone surrogates anywhere in the input answer 400.
  registerInputGuard(app);
  // Behind a proxy without TRUST_PROXY every user has the proxy's address: warned (start-up, hourly).
  registerProxyWarning(app, config, app.log);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Fluent UI (Griffel) injects style tags at run time; the Swagger UI uses inline styles too.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        scriptSrc: ["'self'"],
        frameAncestors: ["'self'", 'https://outlook.office.com', 'https://outlook.office365.com', 'https://outlook.live.com'],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cors, {
    // Only the configured origins (PUBLIC_URL's or CORS_ORIGINS, and CHROME_EXTENSION_IDS' extensions).
    origin: (origin, cb) => cb(null, !origin || config.corsOrigins.includes(origin)),
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['content-type', 'authorization', 'x-csrf-token'],
  });
  await app.register(cookie);
  // Answers of 1 KB and more (JSON pages, CSV exports, files without a precompressed copy) go out
  // brotli- or gzip-compressed when the client accepts it; the built assets' copies are compressed
  // at build time and pass through untouched (they already carry Content-Encoding). Brotli at
  // quality 4 (the plugin's default): per-request speed over the last few percent. Request bodies
  // are never decompressed (the body limit holds for what arrives).
  await app.register(compress, { globalCompression: true, globalDecompression: false, encodings: ['br', 'gzip'], threshold: 1024 });
  await registerOpenApi(app, config);

  // One EntityManager per request; the auth hook switches its tenant filter on.
  app.decorateRequest('em', null as never);
  app.addHook('onRequest', async (req, reply) => {
    req.em = deps.orm.em.fork();
    // Draining after SIGTERM (READY_DRAIN_MS): requests are still served, and each answer closes its
    // connection, so the balancer keeps no idle connection that the listener's close would cut.
    if (app.readiness.shuttingDown) reply.header('connection', 'close');
  });
  // Sessions looked up by the auth hook, kept a few seconds (SESSION_CACHE_MS; see session-cache.ts).
  const sessionCache = new SessionCache({
    connectionString: deps.orm.config.get('clientUrl')!,
    ttlMs: config.SESSION_CACHE_MS,
    logger: deps.logger,
  });
  // The field definitions' cache shares its LISTEN connection and time to live (fields/field-cache.ts).
  const fieldCache = new FieldCache({ ttlMs: config.SESSION_CACHE_MS, live: () => sessionCache.listening });
  sessionCache.watch((p) => fieldCache.announced(p));
  useFieldCache(deps.orm.em, fieldCache);
  await sessionCache.start();
  app.addHook('onClose', async () => {
    useFieldCache(deps.orm.em, null);
    await sessionCache.close();
  });
  registerAuth(app, sessionCache);

  await app.register(metricsPlugin);
  await app.register(healthRoutes);
  await app.register(setupRoutes, { prefix: '/api/v1' });
  await app.register(authRoutes, { prefix: '/api' });
  await app.register(userRoutes, { prefix: '/api/v1' });
  await app.register(organizationRoutes, { prefix: '/api/v1' });
  await app.register(invitationRoutes, { prefix: '/api/v1' });
  await app.register(fieldRoutes, { prefix: '/api/v1' });
  await app.register(fieldValueRoutes, { prefix: '/api/v1' });
  await app.register(recordRoutes, { prefix: '/api/v1' });
  await app.register(crmLinkRoutes, { prefix: '/api/v1' });
  await app.register(layoutRoutes, { prefix: '/api/v1' });
  await app.register(mailboxRoutes, { prefix: '/api/v1' });
  await app.register(realtimePlugin);
  await app.register(realtimeRoutes, { prefix: '/api/v1' });
  await app.register(executionRoutes, { prefix: '/api/v1' });
  await app.register(notificationRoutes, { prefix: '/api/v1' });
  await app.register(activityRoutes, { prefix: '/api/v1' });
  await app.register(llmRoutes, { prefix: '/api/v1' });
  await app.register(integrationRoutes, { prefix: '/api/v1', crm: crmConnector });
  await app.register(crmRoutes, { prefix: '/api/v1' });
  await app.register(crmSyncRoutes, { prefix: '/api/v1' });
  await app.register(emailSettingsRoutes, { prefix: '/api/v1' });
  await app.register(aiSummaryRoutes, { prefix: '/api/v1' });
  await app.register(playRoutes, { prefix: '/api/v1' });
  await app.register(emailDraftRoutes, { prefix: '/api/v1' });
  await app.register(listRoutes, { prefix: '/api/v1' });
  await app.register(listSourceRoutes, { prefix: '/api/v1' });
  await app.register(scoringRoutes, { prefix: '/api/v1' });
  await app.register(emailSendRoutes, { prefix: '/api/v1' });
  await app.register(enrichmentRoutes, { prefix: '/api/v1' });

  if (spaHtml)
    await app.register(fastifyStatic, {
      root: config.WEB_DIST,
      prefix: '/',
      wildcard: false,
      index: false,
      ...builtAssetOptions,
    });
  await registerAddin(app, config, deps.logger);
  return app;
}

/** A built chunk under assets/ with Vite's content hash in its name (icons there keep plain names),
 *  or its precompressed copy. */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[\w-]{8}\.(?:js|css)(?:\.br|\.gz)?$/;

/**
 * How a Vite build (the web app's, the pane's) is served: the .br / .gz copies written at build time
 * (shared/src/build/precompress.ts) go to browsers that accept them, never compressed per request;
 * content-hashed chunks are cached for a year without revalidation (a new build has new names);
 * HTML is always revalidated so a new build is picked up at once.
 */
const builtAssetOptions = {
  preCompressed: true,
  // The copies are found beside their file; they get no route of their own.
  globIgnore: ['**/*.br', '**/*.gz'],
  setHeaders: (res: { header(name: string, value: string): unknown }, file: string) => {
    if (/\.html(?:\.br|\.gz)?$/.test(file)) res.header('cache-control', 'no-cache');
    else if (HASHED_ASSET.test(file)) res.header('cache-control', 'public, max-age=31536000, immutable');
  },
};

/**
 * The Outlook add-in's task pane at /addin/ (its manifest points there) and office.js from the npm
 * package at /addin/office-js/ (office.js loads its host scripts beside itself). Both only when built
 * or installed; the pane's index.html is never cached so a new build reaches Outlook at once.
 */
async function registerAddin(app: FastifyInstance, config: Config, logger: Logger): Promise<void> {
  if (fs.existsSync(path.join(config.OFFICE_JS_DIST, 'office.js'))) {
    await app.register(fastifyStatic, {
      root: config.OFFICE_JS_DIST,
      prefix: '/addin/office-js/',
      decorateReply: false,
      index: false,
      maxAge: '1d',
    });
  } else {
    logger.warn({ dist: config.OFFICE_JS_DIST }, 'office.js not found (npm install): the Outlook add-in cannot start');
  }
  if (!fs.existsSync(path.join(config.ADDIN_DIST, 'index.html'))) {
    logger.warn({ dist: config.ADDIN_DIST }, 'Outlook add-in not built (npm run build): /addin/ is not served');
    return;
  }
  await app.register(fastifyStatic, {
    root: config.ADDIN_DIST,
    prefix: '/addin/',
    decorateReply: false,
    index: ['index.html'],
    ...builtAssetOptions,
  });
  // The pane's relative asset paths need the trailing slash.
  app.get('/addin', { config: { auth: 'public' }, schema: { hide: true } }, (_req, reply) => reply.redirect('/addin/', 301));
}

/** The built web app's index.html (and its .br / .gz copies), served for every client-side route; null when not built. */
function readWebIndex(dist: string, logger: Logger): SpaHtml | null {
  const index = path.join(dist, 'index.html');
  if (!fs.existsSync(index)) {
    logger.warn({ dist }, 'web app not built (npm run build): only the API is served');
    return null;
  }
  const copy = (ext: string) => (fs.existsSync(`${index}.${ext}`) ? fs.readFileSync(`${index}.${ext}`) : null);
  return { plain: fs.readFileSync(index, 'utf8'), br: copy('br'), gz: copy('gz') };
}
