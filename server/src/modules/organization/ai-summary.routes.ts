// The organization's AI summary (admin): PUT /organization/ai-summary saves it, POST
// /organization/ai-summary/generate drafts it from the organization's website (ai-summary.ts).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  EMAIL_SETTINGS_MESSAGES,
  EmailSettingsResponse,
  ErrorResponse,
  GenerateAiSummaryResponse,
  UpdateAiSummaryBody,
} from '@dealscout/shared/contracts';
import { authOf } from '../../plugins/types';
import { generateAiSummary, saveAiSummary } from './ai-summary';

export async function aiSummaryRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.put(
    '/organization/ai-summary',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['organization'],
        summary: "Saves the organization's AI summary (admin)",
        body: UpdateAiSummaryBody,
        response: { 200: EmailSettingsResponse, 400: ErrorResponse },
      },
    },
    async (req) => ({
      success: true as const,
      message: EMAIL_SETTINGS_MESSAGES.summarySaved,
      settings: await saveAiSummary(req.em, authOf(req), req.body.aiSummary),
    }),
  );

  r.post(
    '/organization/ai-summary/generate',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['organization'],
        summary: "Drafts the organization's summary from its website (AI, admin); not saved",
        response: {
          200: GenerateAiSummaryResponse,
          400: ErrorResponse,
          402: ErrorResponse,
          429: ErrorResponse,
          502: ErrorResponse,
          504: ErrorResponse,
        },
      },
    },
    async (req) => ({ success: true as const, aiSummary: await generateAiSummary(req.em, app.llm, app.config, authOf(req)) }),
  );
}
