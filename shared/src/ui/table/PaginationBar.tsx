// Pagination bar of spec 000 §2 'Other shared UI': first, previous, next and last buttons,
// 'Page X of Y', a rows-per-page select and a go-to-page box. Zero-based internally, shown as
// page+1 (spec 001 §9); the go-to-page box clamps to the pages that exist (spec 001 §5).
import { useEffect, useState, type KeyboardEvent } from 'react';
import { Button, Input, Select, Text, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { ChevronDoubleLeftRegular, ChevronDoubleRightRegular, ChevronLeftRegular, ChevronRightRegular } from '@fluentui/react-icons';
import { DEFAULT_PAGE_SIZE, ROWS_PER_PAGE_CHOICES, clampPageIndex, isBlockedNumericKey } from '../../domain';

/** The default 10 followed by the spec's choices: 20, 40, 60, 80, 100, 250, 500, 750, 1000. */
export const PAGE_SIZE_OPTIONS: readonly number[] = [DEFAULT_PAGE_SIZE, ...ROWS_PER_PAGE_CHOICES];

export interface PaginationBarProps {
  /** Zero-based. */
  pageIndex: number;
  pageSize: number;
  /** At least 1. */
  totalPages: number;
  totalRecords?: number;
  /** The total (and so the page count) is an estimate: 'about 37,700 records', 'Page 3 of about 755'. */
  totalIsEstimate?: boolean;
  onPageChange: (pageIndex: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  disabled?: boolean;
}

const useStyles = makeStyles({
  root: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    backgroundColor: tokens.colorNeutralBackground1,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  group: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  spacer: { flexGrow: 1 },
  muted: { color: tokens.colorNeutralForeground3 },
  pageSize: { width: '92px', minWidth: '92px' },
  goTo: { width: '72px', minWidth: '72px' },
  label: { whiteSpace: 'nowrap' },
});

export function PaginationBar(props: PaginationBarProps) {
  const { pageIndex, pageSize, onPageChange, onPageSizeChange, disabled } = props;
  const styles = useStyles();
  const totalPages = Math.max(1, props.totalPages);
  const current = clampPageIndex(pageIndex, totalPages);
  const [goTo, setGoTo] = useState(String(current + 1));
  useEffect(() => setGoTo(String(current + 1)), [current]);

  const atFirst = current <= 0;
  const atLast = current >= totalPages - 1;
  const go = (i: number) => {
    const next = clampPageIndex(i, totalPages);
    if (next !== current) onPageChange(next);
  };

  /** The box holds the shown (one-based) page; it is clamped to 1..totalPages, then sent zero-based. */
  const commitGoTo = () => {
    const n = Number(goTo);
    const next = goTo.trim() === '' || !Number.isFinite(n) ? current : clampPageIndex(n - 1, totalPages);
    setGoTo(String(next + 1));
    if (next !== current) onPageChange(next);
  };

  const onGoToKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (isBlockedNumericKey(e.key) || e.key === '.' || e.key === ',') e.preventDefault();
    else if (e.key === 'Enter') commitGoTo();
  };

  const sizes = PAGE_SIZE_OPTIONS.includes(pageSize) ? PAGE_SIZE_OPTIONS : [...PAGE_SIZE_OPTIONS, pageSize].sort((a, b) => a - b);

  return (
    <nav className={styles.root} aria-label="Pagination" data-testid="pagination-bar">
      <div className={styles.group}>
        <Text className={styles.label} id="pagination-page-size-label">
          Rows per page
        </Text>
        <Select
          className={styles.pageSize}
          size="small"
          value={String(pageSize)}
          disabled={disabled}
          aria-labelledby="pagination-page-size-label"
          onChange={(_, d) => onPageSizeChange(Number(d.value))}
          data-testid="pagination-page-size"
        >
          {sizes.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
      </div>
      {props.totalRecords !== undefined && (
        <Text className={styles.muted} data-testid="pagination-total">
          {props.totalIsEstimate ? 'about ' : ''}
          {props.totalRecords.toLocaleString('en-US')} {props.totalRecords === 1 ? 'record' : 'records'}
        </Text>
      )}
      <div className={styles.spacer} />
      <div className={styles.group}>
        <Tooltip content="First page" relationship="label">
          <Button
            appearance="subtle"
            size="small"
            icon={<ChevronDoubleLeftRegular />}
            disabled={disabled || atFirst}
            onClick={() => go(0)}
            data-testid="pagination-first"
          />
        </Tooltip>
        <Tooltip content="Previous page" relationship="label">
          <Button
            appearance="subtle"
            size="small"
            icon={<ChevronLeftRegular />}
            disabled={disabled || atFirst}
            onClick={() => go(current - 1)}
            data-testid="pagination-previous"
          />
        </Tooltip>
        {/* The 'Page x of y' label (spec 001 §1 enrichments table; every paged table). */}
        <Text className={styles.label} data-testid="pagination-label" aria-live="polite">
          Page {(current + 1).toLocaleString('en-US')} of {props.totalIsEstimate ? 'about ' : ''}
          {totalPages.toLocaleString('en-US')}
        </Text>
        <Tooltip content="Next page" relationship="label">
          <Button
            appearance="subtle"
            size="small"
            icon={<ChevronRightRegular />}
            disabled={disabled || atLast}
            onClick={() => go(current + 1)}
            data-testid="pagination-next"
          />
        </Tooltip>
        <Tooltip content="Last page" relationship="label">
          <Button
            appearance="subtle"
            size="small"
            icon={<ChevronDoubleRightRegular />}
            disabled={disabled || atLast}
            onClick={() => go(totalPages - 1)}
            data-testid="pagination-last"
          />
        </Tooltip>
      </div>
      <div className={styles.group}>
        <Text className={styles.label} id="pagination-goto-label">
          Go to page
        </Text>
        <Input
          className={styles.goTo}
          size="small"
          type="number"
          inputMode="numeric"
          min={1}
          max={totalPages}
          value={goTo}
          disabled={disabled}
          aria-labelledby="pagination-goto-label"
          onChange={(_, d) => setGoTo(d.value)}
          onKeyDown={onGoToKey}
          onBlur={commitGoTo}
          data-testid="pagination-goto"
        />
      </div>
    </nav>
  );
}
