// A CSV source of a list (POST /list-company/source with a file): the form's fields checked, the
// file streamed into ideas by importCsv on its own connection (csv-import.ts), the source and its
// progress line registered once the import holds its lease, and a failure recorded on both (bad
// input: the source goes again; anything else: failed with the reason, 503 on a lost connection).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { LIST_MESSAGES, realtimePaths } from '@dealscout/shared/domain';
import { REALTIME_EVENT_KINDS, type SourceUploadResponse } from '@dealscout/shared/contracts';
import { HttpError, badRequest, notFound } from '../../lib/errors';
import { isConnectionLoss } from '../../db/connection-loss';
import { loggableError } from '../../plugins/errors';
import { publish } from '../realtime/publish';
import { ideaOrder } from '../records/idea-query';
import { createSource, listOr404, publishListChange, type Actor } from './lists.service';
import { failImportSource } from './list-queries';
import { startImportProgress, type ImportProgress } from './import-progress';
import { importCsv, CSV_MESSAGES, CSV_MAX_FILE_COLUMNS, type CsvMapping } from './csv-import';
import { buildIdeaBoundaries, IDEA_MAP_MIN_TOTAL } from './idea-boundaries';

/** The largest upload (bytes): a million rows of name, website and a few columns is ≈ 60–80 MB. */
export const UPLOAD_MAX_BYTES = 300 * 1024 * 1024;

/** The answers to a multipart form the server cannot read. */
export const UPLOAD_MESSAGES = {
  noBoundary: 'The upload is not a valid multipart form (no boundary in its Content-Type).',
  malformed: 'The upload is not a valid multipart form.',
  truncated: 'The upload ended before the whole form arrived; please upload the file again.',
} as const;

/**
 * Errors of the multipart parser (busboy, @fastify/multipart) about the form itself — cut off
 * before its end, a part's header malformed — as 400s; anything else as it is.
 */
export function uploadError(e: unknown): unknown {
  if (e instanceof HttpError || !(e instanceof Error)) return e;
  const code = (e as { code?: unknown }).code;
  if (
    code === 'FST_MP_PREMATURE_CLOSE' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    code === 'ECONNRESET' ||
    /^Unexpected end of (form|multipart data|file)|terminated early|aborted/i.test(e.message)
  )
    return new HttpError(400, UPLOAD_MESSAGES.truncated);
  if (/^(Malformed|Multipart: )|boundary/i.test(e.message)) return new HttpError(400, UPLOAD_MESSAGES.malformed);
  return e;
}

/** The source field of a CSV upload: its mapping's names are text (checked before anything reads them). */
const CsvSourceField = z
  .object({
    mapping: z
      .object({
        name: z.string().optional(),
        website: z.string().optional(),
        columns: z.array(z.string()).max(CSV_MAX_FILE_COLUMNS).optional(),
      })
      .optional(),
  })
  .passthrough();

/** What the upload receives: the request's EntityManager and logger, the database address for the import's own connection, the caller. */
export interface UploadContext extends Actor {
  em: EntityManager;
  log: FastifyBaseLogger;
  connectionString: string;
}

/** The list and the column mapping of a CSV part, from the form's fields read before it. */
function csvTarget(fields: Record<string, string>): { listId: string; mapping: CsvMapping } {
  const listId = fields.listCompanyId ?? '';
  if (!/^[0-9a-f-]{36}$/i.test(listId)) throw notFound(LIST_MESSAGES.listNotFound);
  const intention = fields.intentionSourceId || 'csv';
  if (intention !== 'csv') throw badRequest('Only CSV files can be uploaded here.');
  let source: unknown;
  try {
    source = JSON.parse(fields.source ?? '{}');
  } catch {
    throw badRequest('The source field must be JSON.');
  }
  const shape = CsvSourceField.safeParse(source);
  if (!shape.success) throw badRequest(CSV_MESSAGES.mappingShape);
  return { listId, mapping: (shape.data.mapping ?? {}) as CsvMapping };
}

/** Imports the file part into the list's ideas under a new CSV source; answers what the route sends with its 201. */
export async function uploadCsvSource(
  c: UploadContext,
  fields: Record<string, string>,
  part: MultipartFile,
): Promise<SourceUploadResponse> {
  const { listId, mapping } = csvTarget(fields);
  await listOr404(c.em, c.organizationId, listId);
  const sourceId = randomUUID();
  // The upload's progress line (rows read, the rate), like every long run's.
  let progress: ImportProgress | null = null;
  try {
    const res = await importCsv({
      connectionString: c.connectionString,
      organizationId: c.organizationId,
      listId,
      sourceId,
      file: part.file,
      mapping,
      // The source appears (inProgress) once the import's connection holds its lease.
      register: async () => {
        await createSource(c.em, c, listId, 'csv', { fileName: part.filename, mapping }, 'inProgress', sourceId);
        progress = await startImportProgress(c.em, { organizationId: c.organizationId, userId: c.userId, listId, sourceId });
        await publishListChange(c.em, c.organizationId, listId, 'sources');
      },
      onProgress: (rows) => {
        progress?.rows(rows);
        void publish(c.em.fork(), c.organizationId, {
          path: realtimePaths.lists(c.organizationId, listId),
          kind: REALTIME_EVENT_KINDS.entityUpdated,
          key: `source-progress:${sourceId}`,
          data: { id: listId, sourceId, rows },
        }).catch(() => {});
      },
    });
    if (part.file.truncated) throw badRequest(`The file is larger than ${UPLOAD_MAX_BYTES / 1024 / 1024} MB.`);
    await (progress as ImportProgress | null)?.completed(res.rows, { inserted: res.inserted, merged: res.merged, rejected: res.rejected });
    await publishListChange(c.em, c.organizationId, listId, 'ideas');
    // A large upload is browsed next: its default order's page-boundary map is built before the
    // answer (one index-only walk of the list, its pages all-visible since the import's vacuum), so
    // the list's first pages in the middle already start at a boundary. A failed build is only a
    // missing map: pages walk by offset and build it in the background.
    if (res.inserted >= IDEA_MAP_MIN_TOTAL)
      await buildIdeaBoundaries(c.em.fork(), c.organizationId, listId, ideaOrder(null, null)).catch(() => null);
    return {
      success: true as const,
      message:
        `${res.inserted.toLocaleString('en-US')} idea${res.inserted === 1 ? '' : 's'} added, ` +
        `${res.merged.toLocaleString('en-US')} already in the list, ${res.rejected.toLocaleString('en-US')} row` +
        `${res.rejected === 1 ? '' : 's'} rejected`,
      sourceId,
      ...res,
      list: await listOr404(c.em, c.organizationId, listId),
    };
  } catch (caught) {
    throw await importFailed(c, listId, sourceId, progress, caught);
  }
}

/**
 * A failed import recorded on its progress line and its source; answers the error to throw. A
 * malformed or cut-off form is the client's: a 400, like the rest of bad input.
 */
async function importFailed(
  c: UploadContext,
  listId: string,
  sourceId: string,
  line: ImportProgress | null,
  caught: unknown,
): Promise<unknown> {
  const e = uploadError(caught);
  // Bad input changes nothing: the source goes again. Anything else leaves it failed, with the
  // reason; a lost database connection says so (503: the user uploads the file again). These
  // statements run right after the connections were cut and get another try on a new one; if
  // they cannot be written at all, the import sweep fails the source (its lease is gone).
  const lost = !(e instanceof HttpError) && isConnectionLoss(e);
  const reason = lost ? CSV_MESSAGES.connectionLost : CSV_MESSAGES.failed;
  await (e instanceof HttpError && e.statusCode < 500 ? line?.discard(e.message) : line?.failed(reason))?.catch((err: unknown) =>
    c.log.warn({ err: loggableError(err as Error) }, 'could not record the failed import on its progress line'),
  );
  await failImportSource(c.em, c.organizationId, listId, sourceId, e instanceof HttpError && e.statusCode < 500, reason).catch(
    (err: unknown) => c.log.warn({ err: loggableError(err as Error) }, 'could not record the failed import; the import sweep will'),
  );
  if (lost) return new HttpError(503, reason);
  return e;
}
