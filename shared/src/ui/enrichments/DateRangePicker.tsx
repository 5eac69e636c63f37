// The date-range filter (spec 000 §2 'Date-range filter', spec 001 §2 'Date-range picker'): two
// dates are needed, the week starts on Monday, OK is disabled with one date and the hint says
// 'Please select second date'. Dates are local calendar days as YYYY-MM-DD.
import { useState } from 'react';
import { Button, Popover, PopoverSurface, PopoverTrigger, Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { CalendarRegular, ChevronLeftRegular, ChevronRightRegular } from '@fluentui/react-icons';

export const SECOND_DATE_HINT = 'Please select second date';
export const WEEKDAYS_FROM_MONDAY = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'] as const;

export interface DateRange {
  from: string;
  to: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
export const isoDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The weeks of a month, Monday first; days outside the month are null. */
export function monthGrid(year: number, month: number): (string | null)[][] {
  const first = new Date(year, month, 1);
  const lead = (first.getDay() + 6) % 7; // Monday = 0
  const days = new Date(year, month + 1, 0).getDate();
  const cells: (string | null)[] = [...Array<null>(lead).fill(null)];
  for (let d = 1; d <= days; d++) cells.push(isoDay(new Date(year, month, d)));
  while (cells.length % 7) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/** Picking: the first click starts a range, the second ends it (in either order). */
export function pickDay(current: { from: string | null; to: string | null }, day: string): { from: string | null; to: string | null } {
  if (!current.from || current.to) return { from: day, to: null };
  return day < current.from ? { from: day, to: current.from } : { from: current.from, to: day };
}

const useStyles = makeStyles({
  surface: { padding: tokens.spacingHorizontalM, width: '260px' },
  head: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', marginBottom: tokens.spacingVerticalS },
  grid: { borderCollapse: 'collapse', width: '100%', tableLayout: 'fixed' },
  th: { fontSize: tokens.fontSizeBase100, color: tokens.colorNeutralForeground3, fontWeight: tokens.fontWeightRegular, padding: '2px 0' },
  day: {
    width: '32px',
    height: '30px',
    border: 'none',
    borderRadius: tokens.borderRadiusMedium,
    background: 'none',
    cursor: 'pointer',
    font: 'inherit',
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground1,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  inRange: { backgroundColor: tokens.colorBrandBackground2 },
  edge: {
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    ':hover': { backgroundColor: tokens.colorBrandBackgroundHover },
  },
  footer: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, marginTop: tokens.spacingVerticalS },
  hint: { flexGrow: 1, color: tokens.colorPaletteDarkOrangeForeground1, fontSize: tokens.fontSizeBase200 },
});

export function DateRangePicker({
  label,
  value,
  onChange,
}: {
  label: string;
  value: DateRange | null;
  onChange: (r: DateRange | null) => void;
}) {
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<{ from: string | null; to: string | null }>({ from: value?.from ?? null, to: value?.to ?? null });
  const start = value?.from ? new Date(`${value.from}T00:00:00`) : new Date();
  const [view, setView] = useState({ y: start.getFullYear(), m: start.getMonth() });

  const onOpen = (o: boolean) => {
    setOpen(o);
    if (o) setDraft({ from: value?.from ?? null, to: value?.to ?? null });
  };
  const move = (delta: number) =>
    setView((v) => {
      const d = new Date(v.y, v.m + delta, 1);
      return { y: d.getFullYear(), m: d.getMonth() };
    });
  const monthName = new Date(view.y, view.m, 1).toLocaleString('en-US', { month: 'long', year: 'numeric' });
  const oneDate = !!draft.from && !draft.to;
  const text = value ? `${label}: ${value.from} – ${value.to}` : label;

  return (
    <Popover open={open} onOpenChange={(_, d) => onOpen(d.open)} positioning="below-start" trapFocus>
      <PopoverTrigger disableButtonEnhancement>
        <Button size="small" appearance={value ? 'primary' : 'outline'} icon={<CalendarRegular />} data-testid="date-range-trigger">
          {text}
        </Button>
      </PopoverTrigger>
      <PopoverSurface className={styles.surface} data-testid="date-range-picker" aria-label={label}>
        <div className={styles.head}>
          <Button size="small" appearance="subtle" icon={<ChevronLeftRegular />} aria-label="Previous month" onClick={() => move(-1)} />
          <Text weight="semibold" data-testid="date-range-month">
            {monthName}
          </Text>
          <Button size="small" appearance="subtle" icon={<ChevronRightRegular />} aria-label="Next month" onClick={() => move(1)} />
        </div>
        <table className={styles.grid} role="grid">
          <thead>
            <tr>
              {WEEKDAYS_FROM_MONDAY.map((d) => (
                <th key={d} className={styles.th} scope="col" data-testid="date-range-weekday">
                  {d}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {monthGrid(view.y, view.m).map((week, i) => (
              <tr key={i}>
                {week.map((day, j) => {
                  if (!day) return <td key={j} />;
                  const edge = day === draft.from || day === draft.to;
                  const inRange = !!draft.from && !!draft.to && day > draft.from && day < draft.to;
                  return (
                    <td key={j} style={{ textAlign: 'center', padding: 1 }}>
                      <button
                        type="button"
                        className={mergeClasses(styles.day, inRange && styles.inRange, edge && styles.edge)}
                        aria-pressed={edge}
                        onClick={() => setDraft((d) => pickDay(d, day))}
                        data-testid="date-range-day"
                        data-day={day}
                      >
                        {Number(day.slice(8))}
                      </button>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
        <div className={styles.footer}>
          <span className={styles.hint} data-testid="date-range-hint">
            {oneDate ? SECOND_DATE_HINT : ''}
          </span>
          <Button
            size="small"
            appearance="subtle"
            onClick={() => {
              onChange(null);
              setOpen(false);
            }}
            data-testid="date-range-clear"
          >
            Clear
          </Button>
          <Button
            size="small"
            appearance="primary"
            disabled={!draft.from || !draft.to}
            onClick={() => {
              if (draft.from && draft.to) {
                onChange({ from: draft.from, to: draft.to });
                setOpen(false);
              }
            }}
            data-testid="date-range-ok"
          >
            OK
          </Button>
        </div>
      </PopoverSurface>
    </Popover>
  );
}
