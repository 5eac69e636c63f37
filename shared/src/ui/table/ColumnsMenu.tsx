// The columns menu (spec 002 §2): show or hide, reorder and size the columns of a table. The
// caller saves the layout per user (useTableLayout).
import { useEffect, useState } from 'react';
import {
  Button,
  Checkbox,
  Input,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Text,
  Tooltip,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownRegular, ArrowResetRegular, ArrowUpRegular, ColumnTripleEditRegular } from '@fluentui/react-icons';
import { isBlockedNumericKey } from '../../domain';
import { moveColumn, setColumnVisible, setColumnWidth, type ColumnLayout } from './layout';

export interface ColumnsMenuProps {
  /** Labels of the column keys. */
  labels: Readonly<Record<string, string>>;
  layout: readonly ColumnLayout[];
  onChange: (layout: ColumnLayout[]) => void;
  onReset?: () => void;
  saving?: boolean;
}

const useStyles = makeStyles({
  surface: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, width: '340px', maxWidth: '100%' },
  head: { display: 'flex', alignItems: 'center', justifyContent: 'space-between' },
  title: { fontWeight: tokens.fontWeightSemibold },
  list: { display: 'flex', flexDirection: 'column', maxHeight: '360px', overflowY: 'auto', gap: '2px' },
  item: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, minHeight: '32px' },
  check: { flexGrow: 1, flexBasis: 0, minWidth: 0, overflow: 'hidden' },
  width: { width: '76px', minWidth: '76px' },
  hint: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
});

function WidthInput({ value, label, onCommit }: { value: number; label: string; onCommit: (w: number) => void }) {
  const styles = useStyles();
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const commit = () => {
    const n = Number(text);
    if (text.trim() === '' || !Number.isFinite(n)) setText(String(value));
    else if (n !== value) onCommit(n);
    else setText(String(value));
  };
  return (
    <Input
      className={styles.width}
      size="small"
      type="number"
      min={40}
      max={2000}
      contentAfter={<span className={styles.hint}>px</span>}
      aria-label={`Width of ${label}`}
      value={text}
      onChange={(_, d) => setText(d.value)}
      onKeyDown={(e) => {
        if (isBlockedNumericKey(e.key) || e.key === '.') e.preventDefault();
        else if (e.key === 'Enter') commit();
      }}
      onBlur={commit}
      data-testid="columns-menu-width"
    />
  );
}

export function ColumnsMenu({ labels, layout, onChange, onReset, saving }: ColumnsMenuProps) {
  const styles = useStyles();
  const visibleCount = layout.filter((c) => c.visible).length;
  return (
    <Popover positioning="below-end" trapFocus>
      <PopoverTrigger disableButtonEnhancement>
        <Button appearance="subtle" size="small" icon={<ColumnTripleEditRegular />} data-testid="columns-menu-button">
          Columns
        </Button>
      </PopoverTrigger>
      <PopoverSurface aria-label="Columns">
        <div className={styles.surface} data-testid="columns-menu">
          <div className={styles.head}>
            <Text className={styles.title}>Columns</Text>
            {saving && (
              <span className={styles.hint} data-testid="columns-menu-saving">
                Saving…
              </span>
            )}
            {onReset && (
              <Button appearance="subtle" size="small" icon={<ArrowResetRegular />} onClick={onReset} data-testid="columns-menu-reset">
                Reset
              </Button>
            )}
          </div>
          <div className={styles.list}>
            {layout.map((c, i) => {
              const label = labels[c.key] ?? c.key;
              return (
                <div
                  className={styles.item}
                  key={c.key}
                  data-testid="columns-menu-item"
                  data-key={c.key}
                  data-visible={c.visible ? 'true' : 'false'}
                >
                  <div className={styles.check}>
                    <Checkbox
                      label={label}
                      checked={c.visible}
                      disabled={c.visible && visibleCount <= 1}
                      onChange={(_, d) => onChange(setColumnVisible(layout, c.key, d.checked === true))}
                      data-testid="columns-menu-visible"
                    />
                  </div>
                  <Tooltip content={`Move ${label} up`} relationship="label">
                    <Button
                      appearance="subtle"
                      size="small"
                      icon={<ArrowUpRegular />}
                      disabled={i === 0}
                      onClick={() => onChange(moveColumn(layout, c.key, -1))}
                      data-testid="columns-menu-up"
                    />
                  </Tooltip>
                  <Tooltip content={`Move ${label} down`} relationship="label">
                    <Button
                      appearance="subtle"
                      size="small"
                      icon={<ArrowDownRegular />}
                      disabled={i === layout.length - 1}
                      onClick={() => onChange(moveColumn(layout, c.key, 1))}
                      data-testid="columns-menu-down"
                    />
                  </Tooltip>
                  <WidthInput value={c.width} label={label} onCommit={(w) => onChange(setColumnWidth(layout, c.key, w))} />
                </div>
              );
            })}
          </div>
        </div>
      </PopoverSurface>
    </Popover>
  );
}
