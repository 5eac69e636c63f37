import { describe, it, expect } from 'vitest';
import { splitTags, isTagSplitKey, pullLastTag, TAG_SPLIT_KEYS } from './tags';

describe('tags input (spec 000 §2 Other shared UI)', () => {
  it('splits pasted text on whitespace and commas and drops empties', () => {
    expect(splitTags('a@x.co, b@x.co  c@x.co\nd@x.co\t,e@x.co,,')).toEqual(['a@x.co', 'b@x.co', 'c@x.co', 'd@x.co', 'e@x.co']);
    expect(splitTags('   ')).toEqual([]);
    expect(splitTags('')).toEqual([]);
    expect(splitTags('single')).toEqual(['single']);
  });

  it('splits on comma, space, Enter and Tab while typing, nothing else', () => {
    expect([...TAG_SPLIT_KEYS]).toEqual([',', ' ', 'Enter', 'Tab']);
    for (const k of [',', ' ', 'Enter', 'Tab']) expect(isTagSplitKey(k)).toBe(true);
    for (const k of [';', 'a', 'Backspace', 'Escape', '']) expect(isTagSplitKey(k)).toBe(false);
  });

  it('Backspace on an empty input pulls the last tag back into the input', () => {
    expect(pullLastTag(['a', 'b', 'c'])).toEqual({ tags: ['a', 'b'], input: 'c' });
    expect(pullLastTag(['only'])).toEqual({ tags: [], input: 'only' });
    expect(pullLastTag([])).toEqual({ tags: [], input: '' });
  });

  it('does not change the tags it was given', () => {
    const tags = ['a', 'b'];
    pullLastTag(tags);
    expect(tags).toEqual(['a', 'b']);
  });
});
