// A search-as-you-type picker for a company or a contact (spec 000 §2 'Details tab' pickers, §5:
// items already linked are disabled and cannot be picked; §9: 250 ms debounce).
import { useState, type KeyboardEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { SearchBox, Spinner, Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { BuildingRegular, PersonRegular } from '@fluentui/react-icons';
import type { SearchHit } from '../../contracts';
import { useApi } from '../ApiContext';
import { useDebouncedValue } from './useDebouncedValue';

export interface RecordPickerProps {
  entityType: 'company' | 'contact';
  onPick: (hit: SearchHit) => void;
  /** Records that cannot be picked (already linked); shown disabled. */
  disabledIds?: ReadonlySet<string>;
  disabledReason?: string;
  placeholder?: string;
  autoFocus?: boolean;
  /** Prefix of the test ids: `<id>`, `<id>-search`, `<id>-option`, `<id>-empty`. */
  'data-testid'?: string;
}

export const searchKey = (entityType: 'company' | 'contact', query: string) => ['search', entityType, query] as const;

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  search: { width: '100%', maxWidth: '100%' },
  list: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    maxHeight: '220px',
    overflowY: 'auto',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  option: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    width: '100%',
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    border: 'none',
    background: 'none',
    textAlign: 'left',
    cursor: 'pointer',
    color: tokens.colorNeutralForeground1,
    fontFamily: 'inherit',
    fontSize: tokens.fontSizeBase300,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '-2px' },
  },
  optionDisabled: {
    cursor: 'not-allowed',
    color: tokens.colorNeutralForegroundDisabled,
    ':hover': { backgroundColor: 'transparent' },
  },
  texts: { display: 'flex', flexDirection: 'column', minWidth: 0, flexGrow: 1 },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  subtitle: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  reason: { fontSize: tokens.fontSizeBase200, flexShrink: 0 },
  note: { color: tokens.colorNeutralForeground3, padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}` },
});

export function RecordPicker(props: RecordPickerProps) {
  const { entityType, onPick, disabledIds } = props;
  const styles = useStyles();
  const api = useApi();
  const tid = props['data-testid'] ?? `${entityType}-picker`;
  const [text, setText] = useState('');
  const query = useDebouncedValue(text.trim());
  const noun = entityType === 'company' ? 'companies' : 'contacts';
  const results = useQuery({
    queryKey: searchKey(entityType, query),
    queryFn: () => (entityType === 'company' ? api.companies.search(query) : api.contacts.search(query)),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const hits = results.data?.results ?? [];
  const Icon = entityType === 'company' ? BuildingRegular : PersonRegular;

  const move = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const root = (e.currentTarget as HTMLElement).closest(`[data-testid="${tid}"]`);
    const buttons = Array.from(root?.querySelectorAll<HTMLButtonElement>('button[data-picker-option]') ?? []);
    if (buttons.length === 0) return;
    e.preventDefault();
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next = e.key === 'ArrowDown' ? Math.min(buttons.length - 1, i + 1) : i <= 0 ? -1 : i - 1;
    if (next < 0) root?.querySelector<HTMLInputElement>('input')?.focus();
    else buttons[next].focus();
  };

  return (
    <div className={styles.root} data-testid={tid} onKeyDown={move}>
      <SearchBox
        className={styles.search}
        value={text}
        onChange={(_, d) => setText(d.value)}
        placeholder={props.placeholder ?? (entityType === 'company' ? 'Search for a company' : 'Search for a contact')}
        aria-label={props.placeholder ?? (entityType === 'company' ? 'Search for a company' : 'Search for a contact')}
        autoFocus={props.autoFocus}
        contentAfter={results.isFetching ? <Spinner size="extra-tiny" aria-label="Searching" /> : undefined}
        data-testid={`${tid}-search`}
      />
      {results.isError ? (
        <Text className={styles.note} role="alert" data-testid={`${tid}-error`}>
          Could not search {noun}. Please try again.
        </Text>
      ) : results.isPending ? (
        <Text className={styles.note}>Searching...</Text>
      ) : hits.length === 0 ? (
        <Text className={styles.note} data-testid={`${tid}-empty`}>
          {query ? `No ${noun} match '${query}'` : `No ${noun} yet`}
        </Text>
      ) : (
        <ul className={styles.list} role="listbox" aria-label={entityType === 'company' ? 'Companies' : 'Contacts'}>
          {hits.map((hit) => {
            const disabled = disabledIds?.has(hit.id) ?? false;
            return (
              <li key={hit.id} role="presentation">
                <button
                  type="button"
                  role="option"
                  aria-selected={false}
                  aria-disabled={disabled}
                  data-picker-option
                  className={mergeClasses(styles.option, disabled && styles.optionDisabled)}
                  onClick={() => {
                    if (!disabled) onPick(hit);
                  }}
                  data-testid={`${tid}-option`}
                  data-id={hit.id}
                  data-disabled={disabled ? 'true' : undefined}
                >
                  <Icon aria-hidden />
                  <span className={styles.texts}>
                    <span className={styles.ellipsis}>{hit.title}</span>
                    {hit.subtitle && <span className={mergeClasses(styles.ellipsis, styles.subtitle)}>{hit.subtitle}</span>}
                  </span>
                  {disabled && <span className={styles.reason}>{props.disabledReason ?? 'Already linked'}</span>}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
