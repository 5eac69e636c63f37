// The enrichment colour (spec 001 §2 'Enrichment editor'): one of rose, orange, amber, lime, green,
// teal, sky, indigo, violet, picked from swatches (a radio group).
import { Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { CheckmarkRegular } from '@fluentui/react-icons';
import { ENRICHMENT_COLORS, ENRICHMENT_COLOR_HEX, type EnrichmentColor } from '../../domain';

const useStyles = makeStyles({
  root: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  swatch: {
    width: '24px',
    height: '24px',
    borderRadius: '50%',
    border: '2px solid transparent',
    padding: 0,
    cursor: 'pointer',
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    color: '#fff',
    fontSize: '14px',
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  selected: { boxShadow: `0 0 0 2px ${tokens.colorNeutralBackground1}, 0 0 0 4px ${tokens.colorNeutralForeground1}` },
});

export function ColorPalette({
  value,
  onChange,
  disabled,
}: {
  value: string | null | undefined;
  onChange: (c: EnrichmentColor) => void;
  disabled?: boolean;
}) {
  const styles = useStyles();
  return (
    <div className={styles.root} role="radiogroup" aria-label="Colour" data-testid="color-palette">
      {ENRICHMENT_COLORS.map((c) => (
        <Tooltip key={c} content={c} relationship="label">
          <button
            type="button"
            role="radio"
            aria-checked={value === c}
            disabled={disabled}
            className={mergeClasses(styles.swatch, value === c && styles.selected)}
            style={{ backgroundColor: ENRICHMENT_COLOR_HEX[c] }}
            onClick={() => onChange(c)}
            data-testid="color-swatch"
            data-color={c}
          >
            {value === c && <CheckmarkRegular aria-hidden />}
          </button>
        </Tooltip>
      ))}
    </div>
  );
}

/** A small dot in an enrichment's colour (tables, menus). */
export function ColorDot({ color }: { color: string | null | undefined }) {
  const hex = color && color in ENRICHMENT_COLOR_HEX ? ENRICHMENT_COLOR_HEX[color as EnrichmentColor] : tokens.colorNeutralStroke1;
  return (
    <span
      aria-hidden
      style={{ display: 'inline-block', width: 10, height: 10, borderRadius: '50%', backgroundColor: hex, flexShrink: 0 }}
    />
  );
}
