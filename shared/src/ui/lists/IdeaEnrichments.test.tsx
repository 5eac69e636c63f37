// @vitest-environment happy-dom
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EnrichmentDto, EnrichmentResultDto, RealtimeEvent } from '../../contracts';
import { ideaEnrichmentCell, ideaEnrichmentColumns, listColumnsWithWidth } from '../../domain';
import { fakeApi, renderWithApi } from '../test-render';
import { applyEnrichmentEvent } from '../enrichments/liveResults';
import { EnrichIdeasDialog, IdeaEnrichmentCell } from './IdeaEnrichments';

const LIST = '10000000-0000-4000-8000-000000000001';
const E = 'e0000000-0000-4000-8000-000000000001';
const I1 = 'a0000000-0000-4000-8000-000000000001';
const I2 = 'a0000000-0000-4000-8000-000000000002';

const enrichment = (over: Partial<EnrichmentDto> = {}): EnrichmentDto => ({
  id: E,
  name: 'What they sell',
  entityType: 'idea',
  configId: 'c',
  config: { id: 'c', name: 'LLM Prompt', enrichmentType: 'llm', description: '', provider: 'dealscout' },
  provider: 'dealscout',
  entityFieldId: null,
  field: null,
  isPrimary: false,
  llmModelId: 'default',
  listColumns: [],
  listCompanyId: LIST,
  color: null,
  createdBy: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  data: {
    prompt: 'x',
    schema: [],
    jsonSchema: null,
    listId: LIST,
    llmModelId: 'default',
    color: null,
    fieldIdToAssign: null,
    isFieldPrimary: false,
    scrapeFieldId: null,
    websiteToScrape: null,
  },
  ...over,
});
const result = (
  entityId: string,
  status: EnrichmentResultDto['status'],
  answer: unknown,
  updatedAt = '2026-01-01T00:00:05.000Z',
  statusMessage: string | null = null,
): EnrichmentResultDto => ({
  id: `r-${entityId}`,
  enrichmentId: E,
  entityType: 'idea',
  entityId,
  executionId: `x-${entityId}`,
  status,
  statusMessage,
  value: { result: answer === null ? null : (answer as Record<string, unknown>) },
  sources: [],
  updatedAt,
});
const event = (data: unknown, seq = 1): RealtimeEvent => ({
  seq,
  path: 'org/o/executions/enrichment/idea',
  kind: 'enrichment.result',
  key: `k${seq}`,
  data,
  at: '2026-01-01T00:00:00.000Z',
});

afterEach(cleanup);

const listPage = (enrichments: EnrichmentDto[]) => ({
  success: true as const,
  enrichments,
  totalRecords: enrichments.length,
  totalPages: 1,
  hasRecords: enrichments.length > 0,
  pageIndex: 0,
  pageSize: 100,
});
const noCompanyEnrichments = async () => listPage([]);
/** POST /enrichment/execute answering that I1's execution started. */
const executeOneStarted = () =>
  vi.fn(async () => ({
    success: true as const,
    message: '1 enrichment execution(s) started',
    count: 1,
    started: 1,
    duplicates: 0,
    failed: 0,
    items: [{ entityId: I1, executionId: 'x1', status: 'started' as const }],
  }));

describe('idea enrichment columns and cells (spec 002 §3 List column, §4 Idea enrichment results)', () => {
  it(
    'one column per list column in order (a resized width; the default 70 or none: sized from its content), or one ' +
      'named after the enrichment reading $.result',
    () => {
      expect(ideaEnrichmentColumns([enrichment()])).toEqual([
        {
          key: `enrichment:${E}:result`,
          enrichmentId: E,
          label: 'What they sell',
          path: '$.result',
          keys: [],
          sortOrder: null,
          schema: [],
        },
      ]);
      const cols = ideaEnrichmentColumns([
        enrichment({
          listColumns: [
            { id: 'b', path: '$.result.size', keys: [], label: 'Size', order: 2, width: 120 },
            { id: 'a', path: '$.result', keys: ['answer'], label: 'Answer', order: 1, width: 70 },
          ],
        }),
        // A company enrichment run on the list's ideas has its column too; a contact one never.
        enrichment({ id: 'company-one', name: 'Headcount', entityType: 'company' }),
        enrichment({ id: 'contact-one', name: 'Title', entityType: 'contact' }),
      ]);
      expect(cols.map((c) => [c.label, c.path, c.width])).toEqual([
        ['Answer', '$.result', undefined],
        ['Size', '$.result.size', 120],
        ['Headcount', '$.result', undefined],
      ]);
    },
  );

  it('a resized column is saved in the list columns (PUT /enrichment/column): the default one is created with its width', () => {
    expect(listColumnsWithWidth(enrichment(), `enrichment:${E}:result`, 140)).toEqual([
      { id: 'result', path: '$.result', keys: [], label: 'What they sell', order: 0, width: 140 },
    ]);
    const e = enrichment({
      listColumns: [
        { id: 'a', path: '$.result', keys: ['answer'], label: 'Answer', order: 0, width: 70 },
        { id: 'b', path: '$.result.size', keys: [], label: 'Size', order: 1, width: 90 },
      ],
    });
    expect(listColumnsWithWidth(e, `enrichment:${E}:b`, 200).map((c) => [c.id, c.width])).toEqual([
      ['a', 70],
      ['b', 200],
    ]);
    // Saved, the default column keeps its table key.
    expect(
      ideaEnrichmentColumns([enrichment({ listColumns: listColumnsWithWidth(enrichment(), `enrichment:${E}:result`, 140) })])[0],
    ).toMatchObject({ key: `enrichment:${E}:result`, width: 140, label: 'What they sell' });
  });

  it('completed gives completed, error gives error (default message), anything else processing; a string answer is the answer', () => {
    const col = { path: '$.result', keys: [] };
    expect(ideaEnrichmentCell(undefined, col)).toEqual({ status: 'none' });
    expect(ideaEnrichmentCell({ status: 'complete', value: { result: { answer: 'Anvils' } } }, col)).toMatchObject({
      status: 'completed',
      text: 'Anvils',
    });
    expect(ideaEnrichmentCell({ status: 'completed', value: 'Bolts, not JSON' }, { path: '$.result.answer', keys: [] })).toMatchObject({
      status: 'completed',
      text: 'Bolts, not JSON',
    });
    expect(
      ideaEnrichmentCell({ status: 'complete', value: { result: { size: 12, type: 'Private' } } }, { path: '$.result', keys: ['type'] }),
    ).toMatchObject({ text: 'Private' });
    // Values read by the response schema, never as JSON: a number grouped, several keys labelled, a URL a link.
    expect(ideaEnrichmentCell({ status: 'complete', value: { result: { employees: 4400 } } }, col)).toMatchObject({
      text: '4,400',
      formatted: { kind: 'number' },
    });
    expect(
      ideaEnrichmentCell(
        { status: 'complete', value: { result: { size: 12, type: 'Private' } } },
        { path: '$.result', keys: ['size', 'type'] },
      ),
    ).toMatchObject({ text: 'Size: 12; Type: Private' });
    expect(
      ideaEnrichmentCell(
        { status: 'complete', value: { result: { size: '12' } } },
        { path: '$.result.size', keys: [], schema: [{ name: 'size', type: 'number' }] },
      ),
    ).toMatchObject({ text: '12', formatted: { kind: 'number', value: 12 } });
    expect(ideaEnrichmentCell({ status: 'complete', value: { result: { site: 'https://a.example' } } }, col)).toMatchObject({
      formatted: { kind: 'url', href: 'https://a.example' },
    });
    expect(ideaEnrichmentCell({ status: 'error', value: null, statusMessage: null }, col)).toEqual({
      status: 'error',
      message: 'Error parsing data',
    });
    expect(ideaEnrichmentCell({ status: 'error', value: null, statusMessage: 'Quota' }, col)).toEqual({
      status: 'error',
      message: 'Quota',
    });
    for (const s of ['preprocessing', 'processing', 'scheduled', 'pending', 'inqueue'])
      expect(ideaEnrichmentCell({ status: s, value: null }, col)).toEqual({ status: 'processing' });
  });

  it('Enrich runs the chosen enrichment on the selected ideas; their cells go processing, then fill from realtime events', async () => {
    const execute = vi.fn(async () => ({
      success: true as const,
      message: '2 enrichment execution(s) started',
      count: 2,
      started: 2,
      duplicates: 0,
      failed: 0,
      items: [
        { entityId: I1, executionId: 'x1', status: 'started' as const },
        { entityId: I2, executionId: 'x2', status: 'started' as const },
      ],
    }));
    const onStarted = vi.fn();
    const api = fakeApi({
      enrichments: {
        forList: async () => ({ success: true as const, enrichments: [enrichment()] }),
        list: noCompanyEnrichments,
        ideaConfigs: async () => ({ success: true as const, configs: [] }),
        execute,
      },
    });
    const [col] = ideaEnrichmentColumns([enrichment()]);
    const { queryClient } = renderWithApi(
      <>
        <div data-testid="cell-1">
          <IdeaEnrichmentCell column={col} ideaId={I1} />
        </div>
        <div data-testid="cell-2">
          <IdeaEnrichmentCell column={col} ideaId={I2} />
        </div>
        <EnrichIdeasDialog
          open
          listId={LIST}
          ideaIds={[I1, I2]}
          filters={{ text: '' }}
          count={2}
          onClose={() => {}}
          onStarted={onStarted}
        />
      </>,
      api,
    );
    const cell = (n: number) => screen.getByTestId(`cell-${n}`).querySelector('[data-testid="idea-enrichment-cell"]')!;
    expect(cell(1).getAttribute('data-cell-status')).toBe('none');
    await waitFor(() => expect(screen.getByTestId('enrich-ideas-pick').textContent).toContain('What they sell'));
    await userEvent.click(screen.getByTestId('enrich-ideas-run'));
    await waitFor(() => expect(onStarted).toHaveBeenCalled());
    expect(execute).toHaveBeenCalledWith({ enrichmentId: E, entityType: 'idea', entityIds: [I1, I2], sort: null });
    expect(cell(1).getAttribute('data-cell-status')).toBe('processing');
    expect(cell(2).textContent).toContain('Processing...');
    act(() => {
      applyEnrichmentEvent(queryClient, event(result(I1, 'complete', { answer: 'Anvils' })), () => {});
      applyEnrichmentEvent(queryClient, event(result(I2, 'error', null, undefined, null), 2), () => {});
    });
    await waitFor(() => expect(cell(1).getAttribute('data-cell-status')).toBe('completed'));
    expect(cell(1).textContent).toBe('Anvils');
    expect(cell(2).getAttribute('data-cell-status')).toBe('error');
    expect(cell(2).textContent).toContain('Error');
  });

  it("offers the organization's company enrichments beside the list's own and runs the chosen one on the ideas", async () => {
    const execute = executeOneStarted();
    const C = 'c0000000-0000-4000-8000-000000000001';
    const list = vi.fn(async () =>
      listPage([enrichment({ id: C, name: 'Company headcount', entityType: 'company', listCompanyId: null })]),
    );
    const forList = vi.fn(async () => ({ success: true as const, enrichments: [] as EnrichmentDto[] }));
    const api = fakeApi({ enrichments: { forList, list, ideaConfigs: async () => ({ success: true as const, configs: [] }), execute } });
    renderWithApi(
      <EnrichIdeasDialog open listId={LIST} ideaIds={[I1]} filters={{ text: '' }} count={1} onClose={() => {}} onStarted={() => {}} />,
      api,
    );
    // The list has no enrichment of its own: the company one is offered and chosen, not only 'New enrichment'.
    await waitFor(() => expect(screen.getByTestId('enrich-ideas-pick').textContent).toContain('Company headcount'));
    expect(list).toHaveBeenCalledWith(expect.objectContaining({ entityType: 'company' }));
    expect((screen.getByTestId('enrich-ideas-existing') as HTMLInputElement).disabled).toBe(false);
    const reads = forList.mock.calls.length;
    await userEvent.click(screen.getByTestId('enrich-ideas-run'));
    await waitFor(() => expect(execute).toHaveBeenCalledWith({ enrichmentId: C, entityType: 'idea', entityIds: [I1], sort: null }));
    // The list's enrichments are read again, so its new column shows.
    await waitFor(() => expect(forList.mock.calls.length).toBeGreaterThan(reads));
  });

  it('a new enrichment started before the enrichment types arrived waits for them, then starts (no error)', async () => {
    let release: () => void = () => {};
    const typesLater = new Promise<void>((resolve) => (release = resolve));
    const LLM = { id: 'cfg-llm', enrichmentType: 'llm', responseSchema: null };
    const ideaConfigs = vi.fn(async () => {
      await typesLater;
      return { success: true as const, configs: [LLM as never] };
    });
    const create = vi.fn(async () => ({ success: true as const, id: E }) as never);
    const execute = executeOneStarted();
    const onStarted = vi.fn();
    const api = fakeApi({
      enrichments: {
        forList: async () => ({ success: true as const, enrichments: [] as EnrichmentDto[] }),
        list: noCompanyEnrichments,
        ideaConfigs,
        create,
        execute,
      },
    });
    renderWithApi(
      <EnrichIdeasDialog open listId={LIST} ideaIds={[I1]} filters={{ text: '' }} count={1} onClose={() => {}} onStarted={onStarted} />,
      api,
    );
    await waitFor(() => expect((screen.getByTestId('enrich-ideas-new') as HTMLInputElement).checked).toBe(true));
    await userEvent.type(screen.getByTestId('enrich-ideas-name'), 'What they carry');
    await userEvent.type(screen.getByTestId('enrich-ideas-prompt'), 'What does the company carry?');
    await userEvent.click(screen.getByTestId('enrich-ideas-run'));
    expect(create).not.toHaveBeenCalled();
    expect(screen.queryByTestId('enrich-ideas-error')).toBeNull();
    release();
    await waitFor(() => expect(onStarted).toHaveBeenCalled());
    expect(ideaConfigs).toHaveBeenCalledTimes(1);
    expect(create).toHaveBeenCalledWith(expect.objectContaining({ configId: 'cfg-llm', name: 'What they carry', listId: LIST }));
    expect(execute).toHaveBeenCalledWith({ enrichmentId: E, entityType: 'idea', entityIds: [I1], sort: null });
    expect(screen.queryByTestId('enrich-ideas-error')).toBeNull();
  });
});
