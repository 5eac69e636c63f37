// Tags input rules of spec 000 §2 'Other shared UI': typing splits on comma, space, Enter or Tab;
// pasted text is split on whitespace and commas.

export const TAG_SPLIT_KEYS = [',', ' ', 'Enter', 'Tab'] as const;

/** Splits pasted (or typed) text into tags: whitespace and commas separate, empties dropped. */
export function splitTags(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
}

export function isTagSplitKey(key: string): boolean {
  return (TAG_SPLIT_KEYS as readonly string[]).includes(key);
}

/**
 * Backspace on an empty input pulls the last tag back into the input for editing.
 * Returns the new tags and the input text.
 */
export function pullLastTag(tags: readonly string[]): { tags: string[]; input: string } {
  if (tags.length === 0) return { tags: [], input: '' };
  return { tags: tags.slice(0, -1), input: tags[tags.length - 1] };
}
