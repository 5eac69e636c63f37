import { describe, it, expect } from 'vitest';
import {
  renderRichPrompt,
  RenderError,
  playPublishProblem,
  enrichmentsIncluded,
  playExecutionToast,
  textToHtml,
  missingInfoText,
  type RenderResolvers,
} from './plays';
import type { RichPromptNode } from './enrichments';
import { htmlText } from './drafts';

const resolvers = (
  fields: Record<string, { label: string; value: unknown } | null>,
  enrich: Record<string, { label: string; value: unknown } | null>,
): RenderResolvers => ({
  field: async (n) => fields[n.fieldId] ?? null,
  enrich: async (n) => enrich[n.enrichmentId] ?? null,
});

describe('renderRichPrompt', () => {
  const nodes: RichPromptNode[] = [
    { type: 'text', text: 'Write to ' },
    { type: 'field-box', id: 'f1', fieldId: 'first' },
    { type: 'text', text: ' at a company in ' },
    { type: 'enrich-box', id: 'e1', enrichmentId: 'sector', path: '$.result.answer' },
    { type: 'text', text: '.' },
  ];

  it('replaces field boxes and enrich boxes by their values and records what went in', async () => {
    const r = await renderRichPrompt(
      nodes,
      resolvers({ first: { label: 'First name', value: 'Ada' } }, { sector: { label: 'Sector', value: 'logistics' } }),
    );
    expect(r.text).toBe('Write to Ada at a company in logistics.');
    expect(r.values).toEqual([
      { box: 'f1', kind: 'field', label: 'First name', value: 'Ada' },
      { box: 'e1', kind: 'enrichment', label: 'Sector', value: 'logistics' },
    ]);
  });

  it('renders structured and numeric values as text, and an optional empty box as nothing', async () => {
    const r = await renderRichPrompt(
      nodes,
      resolvers({ first: { label: 'First name', value: null } }, { sector: { label: 'Sector', value: { a: 1 } } }),
    );
    expect(r.text).toBe('Write to  at a company in 1.');
    // A whole result (an enrich box reading $.result): its one field's value, several labelled — never JSON.
    expect(
      (
        await renderRichPrompt(
          nodes,
          resolvers({ first: { label: 'First name', value: 'Ada' } }, { sector: { label: 'Sector', value: { answer: 'logistics' } } }),
        )
      ).text,
    ).toBe('Write to Ada at a company in logistics.');
    expect(
      (await renderRichPrompt(nodes, resolvers({}, { sector: { label: 'Sector', value: { industry: 'Logistics', employees: 1250 } } })))
        .values[0],
    ).toMatchObject({ value: 'Industry: Logistics; Employees: 1,250' });
    const n = await renderRichPrompt(
      [{ type: 'field-box', id: 'x', fieldId: 'n' }],
      resolvers({ n: { label: 'Employees', value: 42 } }, {}),
    );
    expect(n.text).toBe('42');
  });

  it('fails with a message naming a required box without a value, or a required box whose field or enrichment is gone', async () => {
    const req: RichPromptNode[] = [{ type: 'field-box', id: 'f', fieldId: 'first', required: true }];
    await expect(renderRichPrompt(req, resolvers({ first: { label: 'First name', value: '  ' } }, {}))).rejects.toThrow(
      new RenderError('The field "First name" has no value for this target.'),
    );
    await expect(renderRichPrompt(req, resolvers({}, {}))).rejects.toThrow('A field used in the play no longer exists.');
    const reqE: RichPromptNode[] = [{ type: 'enrich-box', id: 'e', enrichmentId: 'sector', required: true }];
    await expect(renderRichPrompt(reqE, resolvers({}, { sector: { label: 'Sector', value: undefined } }))).rejects.toThrow(
      'The enrichment "Sector" has no result for this target.',
    );
    await expect(renderRichPrompt(reqE, resolvers({}, {}))).rejects.toThrow('An enrichment used in the play no longer exists.');
    // Not required: gone boxes render empty.
    expect(
      (
        await renderRichPrompt(
          [
            { type: 'enrich-box', id: 'e', enrichmentId: 'gone' },
            { type: 'text', text: 'ok' },
          ],
          resolvers({}, {}),
        )
      ).text,
    ).toBe('ok');
  });
});

describe('play rules', () => {
  it("publish checks in the spec's order", () => {
    expect(playPublishProblem({ name: 'x', instructions: [] })).toBe('Instructions are required');
    expect(playPublishProblem({ name: ' ', instructions: [{ type: 'text', text: 'hi' }] })).toBe('Name is required');
    expect(
      playPublishProblem({
        name: 'x',
        instructions: [
          { type: 'field-box', id: 'a', fieldId: 'f' },
          { type: 'text', text: ' ' },
        ],
      }),
    ).toBe('Body is required');
    expect(playPublishProblem({ name: 'x', instructions: [{ type: 'text', text: 'hi' }] })).toBeNull();
  });

  it('enrichmentsIncluded lists each enrich box once', () => {
    expect(
      enrichmentsIncluded([
        { type: 'enrich-box', id: '1', enrichmentId: 'a' },
        { type: 'text', text: 'x' },
        { type: 'enrich-box', id: '2', enrichmentId: 'a' },
        { type: 'enrich-box', id: '3', enrichmentId: 'b' },
      ]),
    ).toEqual(['a', 'b']);
  });

  it("turns a play execution answer into spec 000 §7's toast", () => {
    expect(playExecutionToast([])).toEqual({ intent: 'error', message: 'Unable to create play.' });
    expect(playExecutionToast([{ success: true }, { success: false }])).toEqual({
      intent: 'error',
      message: 'Invalid contact or company.',
    });
    expect(playExecutionToast([{ success: true }], 2)).toEqual({
      intent: 'warning',
      message: '2 entities have missing information and could not be processed.',
    });
    expect(playExecutionToast([{ success: true }])).toEqual({ intent: 'success', message: 'Play execution started.' });
  });

  it('text ↔ HTML of draft bodies escapes markup', () => {
    expect(textToHtml('Hi <b>you</b>,\n\nLine one\nline two')).toBe('<p>Hi &lt;b&gt;you&lt;/b&gt;,</p><p>Line one<br>line two</p>');
    expect(htmlText(textToHtml('Hi & bye\n\na\nb'))).toBe('Hi & bye\na\nb');
  });
});

describe('skipped targets: what they lack', () => {
  it("names the missing details ('Missing website', 'Missing first name and email', 'Missing a, b and c')", () => {
    expect(missingInfoText(['website'])).toBe('Missing website');
    expect(missingInfoText(['firstName', 'email'])).toBe('Missing first name and email');
    expect(missingInfoText(['name', 'website', 'keyContact'])).toBe('Missing name, website and key contact');
    expect(missingInfoText([])).toBe('Missing information');
  });
});
