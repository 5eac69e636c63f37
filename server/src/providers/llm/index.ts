// The LLM port for the rest of the server.
//
// How to get one:
//   - in a route:             app.llm.complete({...})           (decorated in app.ts)
//   - in a job / execution:   getLlm({ em: ctx.em, config })     (config: the process's Config; when
//                              omitted, loadConfig() reads process.env)
//   const res = await llm.complete({
//     organizationId, model: enrichment.llmModelId ?? 'default',
//     messages: [{ role: 'system', content: '...' }, { role: 'user', content: prompt }],
//     responseSchema: { name: 'enrichment', schema: strictJsonSchema },   // answer = JSON text in res.content
//     tools: [{ name, description, parameters }],                          // res.toolCalls when the model calls them
//     signal: ctx.signal, chargeKey: `${execution.id}:${step}`,
//   });
// JSON.parse(res.content!)  — with responseSchema, content is checked to be JSON (else LlmError 'bad_output'; with
// textAnswer a non-JSON text is returned as is).
// Errors are LlmError (port.ts) with a message fit for the user (execution statusMessage):
//   not_configured (says where to configure), credits_exhausted, rate_limited / provider / timeout
//   (err.retryable: worth retrying the job later), cancelled, bad_output.
// Tests: run against server/test/fakes/openai-server.ts (OPENAI_BASE_URL = fake.url, OPENAI_API_KEY).
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { loadConfig, type Config } from '../../config';
import { completeWithOpenAi } from './openai';
import { OrgLimiter } from './limiter';
import { chargeCredit, refundCredit } from './credits';
import { resolveLlm, pickModel, type ResolvedLlm } from './resolve';
import { outboundFetchFor } from '../web/outbound';
import { LlmError, type LlmPort, type LlmRequest, type LlmResponse } from './port';

export * from './port';
export { resolveLlm, NOT_CONFIGURED_MESSAGE, type ResolvedLlm } from './resolve';
export { CREDITS_EXHAUSTED_MESSAGE } from './credits';

/** One limiter per process: every LlmService of the process shares the per-organization limits. */
const limiter = new OrgLimiter({ concurrency: 8, ratePerMinute: 600 });

export interface LlmDeps {
  /** Any EntityManager (it is forked; filters do not matter: the adapter uses plain SQL). */
  em?: EntityManager;
  orm?: MikroORM;
  config?: Config;
  logger?: Logger;
  /** A memo shared by the calls of a claimed batch of executions: the organization's provider is resolved once for all of them. */
  memo?: <T>(key: string, load: () => Promise<T>) => Promise<T>;
  /**
   * Aborted when the worker process stops (an execution's `draining`): a call not started yet is
   * not started (LlmError 'cancelled', no charge), a call waiting for its turn gives up; calls
   * already sent to the model are left to finish.
   */
  stopping?: AbortSignal;
}

export class LlmService implements LlmPort {
  private readonly config: Config;
  private readonly em: EntityManager;

  constructor(deps: LlmDeps) {
    const em = deps.em ?? deps.orm?.em;
    if (!em) throw new Error('LlmService needs an EntityManager or the ORM');
    this.em = em;
    this.config = deps.config ?? loadConfig();
    limiter.configure({ concurrency: this.config.LLM_ORG_CONCURRENCY, ratePerMinute: this.config.LLM_ORG_RATE_PER_MINUTE });
    this.logger = deps.logger;
    this.memo = deps.memo;
    this.stopping = deps.stopping;
  }

  private readonly stopping?: AbortSignal;

  private readonly memo?: LlmDeps['memo'];

  private readonly logger?: Logger;

  /** The organization's provider, models and settings (for GET /organization and validation). */
  resolve(organizationId: string): Promise<ResolvedLlm> {
    return resolveLlm(this.em.fork(), this.config, organizationId);
  }

  /**
   * With a memo (an execution batch's): starts resolving the organization's provider now, beside the
   * handler's own reads, so the batch's first call does not wait for it after them. A failed read
   * is not kept by the memo: the call reads again and reports it.
   */
  prepare(organizationId: string): void {
    if (!this.memo) return;
    this.memo(`llm-resolve:${organizationId}`, () => this.resolve(organizationId)).catch(() => {});
  }

  async complete(req: LlmRequest): Promise<LlmResponse> {
    if (req.signal?.aborted || this.stopping?.aborted) throw new LlmError('cancelled', 'The AI request was cancelled.');
    const resolved = this.memo
      ? await this.memo(`llm-resolve:${req.organizationId}`, () => this.resolve(req.organizationId))
      : await this.resolve(req.organizationId);
    const model = pickModel(resolved, req.model);
    // Charged before the wait for a slot: the slot is then held for the request alone (a charge
    // statement per slot-holder would add its round trip to every call's turn at the limit). A call
    // cancelled while it waits gets its credit back.
    const charge = resolved.source === 'system' ? await chargeCredit(this.em, req.organizationId, req.chargeKey, model) : null;
    let release: () => void;
    try {
      const wait = this.stopping ? AbortSignal.any([this.stopping, ...(req.signal ? [req.signal] : [])]) : req.signal;
      release = await limiter.acquire(req.organizationId, wait, req.priority);
      // The process began to stop while this call waited (or a slot was free at once): not sent.
      if (this.stopping?.aborted) {
        release();
        throw new LlmError('cancelled', 'The AI request was cancelled.');
      }
    } catch (err) {
      if (charge?.charged) await refundCredit(this.em, req.organizationId, charge.chargeKey);
      throw err;
    }
    try {
      try {
        return await completeWithOpenAi(
          {
            apiKey: resolved.apiKey!,
            baseURL: resolved.baseURL,
            model,
            // An organization's own base URL was typed by a user: the outbound address policy applies.
            fetch: resolved.source === 'organization' ? outboundFetchFor(this.config) : undefined,
            source: resolved.source,
          },
          req,
          {
            timeoutMs: this.config.LLM_TIMEOUT_MS,
            maxAttempts: this.config.LLM_MAX_ATTEMPTS,
            maxRetryWaitMs: this.config.LLM_MAX_RETRY_WAIT_MS,
          },
        );
      } catch (err) {
        if (charge?.charged) await refundCredit(this.em, req.organizationId, charge.chargeKey);
        if (err instanceof LlmError)
          this.logger?.info({ organizationId: req.organizationId, model, kind: err.kind }, `llm call failed: ${err.message}`);
        throw err;
      }
    } finally {
      release();
    }
  }
}

/** An LlmPort for a job or execution handler (cheap: every instance shares the process's limits). */
export function getLlm(deps: LlmDeps): LlmService {
  return new LlmService(deps);
}
