// @vitest-environment happy-dom
import '../test-dom';
import '../table/test-select-in-popover';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type {
  EnrichmentDto,
  EnrichmentEstimateResponse,
  ExecuteEnrichmentBody,
  ExecuteEnrichmentResponse,
  FieldDto,
} from '../../contracts';
import { fakeApi, renderWithApi } from '../test-render';
import { EnrichPopover, type EnrichRow, type EnrichTargets } from './EnrichPopover';
import { getCellResult } from './liveResults';

afterEach(cleanup);
configure({ asyncUtilTimeout: 5000 });

const F_CEO = 'f0000000-0000-4000-8000-000000000001';
const E1 = 'e0000000-0000-4000-8000-000000000001';
const R1 = 'c0000000-0000-4000-8000-000000000001';
const R2 = 'c0000000-0000-4000-8000-000000000002';

const CEO_FIELD: FieldDto = {
  id: F_CEO,
  key: 'ceo',
  label: 'CEO',
  dataType: 'string',
  entityType: 'company',
  namespace: 'company',
  isMandatory: false,
  isPseudo: false,
  builtIn: false,
  config: { reconciliation: 'use_latest', refreshSchedule: 'never' },
  assignedEnrichments: [{ id: E1, name: 'CEO finder', isPrimary: true }],
};

const ENRICHMENT: EnrichmentDto = {
  id: E1,
  name: 'CEO finder',
  entityType: 'company',
  configId: 'llm-company',
  config: { id: 'llm-company', name: 'LLM Prompt', enrichmentType: 'llm', description: '', provider: 'dealscout' },
  provider: 'dealscout',
  entityFieldId: F_CEO,
  field: { id: F_CEO, key: 'ceo', label: 'CEO', dataType: 'string' },
  isPrimary: true,
  llmModelId: 'default',
  listColumns: [],
  listCompanyId: null,
  color: 'sky',
  createdBy: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  data: {
    prompt: 'Who is the CEO?',
    schema: [],
    jsonSchema: null,
    listId: null,
    llmModelId: 'default',
    color: 'sky',
    fieldIdToAssign: F_CEO,
    isFieldPrimary: true,
    scrapeFieldId: null,
    websiteToScrape: null,
  },
};

const row = (id: string, ceo: unknown): EnrichRow => ({ id, fields: ceo === undefined ? {} : { [F_CEO]: { value: ceo } } });

const ESTIMATE: EnrichmentEstimateResponse = {
  success: true as const,
  modelCalls: 2,
  upTo: false,
  creditsRemaining: null,
  creditsTotal: null,
  exceedsCredits: false,
  concurrency: 8,
  expectedSeconds: 1,
  message: '2 model call(s), about 1 s.',
};

const E_LINKEDIN = 'e0000000-0000-4000-8000-00000000000l';
// A LinkedIn enrichment: its modal has a name only, so it fills no field.
const LINKEDIN: EnrichmentDto = {
  ...ENRICHMENT,
  id: E_LINKEDIN,
  name: 'Linkedin 1',
  configId: 'mixrank-company',
  config: { id: 'mixrank-company', name: 'LinkedIn', enrichmentType: 'mixrankCompanyDetails', description: '', provider: 'mixrank' },
  provider: 'mixrank',
  entityFieldId: null,
  field: null,
  isPrimary: false,
  color: null,
  data: { ...ENRICHMENT.data, prompt: '', fieldIdToAssign: null, isFieldPrimary: false, color: null },
};

function setup(
  targets: EnrichTargets | null,
  rows: EnrichRow[],
  execute = vi.fn(async (_b: ExecuteEnrichmentBody): Promise<ExecuteEnrichmentResponse> => ({
    success: true,
    message: '',
    count: 0,
    started: 0,
    duplicates: 0,
    failed: 0,
    items: [],
  })),
  enrichments: EnrichmentDto[] = [ENRICHMENT],
  estimate = vi.fn(async (_b: { enrichmentId: string; count: number }): Promise<EnrichmentEstimateResponse> => ESTIMATE),
) {
  const api = fakeApi({
    fields: { list: vi.fn(async () => ({ success: true as const, fields: [CEO_FIELD] })) },
    enrichments: {
      list: vi.fn(async () => ({
        success: true as const,
        enrichments,
        totalRecords: enrichments.length,
        totalPages: 1,
        hasRecords: true,
        pageIndex: 0,
        pageSize: 100,
      })),
      execute,
      estimate,
    },
  });
  const r = renderWithApi(<EnrichPopover entityType="company" targets={targets} rows={rows} />, api);
  return { ...r, execute };
}

async function open(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByTestId('enrich-button'));
  return screen.findByTestId('enrich-popover');
}

async function pickField(user: ReturnType<typeof userEvent.setup>) {
  await waitFor(() => expect(screen.getByTestId('enrich-field').querySelectorAll('option')).toHaveLength(2));
  await user.selectOptions(screen.getByTestId('enrich-field'), F_CEO);
  await waitFor(() => expect((screen.getByTestId('enrich-enrichment') as HTMLSelectElement).value).toBe(E1));
}

describe('Enrich popover', { timeout: 20_000 }, () => {
  it("says 'Invalid Enrichment' without a field and an enrichment", async () => {
    const user = userEvent.setup();
    const { execute } = setup({ kind: 'ids', ids: [R1] }, [row(R1, null)]);
    await open(user);
    await user.click(screen.getByTestId('enrich-run'));
    expect(await screen.findByText('Invalid Enrichment')).toBeTruthy();
    expect(execute).not.toHaveBeenCalled();
  });

  it("says 'Please select a company.' without selected rows", async () => {
    const user = userEvent.setup();
    const { execute } = setup(null, [row(R1, null)]);
    await open(user);
    await pickField(user);
    await user.click(screen.getByTestId('enrich-run'));
    expect(await screen.findByText('Please select a company.')).toBeTruthy();
    expect(execute).not.toHaveBeenCalled();
  });

  it("says 'No empty rows to enrich.' when Only Empty Rows finds none, and warns before All Rows", async () => {
    const user = userEvent.setup();
    const { execute } = setup({ kind: 'ids', ids: [R1, R2] }, [row(R1, 'Jane'), row(R2, 'Joe')]);
    await open(user);
    await pickField(user);
    expect(screen.queryByTestId('enrich-warning')).toBeNull();
    await user.click(screen.getByTestId('enrich-run'));
    expect(await screen.findByText('No empty rows to enrich.')).toBeTruthy();
    expect(execute).not.toHaveBeenCalled();
    await user.click(await screen.findByLabelText('All Rows'));
    expect(screen.getByTestId('enrich-warning').textContent).toBe('WARNING: This will overwrite existing values for selected rows.');
  });

  it('shows what the run will take before it starts, and says when it exceeds the AI credits', async () => {
    const user = userEvent.setup();
    const estimate = vi.fn(async (b: { enrichmentId: string; count: number }) =>
      b.count > 1
        ? {
            ...ESTIMATE,
            modelCalls: 2,
            creditsRemaining: 1,
            creditsTotal: 10,
            exceedsCredits: true,
            message: 'This run needs 2 AI credits; 1 remain.',
          }
        : { ...ESTIMATE, modelCalls: 1, creditsRemaining: 9, creditsTotal: 10, message: '1 model call(s), about 1 s.' },
    );
    setup({ kind: 'ids', ids: [R1, R2] }, [row(R1, null), row(R2, null)], undefined, undefined, estimate);
    await open(user);
    await pickField(user);
    expect((await screen.findByTestId('enrich-estimate')).textContent).toBe(
      'This run needs 2 AI credits; 1 remain. Rows already filled are skipped.',
    );
    expect(estimate).toHaveBeenCalledWith({ enrichmentId: E1, count: 2 });
    cleanup();
    setup({ kind: 'ids', ids: [R1] }, [row(R1, null)], undefined, undefined, estimate);
    await open(user);
    await pickField(user);
    expect((await screen.findByTestId('enrich-estimate')).textContent).toBe(
      '1 model call(s), about 1 s. 9 AI credits remaining. Rows already filled are skipped.',
    );
  });

  it('starts the selected rows, marks them and reports started and duplicates', async () => {
    const user = userEvent.setup();
    const execute = vi.fn(async (_b: ExecuteEnrichmentBody): Promise<ExecuteEnrichmentResponse> => ({
      success: true,
      message: '1 enrichment execution(s) started',
      count: 1,
      started: 1,
      duplicates: 1,
      failed: 0,
      items: [
        { entityId: R1, executionId: 'x1', status: 'started' },
        { entityId: R2, executionId: 'x2', status: 'duplicate' },
      ],
    }));
    const { queryClient } = setup({ kind: 'ids', ids: [R1, R2] }, [row(R1, null), row(R2, 'Old CEO')], execute);
    await open(user);
    await pickField(user);
    await user.click(await screen.findByLabelText('All Rows'));
    await user.click(screen.getByTestId('enrich-run'));
    expect(await screen.findByText('1 enrichment execution(s) started')).toBeTruthy();
    expect(await screen.findByText('1 enrichment execution(s) already in the queue')).toBeTruthy();
    expect(execute).toHaveBeenCalledWith({ enrichmentId: E1, entityType: 'company', entityIds: [R1, R2], options: { onlyEmpty: false } });
    expect(getCellResult(queryClient, E1, R1)).toMatchObject({ status: 'processing', executionId: 'x1' });
    expect(getCellResult(queryClient, E1, R2)).toMatchObject({ status: 'processing', value: 'Old CEO' });
  });

  it("sends the table's sort with the run (its rows run in the table's order) and hands back the run for its progress line", async () => {
    const user = userEvent.setup();
    const execute = vi.fn(async (_b: ExecuteEnrichmentBody): Promise<ExecuteEnrichmentResponse> => ({
      success: true,
      message: '250 enrichment execution(s) started',
      count: 250,
      started: 250,
      duplicates: 0,
      failed: 0,
      runId: 'run-1',
    }));
    const onStarted = vi.fn();
    const api = fakeApi({
      fields: { list: vi.fn(async () => ({ success: true as const, fields: [CEO_FIELD] })) },
      enrichments: {
        list: vi.fn(async () => ({
          success: true as const,
          enrichments: [ENRICHMENT],
          totalRecords: 1,
          totalPages: 1,
          hasRecords: true,
          pageIndex: 0,
          pageSize: 100,
        })),
        execute,
        estimate: vi.fn(async () => ESTIMATE),
      },
    });
    renderWithApi(
      <EnrichPopover
        entityType="company"
        targets={{ kind: 'all', text: '', filters: [], excludeIds: [], count: 250 }}
        rows={[row(R1, null)]}
        sort={{ key: 'name', order: 'desc' }}
        onStarted={onStarted}
      />,
      api,
    );
    await open(user);
    await pickField(user);
    await user.click(await screen.findByLabelText('All Rows'));
    await user.click(screen.getByTestId('enrich-run'));
    await waitFor(() => expect(onStarted).toHaveBeenCalledWith('run-1'));
    expect(execute).toHaveBeenCalledWith({
      enrichmentId: E1,
      entityType: 'company',
      entityFilters: { allSelected: true, text: '', filters: [], excludeIds: [] },
      sort: { key: 'name', order: 'desc' },
      options: { onlyEmpty: false },
    });
  });

  it('runs all rows across pages with the table filters, and reports a failure to start', async () => {
    const user = userEvent.setup();
    const execute = vi.fn(async (): Promise<ExecuteEnrichmentResponse> => {
      throw new Error('Failed to start enrichment execution.');
    });
    const { queryClient } = setup(
      { kind: 'all', text: 'acme', filters: [], excludeIds: [R2], count: 250 },
      [row(R1, null), row(R2, null)],
      execute,
    );
    await open(user);
    await pickField(user);
    expect(screen.getByTestId('enrich-selected-count').textContent).toBe('250 rows selected.');
    await user.click(screen.getByTestId('enrich-run'));
    expect(await screen.findByText('Failed to start enrichment execution.')).toBeTruthy();
    expect(execute).toHaveBeenCalledWith({
      enrichmentId: E1,
      entityType: 'company',
      entityFilters: { allSelected: true, text: 'acme', filters: [], excludeIds: [R2] },
      options: { onlyEmpty: true },
    });
    // The marks are taken back.
    expect(getCellResult(queryClient, E1, R1)).toBeUndefined();
  });

  it('runs an enrichment that fills no field (LinkedIn) through the unassigned choice; the server picks the empty rows', async () => {
    const user = userEvent.setup();
    const execute = vi.fn(async (_b: ExecuteEnrichmentBody): Promise<ExecuteEnrichmentResponse> => ({
      success: true,
      message: '',
      count: 1,
      started: 1,
      duplicates: 0,
      failed: 0,
      items: [{ entityId: R1, executionId: 'x1', status: 'started' }],
    }));
    // Both rows have a CEO: for a field's enrichment Only Empty Rows would refuse; this one fills no field.
    const { queryClient } = setup({ kind: 'ids', ids: [R1, R2] }, [row(R1, 'Jane'), row(R2, 'Joe')], execute, [ENRICHMENT, LINKEDIN]);
    await open(user);
    await waitFor(() =>
      expect([...screen.getByTestId('enrich-field').querySelectorAll('option')].map((o) => o.textContent)).toEqual([
        'Pick a field',
        'CEO',
        'No field (unassigned enrichments)',
      ]),
    );
    await user.selectOptions(screen.getByTestId('enrich-field'), '__unassigned__');
    await waitFor(() => expect((screen.getByTestId('enrich-enrichment') as HTMLSelectElement).value).toBe(E_LINKEDIN));
    expect([...screen.getByTestId('enrich-enrichment').querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'Pick an enrichment',
      'Linkedin 1',
    ]);
    await user.click(screen.getByTestId('enrich-run'));
    expect(await screen.findByText('1 enrichment execution(s) started')).toBeTruthy();
    expect(execute).toHaveBeenCalledWith({
      enrichmentId: E_LINKEDIN,
      entityType: 'company',
      entityIds: [R1, R2],
      options: { onlyEmpty: true },
    });
    // The started row shows it running (in the drawer's Unassigned Enrichments); the skipped one is as before.
    expect(getCellResult(queryClient, E_LINKEDIN, R1)).toMatchObject({ status: 'processing', executionId: 'x1' });
    expect(getCellResult(queryClient, E_LINKEDIN, R2)).toBeUndefined();
  });

  it('offers no unassigned choice when every enrichment fills a field', async () => {
    const user = userEvent.setup();
    setup({ kind: 'ids', ids: [R1] }, [row(R1, null)]);
    await open(user);
    await waitFor(() => expect(screen.getByTestId('enrich-field').querySelectorAll('option')).toHaveLength(2));
    expect(screen.queryByText('No field (unassigned enrichments)')).toBeNull();
  });
});
