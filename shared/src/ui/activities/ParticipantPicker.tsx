// Company or contact picker of the Log Activity form (spec 000 §2 'Mini drawer'): search as you
// type (250 ms, §9), the picked record shown in the box, and a last option 'Create New Company' /
// 'Create New Contact' that opens the create modal. A combobox with a listbox below it.
import { useId, useState, type KeyboardEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Field, Input, Spinner, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { AddRegular, BuildingRegular, DismissRegular, PersonRegular } from '@fluentui/react-icons';
import { useApi } from '../ApiContext';
import { useDebouncedValue } from '../dialogs/useDebouncedValue';
import { searchKey } from '../dialogs/RecordPicker';
import { pickedFromHit, type PickedRecord } from '../dialogs/RecordFormFields';

export const CREATE_NEW_LABEL = { company: 'Create New Company', contact: 'Create New Contact' } as const;

const useStyles = makeStyles({
  root: { position: 'relative' },
  list: {
    position: 'absolute',
    top: '100%',
    left: 0,
    right: 0,
    zIndex: 10,
    listStyleType: 'none',
    margin: `${tokens.spacingVerticalXXS} 0 0`,
    padding: tokens.spacingVerticalXXS,
    maxHeight: '220px',
    overflowY: 'auto',
    backgroundColor: tokens.colorNeutralBackground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: tokens.shadow16,
  },
  option: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusMedium,
    cursor: 'pointer',
    fontSize: tokens.fontSizeBase300,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  active: { backgroundColor: tokens.colorNeutralBackground1Selected },
  create: { color: tokens.colorBrandForeground1, fontWeight: tokens.fontWeightSemibold },
  texts: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  sub: { fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground3 },
  note: {
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
  },
});

export interface ParticipantPickerProps {
  entityType: 'company' | 'contact';
  label: string;
  value: PickedRecord | null;
  onChange: (value: PickedRecord | null) => void;
  onCreateNew: () => void;
  'data-testid'?: string;
}

export function ParticipantPicker(props: ParticipantPickerProps) {
  const { entityType, value, onChange } = props;
  const styles = useStyles();
  const api = useApi();
  const listId = useId();
  const tid = props['data-testid'] ?? `${entityType}-participant`;
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(-1);
  const query = useDebouncedValue(text.trim());
  const results = useQuery({
    queryKey: searchKey(entityType, query),
    queryFn: () => (entityType === 'company' ? api.companies.search(query) : api.contacts.search(query)),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    enabled: open,
  });
  // Spec 000 §7: a search failure yields an empty list.
  const hits = results.isError ? [] : (results.data?.results ?? []);
  const count = hits.length + 1;
  const Icon = entityType === 'company' ? BuildingRegular : PersonRegular;

  const choose = (i: number) => {
    setOpen(false);
    setText('');
    setActive(-1);
    if (i === hits.length) props.onCreateNew();
    else if (hits[i]) onChange(pickedFromHit(hits[i]));
  };

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(count - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'Enter' && open && active >= 0) {
      e.preventDefault();
      choose(active);
    } else if (e.key === 'Escape' && open) {
      e.stopPropagation();
      setOpen(false);
    }
  };

  return (
    <Field label={props.label}>
      <div className={styles.root} data-testid={tid}>
        <Input
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          placeholder={entityType === 'company' ? 'Search for a company' : 'Search for a contact'}
          value={open ? text : (value?.title ?? '')}
          contentBefore={<Icon aria-hidden />}
          contentAfter={
            open && results.isFetching ? (
              <Spinner size="extra-tiny" aria-label="Searching" />
            ) : value && !open ? (
              <Button
                appearance="transparent"
                size="small"
                icon={<DismissRegular />}
                aria-label={`Clear ${entityType}`}
                onClick={() => onChange(null)}
                data-testid={`${tid}-clear`}
              />
            ) : undefined
          }
          onFocus={() => {
            setOpen(true);
            setText('');
            setActive(-1);
          }}
          onBlur={() => setOpen(false)}
          onChange={(_, d) => {
            setText(d.value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKey}
          style={{ width: '100%' }}
          data-testid={`${tid}-input`}
          data-picked-id={value?.id}
        />
        {open && (
          // Options take the mouse down without blurring the input, so a click picks before the list closes.
          <ul
            className={styles.list}
            id={listId}
            role="listbox"
            aria-label={entityType === 'company' ? 'Companies' : 'Contacts'}
            onMouseDown={(e) => e.preventDefault()}
          >
            {results.isPending ? (
              <li className={styles.note}>Searching...</li>
            ) : hits.length === 0 ? (
              <li className={styles.note} data-testid={`${tid}-empty`}>
                {query
                  ? `No ${entityType === 'company' ? 'companies' : 'contacts'} match '${query}'`
                  : `No ${entityType === 'company' ? 'companies' : 'contacts'} yet`}
              </li>
            ) : null}
            {hits.map((h, i) => (
              <li
                key={h.id}
                role="option"
                aria-selected={active === i}
                className={mergeClasses(styles.option, active === i && styles.active)}
                onClick={() => choose(i)}
                data-testid={`${tid}-option`}
                data-id={h.id}
              >
                <Icon aria-hidden />
                <span className={styles.texts}>
                  <span className={styles.ellipsis}>{h.title}</span>
                  {h.subtitle && <span className={mergeClasses(styles.ellipsis, styles.sub)}>{h.subtitle}</span>}
                </span>
              </li>
            ))}
            <li
              role="option"
              aria-selected={active === hits.length}
              className={mergeClasses(styles.option, styles.create, active === hits.length && styles.active)}
              onClick={() => choose(hits.length)}
              data-testid={`${tid}-create`}
            >
              <AddRegular aria-hidden />
              {CREATE_NEW_LABEL[entityType]}
            </li>
          </ul>
        )}
      </div>
    </Field>
  );
}
