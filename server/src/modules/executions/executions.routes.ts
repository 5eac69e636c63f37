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
import { notFound } from '../../lib/errors';
import { cancelExecution } from './commands/cancel-execution';
import { EXECUTION_COLUMNS, toExecutionDto, type ExecutionRow } from './execution.presenter';
import { tenantSql } from '../../db/sql';
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
      const row = await cancelExecution(req.em, app.boss, {
        organizationId: authOf(req).organizationId,
        executionId: req.body.executionId,
        type: 'play',
      });
      // A draft it was (re)writing stops waiting for it (email/drafts/emails.service.ts).
      await tenantSql(req.em, authOf(req).organizationId).all(
        `update channel_email set status = 'cancelled', updated_at = clock_timestamp() where organization_id = ? and execution_id = ? and status = 'processing'`,
        [authOf(req).organizationId, row.id],
      );
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
      const [row] = await tenantSql(req.em, authOf(req).organizationId).all<ExecutionRow>(
        `select ${EXECUTION_COLUMNS} from execution where id = ? and organization_id = ?`,
        [req.params.id, authOf(req).organizationId],
      );
      if (!row) throw notFound(EXECUTION_MESSAGES.notFound);
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
      const b = req.body;
      const where = [`organization_id = ?`, `status in ('draft', 'scheduled', 'processing')`];
      const params: unknown[] = [authOf(req).organizationId];
      if (b.type) {
        where.push('type = ?');
        params.push(b.type);
      }
      if (b.typeId) {
        where.push('type_id = ?');
        params.push(b.typeId);
      }
      if (b.entityType) {
        where.push('entity_type = ?');
        params.push(b.entityType);
      }
      if (b.entityIds) {
        where.push('entity_id in (select (jsonb_array_elements_text(?::jsonb))::uuid)');
        params.push(JSON.stringify(b.entityIds));
      }
      const rows = await tenantSql(req.em, authOf(req).organizationId).all<ExecutionRow>(
        `select ${EXECUTION_COLUMNS} from execution where ${where.join(' and ')} order by created_at desc, id limit ?`,
        [...params, b.limit],
      );
      return { success: true as const, executions: rows.map(toExecutionDto) };
    },
  );
}
