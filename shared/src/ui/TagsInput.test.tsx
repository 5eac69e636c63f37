// @vitest-environment happy-dom
import './test-dom';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, fireEvent } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { isValidEmail } from '../domain';
import { TagsInput, addTagsCapped, type TagsInputProps } from './TagsInput';

afterEach(cleanup);

function Harness(props: Partial<TagsInputProps> & { initial?: string[]; onTags?: (t: string[]) => void }) {
  const [tags, setTags] = useState<string[]>(props.initial ?? []);
  return (
    <FluentProvider theme={webLightTheme}>
      <TagsInput
        aria-label="Emails"
        {...props}
        value={tags}
        onChange={(t) => {
          setTags(t);
          props.onTags?.(t);
        }}
      />
      <button type="button">elsewhere</button>
    </FluentProvider>
  );
}

const tagTexts = () => screen.queryAllByTestId('tags-input-tag').map((t) => t.textContent?.trim());
const field = () => screen.getByTestId('tags-input-field') as HTMLInputElement;

describe('TagsInput', () => {
  it('splits typed text on comma, space, Enter and Tab', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(field());
    await user.type(field(), 'a@x.com,b@x.com c@x.com');
    expect(tagTexts()).toEqual(['a@x.com', 'b@x.com']);
    expect(field().value).toBe('c@x.com');
    await user.keyboard('{Enter}');
    expect(tagTexts()).toEqual(['a@x.com', 'b@x.com', 'c@x.com']);
    await user.type(field(), 'd@x.com');
    await user.keyboard('{Tab}');
    expect(tagTexts()).toEqual(['a@x.com', 'b@x.com', 'c@x.com', 'd@x.com']);
    expect(field().value).toBe('');
  });

  it('keeps focus in the input when Tab adds a tag, and lets Tab move on when the input is empty', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(field());
    await user.type(field(), 'a@x.com');
    await user.keyboard('{Tab}');
    expect(document.activeElement).toBe(field());
    await user.keyboard('{Tab}');
    expect(document.activeElement).not.toBe(field());
  });

  it('swallows a leading separator instead of creating an empty tag', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.type(field(), ', ,');
    expect(tagTexts()).toEqual([]);
    expect(field().value).toBe('');
  });

  it('splits pasted text on whitespace and commas', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(field());
    await user.paste('a@x.com, b@x.com\nc@x.com\td@x.com,,');
    expect(tagTexts()).toEqual(['a@x.com', 'b@x.com', 'c@x.com', 'd@x.com']);
    expect(field().value).toBe('');
  });

  it('pulls the last tag back into the input on Backspace in an empty input', async () => {
    const user = userEvent.setup();
    render(<Harness initial={['a@x.com', 'b@x.com']} />);
    await user.click(field());
    await user.keyboard('{Backspace}');
    expect(tagTexts()).toEqual(['a@x.com']);
    expect(field().value).toBe('b@x.com');
    // A second Backspace edits the text, it does not pull another tag.
    await user.keyboard('{Backspace}');
    expect(field().value).toBe('b@x.co');
    expect(tagTexts()).toEqual(['a@x.com']);
  });

  it('caps the entries and reports what did not fit', async () => {
    const user = userEvent.setup();
    const rejected = vi.fn();
    render(<Harness maxTags={2} onRejected={rejected} />);
    await user.click(field());
    await user.paste('a@x.com b@x.com c@x.com');
    expect(tagTexts()).toEqual(['a@x.com', 'b@x.com']);
    expect(rejected).toHaveBeenCalledWith(['c@x.com']);
    await user.type(field(), 'd@x.com,');
    expect(tagTexts()).toEqual(['a@x.com', 'b@x.com']);
    expect(rejected).toHaveBeenLastCalledWith(['d@x.com']);
  });

  it('is disabled when no seat is left', () => {
    render(<Harness maxTags={0} />);
    expect(field().disabled).toBe(true);
  });

  it('adds the pending text when the input loses focus', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.type(field(), 'a@x.com');
    await user.click(screen.getByText('elsewhere'));
    expect(tagTexts()).toEqual(['a@x.com']);
  });

  it('marks entries that fail the check', async () => {
    const user = userEvent.setup();
    render(<Harness isValid={isValidEmail} />);
    await user.click(field());
    await user.paste('good@x.com not-an-email');
    const tags = screen.getAllByTestId('tags-input-tag');
    expect(tags.map((t) => t.getAttribute('data-invalid'))).toEqual([null, 'true']);
  });

  it('removes a tag with its dismiss button', async () => {
    const user = userEvent.setup();
    const onTags = vi.fn();
    render(<Harness initial={['a@x.com', 'b@x.com']} onTags={onTags} />);
    await user.click(screen.getAllByTestId('tags-input-tag')[0]);
    expect(onTags).toHaveBeenLastCalledWith(['b@x.com']);
    expect(tagTexts()).toEqual(['b@x.com']);
  });

  it('splits separators that arrive without a key event (autofill, mobile keyboards)', () => {
    render(<Harness />);
    fireEvent.change(field(), { target: { value: 'a@x.com b@x.com,c' } });
    expect(tagTexts()).toEqual(['a@x.com', 'b@x.com']);
    expect(field().value).toBe('c');
  });
});

describe('addTagsCapped', () => {
  it('appends everything without a cap', () => {
    expect(addTagsCapped(['a'], ['b', 'c'])).toEqual({ tags: ['a', 'b', 'c'], rejected: [] });
  });
  it('keeps the first entries that fit', () => {
    expect(addTagsCapped(['a'], ['b', 'c', 'd'], 3)).toEqual({ tags: ['a', 'b', 'c'], rejected: ['d'] });
  });
  it('rejects everything when full or over the cap', () => {
    expect(addTagsCapped(['a', 'b'], ['c'], 1)).toEqual({ tags: ['a', 'b'], rejected: ['c'] });
  });
});
