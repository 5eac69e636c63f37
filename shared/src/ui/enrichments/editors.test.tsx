// @vitest-environment happy-dom
import '../test-dom';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { defaultSchemaItem, type FormSchemaItem, type GeneratedColumn, type PromptNode } from '../../domain';
import { SchemaEditor } from './SchemaEditor';
import { PromptEditor } from './PromptEditor';

afterEach(cleanup);
configure({ asyncUtilTimeout: 5000 });

function SchemaHarness({
  initial,
  generate,
  spy,
}: {
  initial: FormSchemaItem[];
  generate?: (h: string) => Promise<GeneratedColumn | null>;
  spy?: (i: FormSchemaItem[]) => void;
}) {
  const [items, setItems] = useState(initial);
  return (
    <FluentProvider theme={webLightTheme}>
      <SchemaEditor
        items={items}
        onChange={(i) => {
          setItems(i);
          spy?.(i);
        }}
        generateColumn={generate}
      />
    </FluentProvider>
  );
}

const cards = () => screen.getAllByTestId('schema-item');
const inCard = (i: number, id: string) => within(cards()[i]).getByTestId(id);

describe('SchemaEditor', { timeout: 20_000 }, () => {
  it('keeps at least one item: delete is disabled on the last', async () => {
    const user = userEvent.setup();
    render(<SchemaHarness initial={[defaultSchemaItem()]} />);
    expect((inCard(0, 'schema-item-delete') as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByTestId('schema-add-item'));
    expect(cards()).toHaveLength(2);
    expect(cards().map((c) => (within(c).getByTestId('schema-item-delete') as HTMLButtonElement).disabled)).toEqual([false, false]);
    await user.click(inCard(1, 'schema-item-delete'));
    expect(cards()).toHaveLength(1);
    expect((inCard(0, 'schema-item-delete') as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the errors per item', async () => {
    const user = userEvent.setup();
    render(<SchemaHarness initial={[defaultSchemaItem()]} />);
    expect(screen.queryByText('Schema name is required')).toBeNull();
    await user.click(screen.getByTestId('schema-add-item'));
    const second = cards()[1];
    expect(within(second).getByText('Schema name is required')).toBeTruthy();
    expect(within(second).getByText('Schema description is required')).toBeTruthy();
    expect(within(cards()[0]).queryByText('Schema name is required')).toBeNull();
    await user.type(within(second).getByTestId('schema-item-name'), 'sector');
    expect(within(second).queryByText('Schema name is required')).toBeNull();
    expect(within(second).getByText('Schema description is required')).toBeTruthy();
  });

  it('offers array only to an array item', () => {
    render(<SchemaHarness initial={[defaultSchemaItem(), { ...defaultSchemaItem(), name: 'tags', type: 'array' }]} />);
    const opts = (i: number) => Array.from((inCard(i, 'schema-item-type') as HTMLSelectElement).options).map((o) => o.value);
    expect(opts(0)).toEqual(['string', 'number', 'boolean', 'categories']);
    expect(opts(1)).toEqual(['string', 'number', 'boolean', 'categories', 'array']);
  });

  it('adds category values on Enter, without blanks or duplicates, and keeps top N at least 1', async () => {
    const user = userEvent.setup();
    const spy = vi.fn();
    render(<SchemaHarness initial={[defaultSchemaItem()]} spy={spy} />);
    await user.selectOptions(inCard(0, 'schema-item-type'), 'categories');
    expect(screen.getByText('Schema categorical values are required')).toBeTruthy();
    const input = inCard(0, 'schema-item-enum-input');
    await user.type(input, 'SaaS{Enter}');
    await user.type(input, 'SaaS{Enter}');
    await user.type(input, '   {Enter}');
    await user.type(input, 'Retail{Enter}');
    expect(screen.getAllByTestId('schema-item-enum-value').map((t) => t.textContent)).toEqual(['SaaS', 'Retail']);
    expect(screen.queryByText('Schema categorical values are required')).toBeNull();
    expect((inCard(0, 'schema-item-enum-type') as HTMLSelectElement).value).toBe('best');
    await user.selectOptions(inCard(0, 'schema-item-enum-type'), 'topN');
    const topN = within(inCard(0, 'schema-item-enum-topn')).queryByRole('spinbutton') ?? inCard(0, 'schema-item-enum-topn');
    await user.clear(topN);
    await user.type(topN, '0');
    fireEvent.blur(topN);
    await waitFor(() => expect(spy.mock.lastCall?.[0][0].enumTopN).toBe(1));
    expect(spy.mock.lastCall?.[0][0]).toMatchObject({ type: 'categories', enumValues: ['SaaS', 'Retail'], enumType: 'topN' });
  });

  it('generates a column from a hint and collapses the others, or says none was found', async () => {
    const user = userEvent.setup();
    const generate = vi
      .fn<(h: string) => Promise<GeneratedColumn | null>>()
      .mockResolvedValueOnce({ keyName: '', keyDataType: null, keyDescription: null, keyOptions: null })
      .mockResolvedValueOnce({ keyName: 'employee_count', keyDataType: 'number', keyDescription: 'Number of employees', keyOptions: [] });
    render(<SchemaHarness initial={[defaultSchemaItem()]} generate={generate} />);
    const go = screen.getByTestId('schema-hint-generate') as HTMLButtonElement;
    expect(go.disabled).toBe(true);
    await user.type(screen.getByTestId('schema-hint-input'), 'staff');
    await user.click(go);
    expect((await screen.findByTestId('schema-hint-error')).textContent).toBe(
      "Couldn't find any columns matching the given hint. Please try again.",
    );
    expect(cards()).toHaveLength(1);
    await user.click(screen.getByTestId('schema-hint-generate'));
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(generate).toHaveBeenLastCalledWith('staff');
    expect(cards().map((c) => c.dataset.expanded)).toEqual(['false', 'true']);
    expect(cards()[1].dataset.name).toBe('employee_count');
    expect((inCard(1, 'schema-item-required') as HTMLInputElement).checked).toBe(true);
    expect((inCard(1, 'schema-item-create-column') as HTMLInputElement).checked).toBe(true);
  });
});

const FIELDS = [
  { id: 'f-name', label: 'Company Name' },
  { id: 'f-web', label: 'Website' },
];
const ENRICHMENTS = [{ id: 'e-ceo', name: 'CEO finder' }];

function PromptHarness({ spy, initial = [] }: { spy: (n: PromptNode[]) => void; initial?: PromptNode[] }) {
  const [value, setValue] = useState<PromptNode[]>(initial);
  return (
    <FluentProvider theme={webLightTheme}>
      <PromptEditor
        value={value}
        onChange={(n) => {
          setValue(n);
          spy(n);
        }}
        fields={FIELDS}
        enrichments={ENRICHMENTS}
        placeholder="Describe the objective"
      />
    </FluentProvider>
  );
}

describe('PromptEditor', { timeout: 20_000 }, () => {
  it("opens the '/' menu and inserts a field box with a 12-character id", async () => {
    const user = userEvent.setup();
    const spy = vi.fn();
    render(<PromptHarness spy={spy} />);
    const editor = screen.getByTestId('prompt-editor');
    await user.click(editor);
    await user.keyboard('Who runs /');
    const menu = await screen.findByTestId('prompt-menu');
    expect(
      within(menu)
        .getAllByTestId('prompt-menu-option')
        .map((o) => o.textContent),
    ).toEqual(['Company Name', 'Website', 'CEO finder']);
    await user.keyboard('web');
    expect(
      within(screen.getByTestId('prompt-menu'))
        .getAllByTestId('prompt-menu-option')
        .map((o) => o.textContent),
    ).toEqual(['Website']);
    await user.keyboard('{Enter}');
    expect(screen.queryByTestId('prompt-menu')).toBeNull();
    const nodes = spy.mock.lastCall?.[0] as PromptNode[];
    const box = nodes.find((n) => n.type === 'field-box');
    expect(box).toMatchObject({ type: 'field-box', fieldId: 'f-web', autorun: false, required: false });
    expect(box && 'id' in box ? box.id : '').toMatch(/^[A-Za-z0-9]{12}$/);
    expect(nodes[0]).toEqual({ type: 'text', text: 'Who runs ' });
    expect(within(editor).getByTestId('field-box').textContent).toBe('Website');
  });

  it('inserts an enrich box by mouse and edits its options', async () => {
    const user = userEvent.setup();
    const spy = vi.fn();
    render(<PromptHarness spy={spy} />);
    const editor = screen.getByTestId('prompt-editor');
    await user.click(editor);
    await user.keyboard('/ceo');
    const option = within(await screen.findByTestId('prompt-menu')).getByText('CEO finder');
    fireEvent.mouseDown(option);
    const last = () => (spy.mock.lastCall?.[0] as PromptNode[]).find((n) => n.type === 'enrich-box');
    expect(last()).toMatchObject({ type: 'enrich-box', enrichmentId: 'e-ceo', path: '$.result', autorun: false, required: false });
    await user.click(within(editor).getByTestId('enrich-box'));
    await user.click(within(screen.getByTestId('prompt-box-options')).getByRole('checkbox', { name: 'Required' }));
    expect(last()).toMatchObject({ required: true, autorun: false });
    await user.click(within(screen.getByTestId('prompt-box-options')).getByRole('checkbox', { name: 'Autorun' }));
    expect(last()).toMatchObject({ required: true, autorun: true });
    await user.click(screen.getByTestId('prompt-box-remove'));
    expect(last()).toBeUndefined();
  });

  it('closes the menu on Escape and renders a given value', async () => {
    const user = userEvent.setup();
    const spy = vi.fn();
    render(
      <PromptHarness
        spy={spy}
        initial={[
          { type: 'text', text: 'About ' },
          { type: 'field-box', id: 'abcdefghijkl', fieldId: 'f-name', autorun: false, required: true },
        ]}
      />,
    );
    const editor = screen.getByTestId('prompt-editor');
    expect(within(editor).getByTestId('field-box').textContent).toBe('Company Name');
    await user.click(editor);
    const end = document.createRange();
    end.selectNodeContents(editor);
    end.collapse(false);
    window.getSelection()?.removeAllRanges();
    window.getSelection()?.addRange(end);
    await user.keyboard(' /');
    expect(await screen.findByTestId('prompt-menu')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('prompt-menu')).toBeNull();
  });
});
