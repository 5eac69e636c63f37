// @vitest-environment happy-dom
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, renderWithApi } from '../test-render';
import { ScoreModelEditor, type ScoreFieldOption } from './ScoreModelEditor';
import { ScoreBreakdown } from './ScoreBreakdown';
import { scoreValues, type ScoreModelInput } from '../../domain/scoring';

afterEach(cleanup);

const FIELDS: ScoreFieldOption[] = [
  { id: 'revenue', label: 'Revenue', group: 'Mandatory fields', sourceType: 'mandatory', fieldType: 'double', fieldPath: 'revenue' },
  { id: 'website', label: 'Website', group: 'Mandatory fields', sourceType: 'mandatory', fieldType: 'url', fieldPath: 'website' },
  {
    id: 'e1.industry',
    label: 'Industry',
    group: 'Industry enrichment',
    sourceType: 'enrichment',
    fieldType: 'array',
    fieldPath: '$.result.industry',
    enrichmentId: '5b0c7c52-6f44-4c8f-9d54-2f1e0f8b3c11',
  },
];

function open(onSave = vi.fn(async () => {}), model?: ScoreModelInput) {
  renderWithApi(
    <ScoreModelEditor open onOpenChange={() => {}} listName="Nordic SaaS" fields={FIELDS} onSave={onSave} model={model} />,
    fakeApi({}),
  );
  return onSave;
}

async function addField(user: ReturnType<typeof userEvent.setup>, label: string) {
  const picker = screen.getByRole('combobox', { name: '+ Add field' });
  await user.click(picker);
  await user.type(picker, label.slice(0, 3));
  await user.click(await screen.findByRole('option', { name: new RegExp(label) }));
}

describe('score model editor (spec 002 §2)', () => {
  it('opens as the spec draws it: title, subtitle, default name, empty distribution', () => {
    open();
    expect(screen.getByText('New Score model')).toBeTruthy();
    expect(screen.getByText('Add rule, set conditions and preview your score model')).toBeTruthy();
    const name = screen.getByTestId('score-model-name') as HTMLInputElement;
    expect(name.value).toBe('Nordic SaaS_score');
    expect(name.placeholder).toBe('Early Saas');
    expect(screen.getByText('No fields added yet.')).toBeTruthy();
  });

  it('adds fields with the defaults, shares the weight, and says when no field matches', async () => {
    const user = userEvent.setup();
    open();
    await addField(user, 'Revenue');
    await addField(user, 'Industry');
    const cards = screen.getAllByTestId('score-field-card');
    expect(cards).toHaveLength(2);
    expect((within(cards[0]!).getByTestId('score-field-weight') as HTMLSelectElement).value).toBe('100');
    expect((within(cards[0]!).getByLabelText('Default score') as HTMLSelectElement).value).toBe('5');
    expect((within(cards[0]!).getByLabelText('Score') as HTMLSelectElement).value).toBe('5');
    expect(screen.getAllByTestId('weight-legend-item').map((e) => e.textContent)).toEqual(['Revenue 50%', 'Industry 50%']);
    await user.selectOptions(within(cards[1]!).getByTestId('score-field-weight'), '20');
    expect(screen.getAllByTestId('weight-legend-item').map((e) => e.textContent)).toEqual(['Revenue 83.33%', 'Industry 16.67%']);
    // The array field offers only its operators.
    const ops = within(within(cards[1]!).getByTestId('score-rule')).getByLabelText('Operator') as HTMLSelectElement;
    expect([...ops.options].map((o) => o.value)).toEqual(['is', 'is_not']);
    const picker = screen.getByRole('combobox', { name: '+ Add field' });
    await user.click(picker);
    await user.type(picker, 'zzz');
    expect(await screen.findByText('No field found')).toBeTruthy();
  });

  it('collapses a card with a Fluent chevron named for its field; rule rows of text and number fields share one grid', async () => {
    const user = userEvent.setup();
    open();
    await addField(user, 'Revenue');
    await addField(user, 'Website');
    const cards = screen.getAllByTestId('score-field-card');
    // An icon button (svg), not a '▾' / '▸' character.
    expect(cards.map((c) => c.textContent).join('')).not.toMatch(/[▾▸✕]/);
    const toggle = within(cards[0]!).getByRole('button', { name: 'Collapse Revenue' });
    expect(toggle.querySelector('svg')).not.toBeNull();
    await user.click(toggle);
    expect(within(cards[0]!).queryByTestId('score-rule')).toBeNull();
    expect(within(cards[0]!).getByRole('button', { name: 'Expand Revenue' }).getAttribute('aria-expanded')).toBe('false');
    // Same row class and the same children in the same places, whatever the field's operators.
    const [numberRow, textRow] = [screen.getAllByTestId('score-rule')[0]!, within(cards[1]!).getByTestId('score-rule')];
    await user.click(within(cards[0]!).getByRole('button', { name: 'Expand Revenue' }));
    const rows = screen.getAllByTestId('score-rule');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.className).toBe(rows[1]!.className);
    expect(numberRow.className).toBe(textRow.className);
    expect(rows.map((r) => r.children.length)).toEqual([5, 5]);
    expect(screen.getAllByTestId('score-rule-footer')[0]!.className).toBe(rows[0]!.className);
  }, 15_000);

  it('removing the last rule removes the field', async () => {
    const user = userEvent.setup();
    open();
    await addField(user, 'Revenue');
    await user.click(screen.getByRole('button', { name: 'Remove rule' }));
    expect(screen.queryAllByTestId('score-field-card')).toHaveLength(0);
    expect(screen.getByText('No fields added yet.')).toBeTruthy();
  });

  it('refuses what the server refuses, with the same words, and saves with the chosen run scope', async () => {
    const user = userEvent.setup();
    const onSave = open();
    await user.click(screen.getByTestId('score-model-save'));
    await user.click(await screen.findByRole('menuitem', { name: 'Save and run for first 10 row' }));
    expect((await screen.findByTestId('score-model-error')).textContent).toBe('Please add at least one rule.');
    await addField(user, 'Revenue');
    await user.click(screen.getByTestId('score-model-save'));
    await user.click(await screen.findByRole('menuitem', { name: "Save and don't run" }));
    expect((await screen.findByTestId('score-model-error')).textContent).toBe('Please fill all the values.');
    const rule = screen.getByTestId('score-rule');
    await user.selectOptions(within(rule).getByLabelText('Operator'), 'between');
    await user.type(within(rule).getByLabelText('Value'), '100');
    await user.type(within(rule).getByLabelText('Second value'), '500');
    await user.selectOptions(within(rule).getByLabelText('Score'), '8');
    await user.click(screen.getByTestId('score-model-save'));
    expect(screen.getAllByRole('menuitem').map((m) => m.textContent)).toEqual([
      "Save and don't run",
      'Save and run for first 10 row',
      'Save and run for first row',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Save and run for first row' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    const [model, run] = onSave.mock.calls[0] as unknown as [ScoreModelInput, string];
    expect(run).toBe('first1');
    expect(model.name).toBe('Nordic SaaS_score');
    expect(model.ruleSets[0]).toMatchObject({
      label: 'Revenue',
      weight: 100,
      defaultScore: 5,
      fieldData: { fieldPath: 'revenue', fieldType: 'double' },
      rules: [{ operator: 'between', value: { primary: '100', secondary: '500' }, score: 8 }],
    });
  });
});

describe('score breakdown', () => {
  it('shows per field the value, why, score, weight and contribution', () => {
    const ruleSets = [
      {
        id: 'a',
        label: 'Revenue',
        weight: 100,
        defaultScore: 2,
        fieldData: { id: 'a', sourceType: 'mandatory' as const, fieldType: 'double' as const, fieldPath: 'revenue' },
        rules: [{ id: 'r', operator: 'greater_than' as const, value: { primary: '500' }, score: 10 }],
      },
      {
        id: 'b',
        label: 'Website',
        weight: 100,
        defaultScore: 3,
        fieldData: { id: 'b', sourceType: 'mandatory' as const, fieldType: 'url' as const, fieldPath: 'website' },
        rules: [{ id: 's', operator: 'ends_with' as const, value: { primary: '.se' }, score: 9 }],
      },
    ];
    const r = scoreValues(ruleSets, (f) => (f.fieldPath === 'revenue' ? 900 : null));
    renderWithApi(<ScoreBreakdown totalScore={r.totalScore} fields={r.fields} ruleSets={ruleSets} modelName="Early Saas" />, fakeApi({}));
    expect(screen.getByText('Early Saas: 6.50 / 10')).toBeTruthy();
    const rows = screen.getAllByTestId('score-breakdown-row').map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent));
    expect(rows).toEqual([
      ['Revenue', '900', 'Greater than 500: score 10', '10', '100', '5.00'],
      ['Website', '—', 'Missing value: default score 3', '3', '100', '1.50'],
    ]);
  });
});
