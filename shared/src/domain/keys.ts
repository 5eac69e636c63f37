// Field key formatting (spec 002 §5 'Other patterns'): lowercase the text and replace every
// non-alphanumeric character with an underscore.

export function formatFieldKey(label: string): string {
  return label.toLowerCase().replace(/[^a-z0-9]/g, '_');
}
