import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CancelExecutionBody,
  CancelRunBody,
  CancelRunResponse,
  RunProgressBody,
  RunProgressResponse,
  ExecutionResponse,
  GetExecutionResponse,
  ActiveExecutionsBody,
  ExecutionsResponse,
  ErrorResponse,
  IdParams,
} from '@dealscout/shared/contracts';
import { EXECUTION_MESSAGES } from '@dealscout/shared/domain';
import { authOf } from '../../plugins/types';
import { cancelExecution, cancelPlayExecution } from './commands/cancel-execution';
import { toExecutionDto } from './execution.presenter';
import { activeExecutions, executionById } from './queries';
import { cancelRun, progressOf } from './runs';

export async function executionRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/execution/cancel',
    {
      schema: {
        tags: ['executions'],
        summary: 'Cancel an execution of any type: queued work is removed, running work stops without writing its result',
        body: CancelExecutionBody,
        response: { 200: ExecutionResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req) => {
      const row = await cancelExecution(req.em, app.boss, {
        organizationId: authOf(req).organizationId,
        executionId: req.body.executionId,
      });
      return { success: true as const, message: EXECUTION_MESSAGES.cancelled, execution: toExecutionDto(row) };
    },
  );

  r.post(
    '/play/execution/cancel',
    {
      schema: {
        tags: ['executions', 'plays'],
        summary: 'Cancel a play execution (spec 000 §7)',
        body: CancelExecutionBody,
        response: { 200: ExecutionResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req) => {
      const row = await cancelPlayExecution(req.em, app.boss, authOf(req).organizationId, req.body.executionId);
      return { success: true as const, message: EXECUTION_MESSAGES.cancelled, execution: toExecutionDto(row) };
    },
  );

  r.post(
    '/execution/progress',
    {
      schema: {
        tags: ['executions'],
        summary:
          "The progress of long runs (done / total, failed, started at): the runs or executions asked for, or the user's running and recently finished ones",
        body: RunProgressBody,
        response: { 200: RunProgressResponse, 400: ErrorResponse },
      },
    },
    async (req) => {
      const a = authOf(req);
      return { success: true as const, runs: await progressOf(req.em, a.organizationId, a.user.id, req.body.ids) };
    },
  );

  r.post(
    '/execution/run/cancel',
    {
      schema: {
        tags: ['executions'],
        summary: 'Cancel a run: its rows still waiting do not run (no further model call), the run reads cancelled',
        body: CancelRunBody,
        response: { 200: CancelRunResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req) => {
      const run = await cancelRun(req.em, app.boss, { organizationId: authOf(req).organizationId, runId: req.body.runId });
      return { success: true as const, message: EXECUTION_MESSAGES.cancelled, run };
    },
  );

  r.get(
    '/execution/:id',
    {
      schema: {
        tags: ['executions'],
        summary: 'One execution record',
        params: IdParams,
        response: { 200: GetExecutionResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const row = await executionById(req.em, authOf(req).organizationId, req.params.id);
      return { success: true as const, execution: toExecutionDto(row) };
    },
  );

  r.post(
    '/execution/active',
    {
      schema: {
        tags: ['executions'],
        summary:
          "The organization's executions still running (draft, scheduled, processing), newest first — to restore realtime nodes after a reload",
        body: ActiveExecutionsBody,
        response: { 200: ExecutionsResponse, 400: ErrorResponse },
      },
    },
    async (req) => {
      const rows = await activeExecutions(req.em, authOf(req).organizationId, req.body);
      return { success: true as const, executions: rows.map(toExecutionDto) };
    },
  );
}
