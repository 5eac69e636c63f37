// @vitest-environment happy-dom
// The progress line where each long run is started: a CSV upload's line (rows imported, no
// Cancel: an upload is added whole or not at all) and the CRM card's sync line (records synced of
// the total, Cancel stops the sync).
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CrmSyncResponse, ExecutionDto, IntegrationDto, RunProgressDto } from '../../contracts';
import { fakeApi, renderWithApi } from '../test-render';
import { RunProgress, activeRunsKey, applyProgressEvent, progressOfExecution } from './RunProgress';
import { SalesforceCard } from '../crm/SalesforceCard';

afterEach(cleanup);

const UPLOAD = '22222222-2222-4222-8222-222222222222';
const SYNC = '55555555-5555-4555-8555-555555555555';

const execution = (over: Partial<ExecutionDto> = {}): ExecutionDto => ({
  id: UPLOAD,
  type: 'list',
  typeId: '66666666-6666-4666-8666-666666666666',
  entityType: 'list',
  entityId: '77777777-7777-4777-8777-777777777777',
  status: 'processing',
  statusMessage: null,
  progress: { processed: 0, total: null },
  listening: true,
  attempt: 0,
  createdById: 'u1',
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  startedAt: new Date().toISOString(),
  completedAt: null,
  runId: null,
  cancellable: false,
  ...over,
});

describe('a CSV upload’s line', () => {
  it('counts the rows imported from the execution’s events, offers no Cancel, and ends done with the total', async () => {
    const progress = vi.fn(async () => ({
      success: true as const,
      runs: [progressOfExecution(execution({ progress: { processed: 40, total: null } }))],
    }));
    const { queryClient } = renderWithApi(<RunProgress id={UPLOAD} />, fakeApi({ executions: { progress } }));
    const line = await screen.findByTestId('run-progress');
    await waitFor(() => expect(line.getAttribute('data-done')).toBe('40'));
    expect(line.getAttribute('data-type')).toBe('list');
    expect(screen.getByTestId('run-progress-text').textContent).toMatch(/^40 done/);
    expect(line.textContent).toContain('Adding ideas');
    expect(screen.queryByTestId('run-progress-cancel')).toBeNull();
    // The import goes on (an 'execution.updated' event), then commits.
    const event = (e: ExecutionDto) =>
      act(() =>
        applyProgressEvent(queryClient, {
          seq: 1,
          path: 'org/x/executions/list/list',
          kind: 'execution.updated',
          key: `execution:${UPLOAD}`,
          data: e,
        } as never),
      );
    event(execution({ progress: { processed: 900, total: null } }));
    await waitFor(() => expect(line.getAttribute('data-done')).toBe('900'));
    event(
      execution({
        status: 'completed',
        listening: false,
        progress: { processed: 1200, total: 1200 },
        completedAt: new Date().toISOString(),
      }),
    );
    await waitFor(() => expect(line.getAttribute('data-status')).toBe('completed'));
    expect(screen.getByTestId('run-progress-text').textContent).toBe('Done: 1,200 / 1,200');
  });

  it('a new upload’s first event makes the lists of active runs read again (its line appears where it belongs)', async () => {
    const progress = vi.fn(async () => ({ success: true as const, runs: [] as RunProgressDto[] }));
    const { queryClient } = renderWithApi(<div />, fakeApi({ executions: { progress } }));
    queryClient.setQueryData(activeRunsKey, []);
    act(() =>
      applyProgressEvent(queryClient, {
        seq: 2,
        path: 'org/x/executions/list/list',
        kind: 'execution.updated',
        key: `execution:${UPLOAD}`,
        data: execution(),
      } as never),
    );
    expect(queryClient.getQueryState(activeRunsKey)?.isInvalidated).toBe(true);
  });
});

const salesforce: IntegrationDto = {
  id: '33333333-3333-4333-8333-333333333333',
  provider: 'salesforce',
  type: 'crm',
  scope: 'organization',
  data: {
    name: 'Salesforce',
    createdById: 'u1',
    createdBy: { id: 'u1', firstName: 'Ada', lastName: 'Admin' },
    createdAt: '2026-03-04T10:00:00.000Z',
    expiresAt: '2027-01-02T10:00:00.000Z',
    active: true,
    metadata: {
      name: 'ada@acme.example.com',
      username: 'ada@acme.example.com',
      environment: 'production',
      instanceUrl: 'https://acme.my.salesforce.com',
    },
  },
};
const syncing: CrmSyncResponse = {
  success: true,
  status: 'progress',
  message: 'Sync in progress, please wait..',
  executionId: SYNC,
  processed: 120,
  total: 300,
  result: null,
  completedAt: null,
};

describe('the CRM card’s sync line', () => {
  it('shows records synced of the total while the sync runs, and Cancel stops it', async () => {
    const user = userEvent.setup();
    const syncLine = progressOfExecution(
      execution({
        id: SYNC,
        type: 'crmsync',
        typeId: null,
        entityType: 'company',
        entityId: null,
        cancellable: true,
        progress: { processed: 120, total: 300 },
      }),
    );
    const progress = vi.fn(async () => ({ success: true as const, runs: [syncLine] }));
    const cancel = vi.fn(async () => ({
      success: true as const,
      message: 'Execution cancelled.',
      execution: execution({
        id: SYNC,
        type: 'crmsync',
        typeId: null,
        entityType: 'company',
        entityId: null,
        cancellable: true,
        status: 'cancelled',
        listening: false,
        progress: { processed: 150, total: 300 },
      }),
    }));
    renderWithApi(
      <SalesforceCard isAdmin onAuthorize={() => {}} />,
      fakeApi({
        llm: { integrations: vi.fn(async () => ({ success: true as const, integrations: [salesforce] })) },
        crm: { syncStatus: vi.fn(async () => syncing) },
        executions: { progress, cancel },
      }),
    );
    const box = await screen.findByTestId('salesforce-sync-progress');
    const line = await waitFor(() => {
      const l = box.querySelector('[data-testid="run-progress"]');
      expect(l?.getAttribute('data-done')).toBe('120');
      return l!;
    });
    expect(line.getAttribute('data-total')).toBe('300');
    expect(line.textContent).toContain('Syncing with Salesforce');
    expect(line.textContent).toMatch(/120 \/ 300 done/);
    await user.click(screen.getByTestId('run-progress-cancel'));
    expect(cancel).toHaveBeenCalledWith(SYNC);
    await waitFor(() => expect(line.getAttribute('data-status')).toBe('cancelled'));
  });

  it('shows nothing when the organization never synced', async () => {
    renderWithApi(
      <SalesforceCard isAdmin onAuthorize={() => {}} />,
      fakeApi({
        llm: { integrations: vi.fn(async () => ({ success: true as const, integrations: [salesforce] })) },
        crm: {
          syncStatus: vi.fn(async () => ({ ...syncing, status: null, executionId: null, message: null, processed: null, total: null })),
        },
      }),
    );
    await screen.findByTestId('salesforce-settings');
    expect(screen.queryByTestId('salesforce-sync-progress')).toBeNull();
  });
});
