// @vitest-environment happy-dom
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EnrichmentConfigDto, EnrichmentFormBody, FieldDto, GeneratePromptResponse } from '../../contracts';
import { fakeApi, renderWithApi } from '../test-render';
import { EnrichmentEditor } from './EnrichmentEditor';
import { EnrichmentTypeSelector, LinkedinEnrichmentModal } from './NewEnrichment';

afterEach(cleanup);
configure({ asyncUtilTimeout: 6000 });

const F_NAME = 'f0000000-0000-4000-8000-000000000001';
const F_CEO = 'f0000000-0000-4000-8000-000000000002';
const field = (id: string, label: string, builtIn: boolean): FieldDto => ({
  id,
  key: label.toLowerCase(),
  label,
  dataType: 'string',
  entityType: 'company',
  namespace: 'company',
  isMandatory: builtIn,
  isPseudo: false,
  builtIn,
  config: { reconciliation: 'use_latest', refreshSchedule: 'never' },
  assignedEnrichments: [],
});
const config = (type: 'llm' | 'mixrankCompanyDetails'): EnrichmentConfigDto => ({
  id: `${type}-company`,
  name: type,
  description: '',
  entityType: 'company',
  enrichmentType: type,
  label: type === 'llm' ? 'LLM Prompt' : 'LinkedIn',
  namePrefix: type === 'llm' ? 'LLM Prompt' : 'Linkedin',
  data: {},
  provider: type === 'llm' ? 'dealscout' : 'mixrank',
  llmModelId: null,
  responseSchema: null,
  hasPrompt: type === 'llm',
});

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function api(
  generate: () => Promise<GeneratePromptResponse>,
  create = vi.fn(async (_b: EnrichmentFormBody) => ({
    success: true as const,
    message: 'Enrichment created successfully.',
    id: 'new',
    enrichment: {} as never,
  })),
) {
  return fakeApi({
    fields: {
      list: vi.fn(async () => ({
        success: true as const,
        fields: [
          field(F_NAME, 'Name', true),
          field(F_CEO, 'CEO', false),
          { ...field('f0000000-0000-4000-8000-000000000009', 'Id', true), dataType: 'id' as const },
        ],
      })),
    },
    enrichments: {
      list: vi.fn(async () => ({
        success: true as const,
        enrichments: [],
        totalRecords: 0,
        totalPages: 0,
        hasRecords: false,
        pageIndex: 0,
        pageSize: 100,
      })),
      nextName: vi.fn(async () => ({ success: true as const, name: 'LLM Prompt 3' })),
      create,
    },
    organization: {
      get: vi.fn(async () => {
        throw new Error('not needed');
      }),
    },
    llm: { generatePrompt: vi.fn(generate) },
  });
}

describe('EnrichmentEditor', { timeout: 30_000 }, () => {
  it("the '/' menu offers the record's fields but never the internal Id (001 §3)", async () => {
    const user = userEvent.setup();
    renderWithApi(
      <EnrichmentEditor open onOpenChange={vi.fn()} config={config('llm')} entityType="company" />,
      api(() => new Promise(() => {})),
    );
    await waitFor(() => expect((screen.getByTestId('enrichment-name') as HTMLInputElement).value).toBe('LLM Prompt 3'));
    await user.click(screen.getByTestId('prompt-editor'));
    await user.keyboard('/');
    await screen.findByTestId('prompt-menu');
    const labels = screen.getAllByTestId('prompt-menu-option').map((o) => o.textContent);
    expect(labels.some((l) => l?.includes('CEO'))).toBe(true);
    expect(labels.some((l) => l?.includes('Name'))).toBe(true);
    expect(labels.some((l) => /\bId\b/.test(l ?? ''))).toBe(false);
  });

  it('shows the placeholder, blocks saving while the schema generates, then saves the form', async () => {
    const user = userEvent.setup();
    const gen = deferred<GeneratePromptResponse>();
    const create = vi.fn(async (_b: EnrichmentFormBody) => ({
      success: true as const,
      message: 'Enrichment created successfully.',
      id: 'new',
      enrichment: {} as never,
    }));
    const onOpenChange = vi.fn();
    renderWithApi(
      <EnrichmentEditor open onOpenChange={onOpenChange} config={config('llm')} entityType="company" />,
      api(() => gen.promise, create),
    );
    await waitFor(() => expect((screen.getByTestId('enrichment-name') as HTMLInputElement).value).toBe('LLM Prompt 3'));
    expect(screen.getByTestId('schema-placeholder').textContent).toBe(
      'Your schema will automatically appear here after you type your prompt.',
    );
    const save = () => screen.getByTestId('enrichment-save') as HTMLButtonElement;
    expect(save().disabled).toBe(true);

    await user.click(screen.getByTestId('prompt-editor'));
    await user.keyboard('Who leads the company?');
    expect(await screen.findByTestId('schema-generating')).toBeTruthy();
    expect(save().disabled).toBe(true);
    gen.resolve({
      success: true,
      enrichmentName: 'CEO Finder',
      keyName: 'ceo',
      keyDescription: 'The CEO',
      keyDataType: 'string',
      keyOptions: [],
    });
    await waitFor(() => expect(screen.getAllByTestId('schema-item').map((c) => c.dataset.name)).toEqual(['ceo']));
    await waitFor(() => expect(save().disabled).toBe(false));
    expect((screen.getByTestId('enrichment-name') as HTMLInputElement).value).toBe('CEO Finder');

    await user.selectOptions(screen.getByTestId('enrichment-field'), F_CEO);
    await user.click(save());
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(create.mock.calls[0][0]).toMatchObject({
      configId: 'llm-company',
      entityType: 'company',
      name: 'CEO Finder',
      llmModelId: 'default',
      prompt: [{ type: 'text', text: 'Who leads the company?' }],
      schema: [{ name: 'ceo', type: 'string', description: 'The CEO', required: true, createColumn: true }],
      fieldIdToAssign: F_CEO,
      isFieldPrimary: true,
      color: null,
    });
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
  });

  it('shows the name and schema errors instead of saving', async () => {
    const user = userEvent.setup();
    const create = vi.fn();
    renderWithApi(
      <EnrichmentEditor open onOpenChange={vi.fn()} config={config('llm')} entityType="company" />,
      api(
        async () => ({ success: true, enrichmentName: '', keyName: 'ceo', keyDescription: '', keyDataType: 'string', keyOptions: [] }),
        create,
      ),
    );
    await waitFor(() => expect((screen.getByTestId('enrichment-name') as HTMLInputElement).value).toBe('LLM Prompt 3'));
    await user.clear(screen.getByTestId('enrichment-name'));
    await user.click(screen.getByTestId('prompt-editor'));
    await user.keyboard('CEO?');
    await waitFor(() => expect(screen.getAllByTestId('schema-item')).toHaveLength(1));
    expect(screen.getByText('Schema description is required')).toBeTruthy();
    await waitFor(() => expect((screen.getByTestId('enrichment-save') as HTMLButtonElement).disabled).toBe(false));
    await user.click(screen.getByTestId('enrichment-save'));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(create).not.toHaveBeenCalled();
  });
});

describe('LinkedIn modal', { timeout: 20_000 }, () => {
  it('has a name only, sent as enrichmentName', async () => {
    const user = userEvent.setup();
    const create = vi.fn(async (_b: EnrichmentFormBody) => ({
      success: true as const,
      message: 'Enrichment created successfully.',
      id: 'new',
      enrichment: {} as never,
    }));
    const a = fakeApi({ enrichments: { nextName: vi.fn(async () => ({ success: true as const, name: 'Linkedin 1' })), create } });
    renderWithApi(<LinkedinEnrichmentModal open onOpenChange={vi.fn()} config={config('mixrankCompanyDetails')} entityType="company" />, a);
    const name = screen.getByTestId('linkedin-enrichment-name') as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Linkedin 1'));
    await user.clear(name);
    await user.click(screen.getByTestId('linkedin-enrichment-save'));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    await user.type(name, 'Company details');
    await user.click(screen.getByTestId('linkedin-enrichment-save'));
    await waitFor(() =>
      expect(create).toHaveBeenCalledWith({
        configId: 'mixrankCompanyDetails-company',
        entityType: 'company',
        enrichmentName: 'Company details',
      }),
    );
  });
});

describe('plugin mode', { timeout: 20_000 }, () => {
  it('gives the editor and the type selector the full width', async () => {
    const a = api(async () => ({
      success: true,
      enrichmentName: '',
      keyName: 'x',
      keyDescription: 'x',
      keyDataType: 'string',
      keyOptions: [],
    }));
    renderWithApi(<EnrichmentEditor open onOpenChange={vi.fn()} config={config('llm')} entityType="company" />, a, { pluginMode: true });
    expect((await screen.findByTestId('enrichment-editor')).style.width).toBe('100%');
    cleanup();
    const b = fakeApi({ enrichments: { configs: vi.fn(async () => ({ success: true as const, configs: [config('llm')] })) } });
    renderWithApi(<EnrichmentTypeSelector open onOpenChange={vi.fn()} onPick={vi.fn()} />, b, { pluginMode: true });
    expect((await screen.findByTestId('enrichment-type-selector')).style.width).toBe('100%');
    expect(await screen.findAllByTestId('enrichment-type-option')).toHaveLength(1);
    cleanup();
    renderWithApi(<EnrichmentTypeSelector open onOpenChange={vi.fn()} onPick={vi.fn()} />, b);
    expect((await screen.findByTestId('enrichment-type-selector')).style.width).toBe('400px');
  });
});
