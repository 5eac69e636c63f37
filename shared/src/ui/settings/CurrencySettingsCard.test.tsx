// @vitest-environment happy-dom
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FieldDto, SetFieldConfigBody } from '../../contracts';
import { fakeApi, renderWithApi } from '../test-render';
import { CurrencySettingsCard } from './CurrencySettingsCard';

afterEach(cleanup);
configure({ asyncUtilTimeout: 5000 });

const field = (
  id: string,
  label: string,
  dataType: FieldDto['dataType'],
  currency: string | null,
  entityType: 'company' | 'contact' = 'company',
): FieldDto => ({
  id,
  key: label.toLowerCase().replace(/ /g, '_'),
  label,
  dataType,
  entityType,
  namespace: entityType,
  isMandatory: false,
  isPseudo: false,
  builtIn: false,
  config: { reconciliation: 'use_latest', refreshSchedule: 'never', currency },
  currency: dataType === 'currency' ? (currency ?? 'USD') : null,
  assignedEnrichments: [],
});
const DEAL = 'f0000000-0000-4000-8000-000000000001';
const FEE = 'f0000000-0000-4000-8000-000000000002';

function setup() {
  let orgCurrency = 'USD';
  let fields = [
    field(DEAL, 'Deal Size', 'currency', null),
    field(FEE, 'Finder Fee', 'currency', 'CHF', 'contact'),
    field('f3', 'CEO', 'string', null),
  ];
  const setDefaultCurrency = vi.fn(async (c: string) => {
    orgCurrency = c;
    return { success: true as const, message: 'Default currency saved', defaultCurrency: c };
  });
  const setConfig = vi.fn(async (b: SetFieldConfigBody) => {
    fields = fields.map((f) => (f.id === b.fieldId ? field(f.id, f.label, f.dataType, b.config.currency ?? null, f.entityType) : f));
    return { success: true as const, message: 'Field updated', field: fields.find((f) => f.id === b.fieldId)! };
  });
  const list = vi.fn(async () => ({ success: true as const, fields }));
  const api = fakeApi({
    organization: {
      get: vi.fn(async () => ({ success: true as const, organization: { id: 'o1', defaultCurrency: orgCurrency } as never })),
      setDefaultCurrency,
    },
    fields: { list, setConfig },
  });
  renderWithApi(<CurrencySettingsCard />, api);
  return { setDefaultCurrency, setConfig, list };
}

describe('Currency settings (organization default, per field override)', { timeout: 20_000 }, () => {
  it('shows the default and the currency fields as a person reads them; saves a new default and re-reads the fields', async () => {
    const user = userEvent.setup();
    const { setDefaultCurrency, list } = setup();
    const select = (await screen.findByTestId('currency-default')) as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe('USD'));
    expect(select.selectedOptions[0].textContent).toBe('USD — US Dollar');
    const rows = await screen.findAllByTestId('currency-field');
    // Only Currency fields, companies first.
    expect(rows.map((r) => within(r).getAllByText(/.+/)[0].textContent)).toEqual(['Deal Size', 'Finder Fee']);
    expect((within(rows[0]).getByTestId('currency-field-select') as HTMLSelectElement).selectedOptions[0].textContent).toBe(
      'Organization default (USD)',
    );
    expect((within(rows[1]).getByTestId('currency-field-select') as HTMLSelectElement).value).toBe('CHF');
    expect((screen.getByTestId('currency-default-save') as HTMLButtonElement).disabled).toBe(true);

    const reads = list.mock.calls.length;
    await user.selectOptions(select, 'EUR');
    await user.click(screen.getByTestId('currency-default-save'));
    expect(setDefaultCurrency).toHaveBeenCalledWith('EUR');
    expect(await screen.findByText('Default currency saved')).toBeTruthy();
    await waitFor(() => expect(list.mock.calls.length).toBeGreaterThan(reads));
    await waitFor(() =>
      expect(
        (within(screen.getAllByTestId('currency-field')[0]).getByTestId('currency-field-select') as HTMLSelectElement).selectedOptions[0]
          .textContent,
      ).toBe('Organization default (EUR)'),
    );
  });

  it("gives a field its own currency and back to the organization's", async () => {
    const user = userEvent.setup();
    const { setConfig } = setup();
    const rows = await screen.findAllByTestId('currency-field');
    await user.selectOptions(within(rows[0]).getByTestId('currency-field-select'), 'GBP');
    expect(setConfig).toHaveBeenCalledWith({ fieldId: DEAL, config: { currency: 'GBP' } });
    expect(await screen.findByText('Field updated')).toBeTruthy();
    await waitFor(() =>
      expect((within(screen.getAllByTestId('currency-field')[0]).getByTestId('currency-field-select') as HTMLSelectElement).value).toBe(
        'GBP',
      ),
    );
    await user.selectOptions(within(screen.getAllByTestId('currency-field')[1]).getByTestId('currency-field-select'), '');
    expect(setConfig).toHaveBeenLastCalledWith({ fieldId: FEE, config: { currency: null } });
  });
});
