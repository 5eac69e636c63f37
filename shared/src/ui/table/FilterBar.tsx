// Table filters (spec 001 §2 'Table filters', §4): an 'Add Filter' button opening a field picker,
// and one chip per filter that opens the filter editor. A new filter only joins the table's
// filters when saved: dismissed without items, it is removed.
import { useMemo, useState } from 'react';
import {
  Button,
  Input,
  InteractionTag,
  InteractionTagPrimary,
  InteractionTagSecondary,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Spinner,
  Text,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { FilterAddRegular, SearchRegular } from '@fluentui/react-icons';
import { dataTypeLabel, isHiddenDataType, type TableFilter } from '../../domain';
import { FilterEditor, type FilterFieldInfo, type FilterOption } from './FilterEditor';
import { filterLabel } from './filterLabel';

export interface FilterBarProps {
  /** The fields that can be filtered on (GET /api/v1/entity/filters-fields). */
  fields: readonly FilterFieldInfo[];
  fieldsLoading?: boolean;
  filters: readonly TableFilter[];
  onChange: (filters: TableFilter[]) => void;
  /** Choices for a field's 'in' condition (the account owners of the uuid owner filter). */
  optionsFor?: (field: FilterFieldInfo) => readonly FilterOption[] | undefined;
}

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, minWidth: 0 },
  chipText: {
    maxWidth: '320px',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    display: 'inline-block',
    verticalAlign: 'bottom',
  },
  pending: { outline: `${tokens.strokeWidthThin} dashed ${tokens.colorBrandStroke1}`, borderRadius: tokens.borderRadiusMedium },
  picker: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, width: '260px' },
  options: { display: 'flex', flexDirection: 'column', maxHeight: '300px', overflowY: 'auto' },
  option: { justifyContent: 'flex-start', fontWeight: tokens.fontWeightRegular, minWidth: 0 },
  optionType: {
    marginLeft: 'auto',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    paddingLeft: tokens.spacingHorizontalS,
  },
  empty: { color: tokens.colorNeutralForeground3, padding: tokens.spacingVerticalS },
  add: { whiteSpace: 'nowrap', flexShrink: 0 },
});

type Editing = { key: string; isNew: boolean } | null;

export function FilterBar({ fields, fieldsLoading, filters, onChange, optionsFor }: FilterBarProps) {
  const styles = useStyles();
  const [pickerOpen, setPickerOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const byKey = useMemo(() => new Map(fields.map((f) => [f.key, f])), [fields]);

  const matches = fields.filter((f) => !isHiddenDataType(f.dataType) && f.label.toLowerCase().includes(search.trim().toLowerCase()));

  const pick = (key: string) => {
    setPickerOpen(false);
    setSearch('');
    setEditing({ key, isNew: !filters.some((f) => f.key === key) });
  };

  const save = (filter: TableFilter) => {
    const exists = filters.some((f) => f.key === filter.key);
    onChange(exists ? filters.map((f) => (f.key === filter.key ? filter : f)) : [...filters, filter]);
    setEditing(null);
  };
  const remove = (key: string) => {
    onChange(filters.filter((f) => f.key !== key));
    setEditing(null);
  };

  const fieldFor = (filter: TableFilter): FilterFieldInfo =>
    byKey.get(filter.key) ?? {
      key: filter.key,
      label: filter.details?.label ?? filter.key,
      dataType: filter.details?.dataType ?? 'string',
    };

  const pendingField = editing?.isNew ? byKey.get(editing.key) : undefined;

  return (
    <div className={styles.root} data-testid="filter-bar">
      {filters.map((filter) => {
        const field = fieldFor(filter);
        const open = editing?.key === filter.key && !editing.isNew;
        const options = optionsFor?.(field);
        const label = filterLabel(filter, field.label, options ? (v) => options.find((o) => o.value === v)?.label ?? '' : undefined);
        return (
          <Popover
            key={filter.key}
            open={open}
            onOpenChange={(_, d) => setEditing(d.open ? { key: filter.key, isNew: false } : null)}
            positioning="below-start"
            trapFocus
          >
            <InteractionTag size="small" appearance="brand" data-testid="filter-chip" data-key={filter.key}>
              <PopoverTrigger disableButtonEnhancement>
                <InteractionTagPrimary hasSecondaryAction title={label} data-testid="filter-chip-open">
                  <span className={styles.chipText}>{label}</span>
                </InteractionTagPrimary>
              </PopoverTrigger>
              <InteractionTagSecondary
                aria-label={`Remove filter ${field.label}`}
                onClick={() => remove(filter.key)}
                data-testid="filter-chip-remove"
              />
            </InteractionTag>
            <PopoverSurface aria-label={`Filter ${field.label}`}>
              <FilterEditor
                field={field}
                options={options}
                initial={filter}
                onSave={save}
                onCancel={() => setEditing(null)}
                onRemove={() => remove(filter.key)}
              />
            </PopoverSurface>
          </Popover>
        );
      })}
      {pendingField && (
        <Popover open onOpenChange={(_, d) => !d.open && setEditing(null)} positioning="below-start" trapFocus>
          <PopoverTrigger disableButtonEnhancement>
            <InteractionTag
              size="small"
              appearance="outline"
              className={mergeClasses(styles.pending)}
              data-testid="filter-chip"
              data-key={pendingField.key}
              data-new="true"
            >
              <InteractionTagPrimary data-testid="filter-chip-open">
                <span className={styles.chipText}>{pendingField.label}</span>
              </InteractionTagPrimary>
            </InteractionTag>
          </PopoverTrigger>
          <PopoverSurface aria-label={`New filter ${pendingField.label}`}>
            <FilterEditor field={pendingField} options={optionsFor?.(pendingField)} onSave={save} onCancel={() => setEditing(null)} />
          </PopoverSurface>
        </Popover>
      )}
      <Popover
        open={pickerOpen}
        onOpenChange={(_, d) => {
          setPickerOpen(d.open);
          if (!d.open) setSearch('');
        }}
        positioning="below-start"
        trapFocus
      >
        <PopoverTrigger disableButtonEnhancement>
          <Button appearance="subtle" size="small" icon={<FilterAddRegular />} className={styles.add} data-testid="filter-add">
            Add Filter
          </Button>
        </PopoverTrigger>
        <PopoverSurface aria-label="Choose a field to filter on">
          <div className={styles.picker} data-testid="filter-field-picker">
            <Input
              size="small"
              contentBefore={<SearchRegular />}
              placeholder="Search fields"
              aria-label="Search fields"
              value={search}
              onChange={(_, d) => setSearch(d.value)}
              data-testid="filter-field-search"
            />
            <div className={styles.options} role="listbox" aria-label="Fields">
              {fieldsLoading && <Spinner size="tiny" label="Loading fields" />}
              {!fieldsLoading && matches.length === 0 && <Text className={styles.empty}>No field found</Text>}
              {matches.map((f) => (
                <Button
                  key={f.key}
                  appearance="subtle"
                  className={styles.option}
                  role="option"
                  aria-selected={filters.some((x) => x.key === f.key)}
                  onClick={() => pick(f.key)}
                  data-testid="filter-field-option"
                  data-key={f.key}
                >
                  {f.label}
                  {dataTypeLabel(f.dataType) && (
                    <span className={styles.optionType} data-testid="filter-field-type">
                      {dataTypeLabel(f.dataType)}
                    </span>
                  )}
                </Button>
              ))}
            </div>
          </div>
        </PopoverSurface>
      </Popover>
    </div>
  );
}
