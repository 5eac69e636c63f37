// The one renderer of a value (domain/values.ts formats it): text and numbers as they read, dates
// in a <time>, URLs and email addresses as links (opening outside the app), lists as chips, several
// fields as labelled fields. `inline` keeps to one line (table cells, a collapsed drawer row);
// `block` lays labelled fields out one per line (a drawer row's full view). With `links` false,
// URLs read as text: a value shown inside a button (the collapsed drawer row) holds no links.
import { Fragment } from 'react';
import { Link, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { FormattedValue } from '../../domain';

const useStyles = makeStyles({
  inline: { display: 'inline', minWidth: 0 },
  number: { fontVariantNumeric: 'tabular-nums' },
  chips: { display: 'inline-flex', flexWrap: 'wrap', gap: '4px', verticalAlign: 'middle', maxWidth: '100%' },
  chipsInline: { flexWrap: 'nowrap', overflow: 'hidden' },
  // In the full view a long chip wraps instead of being cut.
  chipBlock: { whiteSpace: 'normal', overflowWrap: 'anywhere' },
  chip: {
    display: 'inline-block',
    maxWidth: '100%',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    boxSizing: 'border-box',
    padding: '0 6px',
    lineHeight: '18px',
    fontSize: tokens.fontSizeBase200,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  label: { color: tokens.colorNeutralForeground3 },
  sep: { color: tokens.colorNeutralForeground4, padding: '0 4px' },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'minmax(70px, max-content) 1fr',
    columnGap: tokens.spacingHorizontalS,
    rowGap: '2px',
    alignItems: 'baseline',
  },
  gridLabel: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200, overflowWrap: 'anywhere' },
  gridValue: { minWidth: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' },
  linkText: { color: tokens.colorBrandForeground1 },
});

export interface ValueViewProps {
  value: FormattedValue;
  layout?: 'inline' | 'block';
  /** False inside a button (no nested interactive elements): URLs read as text. */
  links?: boolean;
  className?: string;
}

export function ValueView({ value, layout = 'inline', links = true, className }: ValueViewProps) {
  const styles = useStyles();
  if (value.kind === 'fields' && layout === 'block') {
    return (
      <span className={mergeClasses(styles.grid, className)} data-testid="value-fields" data-kind="fields">
        {value.fields.map((f) => (
          <Fragment key={f.key}>
            <span className={styles.gridLabel} data-testid="value-field-label">
              {f.label}
            </span>
            <span className={styles.gridValue} data-testid="value-field-value">
              <ValueView value={f.value} layout="block" links={links} />
            </span>
          </Fragment>
        ))}
      </span>
    );
  }
  return (
    <span className={mergeClasses(styles.inline, className)} data-kind={value.kind}>
      <Part value={value} layout={layout} links={links} />
    </span>
  );
}

function Part({ value, layout, links }: { value: FormattedValue; layout: 'inline' | 'block'; links: boolean }) {
  const styles = useStyles();
  switch (value.kind) {
    case 'empty':
      return null;
    case 'number':
      return <span className={styles.number}>{value.text}</span>;
    case 'date':
      return <time dateTime={value.iso}>{value.text}</time>;
    case 'url':
    case 'email':
      return links ? (
        <Link
          href={value.href}
          inline
          target={value.kind === 'url' ? '_blank' : undefined}
          rel="noopener noreferrer"
          onClick={(e) => e.stopPropagation()}
          data-no-row-click
          data-testid="value-link"
        >
          {value.text}
        </Link>
      ) : (
        <span className={styles.linkText}>{value.text}</span>
      );
    case 'list':
      return (
        <span className={mergeClasses(styles.chips, layout === 'inline' && styles.chipsInline)} data-testid="value-chips">
          {value.items.map((item, i) => (
            <span key={i} className={mergeClasses(styles.chip, layout === 'block' && styles.chipBlock)} data-testid="value-chip">
              <Part value={item} layout="inline" links={links} />
            </span>
          ))}
        </span>
      );
    case 'fields':
      return (
        <>
          {value.fields.map((f, i) => (
            <Fragment key={f.key}>
              {i > 0 && (
                <span className={styles.sep} aria-hidden>
                  ·
                </span>
              )}
              <span className={styles.label}>{f.label}: </span>
              <Part value={f.value} layout="inline" links={links} />
            </Fragment>
          ))}
        </>
      );
    default:
      return <>{value.text}</>;
  }
}
