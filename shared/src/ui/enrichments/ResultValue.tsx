// An enrichment result as a cell or a drawer row shows it (spec 000 §2 'Enrichment result display',
// spec 001 §4): no result 'Not executed yet'; preprocessing the interim answer greyed, or '-';
// processing 'Processing...'; error 'Error' (the message as tooltip, and on click — at once in the
// drawer's details — the spec's error display: an 'Error' heading and the message on red); done the value, where a click toggles the
// truncated and the full text.
import { useState } from 'react';
import { Spinner, Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { resultDisplay, type ResultDisplay } from '../../domain';

const useStyles = makeStyles({
  base: {
    display: 'inline-flex', alignItems: 'center', gap: '6px', minWidth: 0, maxWidth: '100%', border: 'none', background: 'none', padding: 0, verticalAlign: 'middle',
    font: 'inherit', color: 'inherit', textAlign: 'left', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap',
  },
  text: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 },
  full: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' },
  value: { cursor: 'pointer' },
  none: { color: tokens.colorNeutralForeground4, fontStyle: 'italic' },
  interim: { color: tokens.colorNeutralForegroundDisabled },
  processing: { color: tokens.colorBrandForeground1 },
  error: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold, cursor: 'pointer' },
  // Spec 000 §2: errors are shown with an 'Error' heading and the message on a red background.
  errorBox: {
    display: 'block', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', textAlign: 'left', font: 'inherit', cursor: 'pointer', width: '100%', boxSizing: 'border-box',
    padding: '6px 8px', borderRadius: tokens.borderRadiusMedium, border: `1px solid ${tokens.colorPaletteRedBorder1}`,
    backgroundColor: tokens.colorPaletteRedBackground1, color: tokens.colorNeutralForeground1,
  },
  errorHeading: { display: 'block', fontWeight: tokens.fontWeightSemibold, color: tokens.colorPaletteRedForeground1 },
});

export function ResultValue({ result, display: given, className, errorOpen = false }: {
  result?: { status?: string | null; value?: unknown; statusMessage?: string | null } | null;
  /** Already computed (takes precedence over result). */
  display?: ResultDisplay;
  className?: string;
  /** An error starts with its message shown (the drawer's details: the place the user looks for why). */
  errorOpen?: boolean;
}) {
  const styles = useStyles();
  const [full, setFull] = useState(false);
  const [errorShown, setErrorShown] = useState(errorOpen);
  const d = given ?? resultDisplay(result);
  const common = { 'data-testid': 'enrichment-result', 'data-status': d.kind } as const;
  switch (d.kind) {
    case 'none':
      return <span className={mergeClasses(styles.base, styles.none, className)} {...common}>{d.text}</span>;
    case 'preprocessing':
      return <span className={mergeClasses(styles.base, styles.interim, className)} title={d.text} {...common}>{d.text}</span>;
    case 'processing':
      return (
        <span className={mergeClasses(styles.base, styles.processing, className)} {...common}>
          <Spinner size="extra-tiny" aria-hidden />
          <span className={styles.text}>{d.text}</span>
        </span>
      );
    case 'error':
      if (!d.message) return <span className={mergeClasses(styles.base, styles.error, className)} {...common}>{d.text}</span>;
      // A click shows why (the status message) where the user looks; another click folds it again.
      return errorShown ? (
        <button
          type="button"
          className={mergeClasses(styles.errorBox, className)}
          aria-expanded
          onClick={(e) => { e.stopPropagation(); setErrorShown(false); }}
          data-no-row-click
          {...common}
        >
          <span className={styles.errorHeading}>{d.text}</span>
          <span data-testid="enrichment-error-message">{d.message}</span>
        </button>
      ) : (
        <Tooltip content={d.message} relationship="description">
          <button
            type="button"
            className={mergeClasses(styles.base, styles.error, className)}
            aria-expanded={false}
            onClick={(e) => { e.stopPropagation(); setErrorShown(true); }}
            data-no-row-click
            {...common}
          >
            {d.text}
          </button>
        </Tooltip>
      );
    default:
      return (
        <button
          type="button"
          className={mergeClasses(styles.base, styles.value, full && styles.full, className)}
          title={full ? undefined : d.text}
          aria-expanded={full}
          onClick={(e) => { e.stopPropagation(); setFull((f) => !f); }}
          data-no-row-click
          {...common}
        >
          <span className={mergeClasses(styles.text, full && styles.full)}>{d.text}</span>
        </button>
      );
  }
}
