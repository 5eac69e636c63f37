// @vitest-environment happy-dom
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EnrichmentDto, EnrichmentResultDto, ExecuteEnrichmentBody, FieldDto } from '../../contracts';
import { fakeApi, renderWithApi, watchForText } from '../test-render';
import { FieldsSection } from '../drawer/FieldsSection';
import { UnassignedEnrichmentsSection } from './DrawerEnrichments';
import { getCellResult } from './liveResults';

afterEach(cleanup);
configure({ asyncUtilTimeout: 5000 });

const COMPANY = 'c0000000-0000-4000-8000-000000000001';
const F_CEO = 'f0000000-0000-4000-8000-000000000001';
const E_CEO = 'e0000000-0000-4000-8000-000000000001';
const E_B = 'e0000000-0000-4000-8000-00000000000b';
const E_A = 'e0000000-0000-4000-8000-00000000000a';

const enrichment = (id: string, name: string, fieldId: string | null, schema: EnrichmentDto['data']['schema'] = []): EnrichmentDto => ({
  id,
  name,
  entityType: 'company',
  configId: 'llm-company',
  config: { id: 'llm-company', name: 'LLM Prompt', enrichmentType: 'llm', description: '', provider: 'dealscout' },
  provider: 'dealscout',
  entityFieldId: fieldId,
  field: fieldId ? { id: fieldId, key: 'ceo', label: 'CEO', dataType: 'string' } : null,
  isPrimary: !!fieldId,
  llmModelId: 'default',
  listColumns: [],
  listCompanyId: null,
  color: null,
  createdBy: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  data: {
    prompt: 'x',
    schema,
    jsonSchema: null,
    listId: null,
    llmModelId: 'default',
    color: null,
    fieldIdToAssign: fieldId,
    isFieldPrimary: !!fieldId,
    scrapeFieldId: null,
    websiteToScrape: null,
  },
});
const result = (enrichmentId: string, status: EnrichmentResultDto['status'], answer: string | null): EnrichmentResultDto => ({
  id: `r-${enrichmentId}`,
  enrichmentId,
  entityType: 'company',
  entityId: COMPANY,
  executionId: null,
  status,
  statusMessage: status === 'error' ? 'Error parsing data' : null,
  value: { result: answer === null ? null : { answer } },
  sources: [],
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const CEO: FieldDto = {
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
  assignedEnrichments: [{ id: E_CEO, name: 'CEO finder', isPrimary: true }],
};

function api(
  results: EnrichmentResultDto[],
  execute = vi.fn(async (_b: ExecuteEnrichmentBody) => ({
    success: true as const,
    message: '',
    count: 1,
    started: 1,
    duplicates: 0,
    failed: 0,
    items: [{ entityId: COMPANY, executionId: 'x9', status: 'started' as const }],
  })),
) {
  return fakeApi({
    fields: { list: vi.fn(async () => ({ success: true as const, fields: [CEO] })) },
    enrichments: {
      list: vi.fn(async () => ({
        success: true as const,
        enrichments: [enrichment(E_B, 'Beta check', null), enrichment(E_CEO, 'CEO finder', F_CEO), enrichment(E_A, 'alpha facts', null)],
        totalRecords: 3,
        totalPages: 1,
        hasRecords: true,
        pageIndex: 0,
        pageSize: 100,
      })),
      results: vi.fn(async () => ({ success: true as const, results })),
      execute,
    },
  });
}

describe('drawer enrichments', { timeout: 20_000 }, () => {
  it('lists unassigned enrichments by name with their results, runs one and copies a value', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const execute = vi.fn(async (_b: ExecuteEnrichmentBody) => ({
      success: true as const,
      message: '',
      count: 1,
      started: 1,
      duplicates: 0,
      failed: 0,
      items: [{ entityId: COMPANY, executionId: 'x9', status: 'started' as const }],
    }));
    const { queryClient } = renderWithApi(
      <UnassignedEnrichmentsSection entityType="company" entityId={COMPANY} open onToggle={vi.fn()} />,
      api([result(E_A, 'complete', '1999'), result(E_B, 'error', null)], execute),
    );
    await waitFor(() =>
      expect(screen.getAllByTestId('drawer-enrichment-name').map((n) => n.textContent)).toEqual(['alpha facts', 'Beta check']),
    );
    const rows = screen.getAllByTestId('drawer-enrichment-row');
    await waitFor(() => expect(within(rows[0]).getByTestId('enrichment-result').textContent).toBe('1999'));
    // A failed one says why at once in the drawer (spec 000 §2: an 'Error' heading, the message on red).
    expect(within(rows[1]).getByTestId('enrichment-result').getAttribute('data-status')).toBe('error');
    expect(within(rows[1]).getByTestId('enrichment-error-message').textContent).toBe('Error parsing data');
    // The copy toast lives 500 ms: watched from before the click (polling afterwards can miss it).
    const toast = watchForText('Value copied to clipboard');
    await user.click(within(rows[0]).getByTestId('drawer-enrichment-copy'));
    expect(writeText).toHaveBeenCalledWith('1999');
    await waitFor(() => expect(toast.seen()).toBe(true));
    toast.stop();
    await user.click(within(rows[1]).getByTestId('drawer-enrichment-run'));
    expect(execute).toHaveBeenCalledWith({ enrichmentId: E_B, entityType: 'company', entityIds: [COMPANY], options: { onlyEmpty: false } });
    await waitFor(() => expect(within(rows[1]).getByTestId('enrichment-result').textContent).toBe('Processing...'));
    expect(getCellResult(queryClient, E_B, COMPANY)).toMatchObject({ status: 'processing', executionId: 'x9' });
    expect(await screen.findByText('1 enrichment execution(s) started')).toBeTruthy();
  });

  it("shows an empty field's primary result and runs the primary enrichment from the field row", async () => {
    const user = userEvent.setup();
    const execute = vi.fn(async (_b: ExecuteEnrichmentBody) => ({
      success: true as const,
      message: '',
      count: 1,
      started: 1,
      duplicates: 0,
      failed: 0,
      items: [{ entityId: COMPANY, executionId: 'x1', status: 'started' as const }],
    }));
    renderWithApi(
      <FieldsSection entityType="company" entityId={COMPANY} values={{}} open onToggle={vi.fn()} />,
      api([result(E_CEO, 'complete', 'Jane Doe')], execute),
    );
    const row = await screen.findByTestId('drawer-field-row');
    await waitFor(() => expect(within(row).getByTestId('drawer-field-value').textContent).toBe('Jane Doe'));
    await user.click(within(row).getByTestId('drawer-field-run'));
    expect(execute).toHaveBeenCalledWith({
      enrichmentId: E_CEO,
      entityType: 'company',
      entityIds: [COMPANY],
      options: { onlyEmpty: false },
    });
    await waitFor(() => expect(within(row).getByTestId('drawer-field-value').textContent).toBe('Processing...'));
  });

  it("a field whose primary enrichment failed shows the spec's error display with the message in the details, folding on click", async () => {
    const user = userEvent.setup();
    renderWithApi(
      <FieldsSection entityType="company" entityId={COMPANY} values={{}} open onToggle={vi.fn()} />,
      api([result(E_CEO, 'error', null)]),
    );
    const row = await screen.findByTestId('drawer-field-row');
    await waitFor(() => expect(within(row).getByTestId('enrichment-error-message').textContent).toBe('Error parsing data'));
    expect(within(row).getByTestId('drawer-field-value').getAttribute('data-status')).toBe('error');
    await user.click(within(row).getByTestId('enrichment-result'));
    expect(within(row).queryByTestId('enrichment-error-message')).toBeNull();
    expect(within(row).getByTestId('enrichment-result').textContent).toBe('Error');
  });

  it(
    'reads a value from its response schema: \'employees\' shows 44, never {"employees":44}; several fields are ' +
      "labelled; 'Show raw' shows the JSON",
    async () => {
      const user = userEvent.setup();
      const writeText = vi.fn(async () => undefined);
      Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
      const E_EMP = 'e0000000-0000-4000-8000-0000000000e1';
      const E_PROFILE = 'e0000000-0000-4000-8000-0000000000e2';
      const item = (name: string, type: 'string' | 'number' | 'array') => ({
        name,
        type,
        description: name,
        required: true,
        createColumn: false,
      });
      const results: EnrichmentResultDto[] = [
        { ...result(E_EMP, 'complete', null), value: { result: { employees: 4400 } } },
        {
          ...result(E_PROFILE, 'complete', null),
          value: { result: { website: 'https://acme.example', industries: ['Robotics', 'Automation'], hq: 'Boston' } },
        },
      ];
      renderWithApi(
        <UnassignedEnrichmentsSection entityType="company" entityId={COMPANY} open onToggle={vi.fn()} />,
        fakeApi({
          fields: { list: vi.fn(async () => ({ success: true as const, fields: [] })) },
          enrichments: {
            list: vi.fn(async () => ({
              success: true as const,
              totalRecords: 2,
              totalPages: 1,
              hasRecords: true,
              pageIndex: 0,
              pageSize: 100,
              enrichments: [
                enrichment(E_EMP, 'Employees', null, [item('employees', 'number')]),
                enrichment(E_PROFILE, 'Profile', null, [item('hq', 'string'), item('website', 'string'), item('industries', 'array')]),
              ],
            })),
            results: vi.fn(async () => ({ success: true as const, results })),
          },
        }),
      );
      await waitFor(() =>
        expect(screen.getAllByTestId('drawer-enrichment-name').map((n) => n.textContent)).toEqual(['Employees', 'Profile']),
      );
      const [employees, profile] = screen.getAllByTestId('drawer-enrichment-row');
      await waitFor(() => expect(within(employees).getByTestId('enrichment-result').textContent).toBe('4,400'));
      await user.click(within(employees).getByTestId('drawer-enrichment-copy'));
      expect(writeText).toHaveBeenLastCalledWith('4,400');

      // Several fields: labelled, in the schema's order; the URL is a link in the full view, the list chips.
      const cell = within(profile).getByTestId('enrichment-result');
      expect(cell.getAttribute('title')).toBe('Hq: Boston; Website: https://acme.example; Industries: Robotics, Automation');
      expect(cell.textContent).not.toContain('{');
      await user.click(cell);
      const full = within(profile).getByTestId('enrichment-result');
      expect(
        within(full)
          .getAllByTestId('value-field-label')
          .map((l) => l.textContent),
      ).toEqual(['Hq', 'Website', 'Industries']);
      expect(within(full).getByTestId('value-link').getAttribute('href')).toBe('https://acme.example');
      expect(
        within(full)
          .getAllByTestId('value-chip')
          .map((c) => c.textContent),
      ).toEqual(['Robotics', 'Automation']);
      // Raw JSON only on request.
      expect(within(profile).queryByTestId('enrichment-raw')).toBeNull();
      await user.click(within(profile).getByTestId('enrichment-show-raw'));
      expect(JSON.parse(within(profile).getByTestId('enrichment-raw').textContent ?? '')).toEqual({
        website: 'https://acme.example',
        industries: ['Robotics', 'Automation'],
        hq: 'Boston',
      });
      await user.click(within(profile).getByTestId('drawer-enrichment-copy'));
      expect(writeText).toHaveBeenLastCalledWith('Hq: Boston; Website: https://acme.example; Industries: Robotics, Automation');
    },
  );
});
