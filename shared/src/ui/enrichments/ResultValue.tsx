// An enrichment result as a cell or a drawer row shows it (spec 000 §2 'Enrichment result display',
// spec 001 §4): no result 'Not executed yet'; preprocessing the interim answer greyed, or '-';
// processing 'Processing...'; error 'Error' (the message as tooltip, and on click — at once in the
// drawer's details — the spec's error display: an 'Error' heading and the message on red); done the
// value, rendered from its response schema by the one value renderer (ValueView: a number, a link,
// chips, labelled fields), where a click toggles the truncated and the full view; the full view
// offers 'Show raw' (the stored JSON). A value that is one link is that link.
import { useState } from 'react';
import { Button, Spinner, Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { rawValueText, resultDisplay, type ResultDisplay, type ValueSchemaItem } from '../../domain';
import { ValueView } from '../values/ValueView';

const useStyles = makeStyles({
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: '6px',
    minWidth: 0,
    maxWidth: '100%',
    border: 'none',
    background: 'none',
    padding: 0,
    verticalAlign: 'middle',
    font: 'inherit',
    color: 'inherit',
    textAlign: 'left',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
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
    display: 'block',
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    textAlign: 'left',
    font: 'inherit',
    cursor: 'pointer',
    width: '100%',
    boxSizing: 'border-box',
    padding: '6px 8px',
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorPaletteRedBorder1}`,
    backgroundColor: tokens.colorPaletteRedBackground1,
    color: tokens.colorNeutralForeground1,
  },
  errorHeading: { display: 'block', fontWeight: tokens.fontWeightSemibold, color: tokens.colorPaletteRedForeground1 },
  fullBox: {
    display: 'flex',
    flexDirection: 'column',
    gap: '4px',
    minWidth: 0,
    width: '100%',
    overflowWrap: 'anywhere',
    whiteSpace: 'normal',
  },
  fullActions: { display: 'flex', gap: '2px', marginLeft: '-6px' },
  raw: {
    display: 'block',
    margin: 0,
    padding: '6px 8px',
    maxHeight: '240px',
    overflow: 'auto',
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
  },
});

export function ResultValue({
  result,
  schema,
  display: given,
  className,
  errorOpen = false,
}: {
  result?: { status?: string | null; value?: unknown; statusMessage?: string | null } | null;
  /** The enrichment's response schema (the fields' order, labels and types). */
  schema?: readonly ValueSchemaItem[] | null;
  /** Already computed (takes precedence over result). */
  display?: ResultDisplay;
  className?: string;
  /** An error starts with its message shown (the drawer's details: the place the user looks for why). */
  errorOpen?: boolean;
}) {
  const styles = useStyles();
  const [full, setFull] = useState(false);
  const [rawShown, setRawShown] = useState(false);
  const [errorShown, setErrorShown] = useState(errorOpen);
  const d = given ?? resultDisplay(result, schema);
  const common = { 'data-testid': 'enrichment-result', 'data-status': d.kind } as const;
  switch (d.kind) {
    case 'none':
      return (
        <span className={mergeClasses(styles.base, styles.none, className)} {...common}>
          {d.text}
        </span>
      );
    case 'preprocessing':
      return (
        <span className={mergeClasses(styles.base, styles.interim, className)} title={d.text} {...common}>
          <span className={styles.text}>{d.formatted ? <ValueView value={d.formatted} links={false} /> : d.text}</span>
        </span>
      );
    case 'processing':
      return (
        <span className={mergeClasses(styles.base, styles.processing, className)} {...common}>
          <Spinner size="extra-tiny" aria-hidden />
          <span className={styles.text}>{d.text}</span>
        </span>
      );
    case 'error':
      if (!d.message)
        return (
          <span className={mergeClasses(styles.base, styles.error, className)} {...common}>
            {d.text}
          </span>
        );
      // A click shows why (the status message) where the user looks; another click folds it again.
      return errorShown ? (
        <button
          type="button"
          className={mergeClasses(styles.errorBox, className)}
          aria-expanded
          onClick={(e) => {
            e.stopPropagation();
            setErrorShown(false);
          }}
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
            onClick={(e) => {
              e.stopPropagation();
              setErrorShown(true);
            }}
            data-no-row-click
            {...common}
          >
            {d.text}
          </button>
        </Tooltip>
      );
    default: {
      const formatted = d.formatted ?? { kind: 'text' as const, text: d.text };
      // One link: the link itself (a button cannot hold it).
      if (formatted.kind === 'url' || formatted.kind === 'email') {
        return (
          <span className={mergeClasses(styles.base, className)} title={d.text} {...common}>
            <span className={styles.text}>
              <ValueView value={formatted} />
            </span>
          </span>
        );
      }
      if (full) {
        return (
          <span className={mergeClasses(styles.fullBox, className)} data-expanded="true" {...common}>
            <ValueView value={formatted} layout="block" />
            <span className={styles.fullActions}>
              <Button
                size="small"
                appearance="transparent"
                onClick={(e) => {
                  e.stopPropagation();
                  setFull(false);
                  setRawShown(false);
                }}
                data-no-row-click
                data-testid="enrichment-show-less"
              >
                Show less
              </Button>
              {d.raw !== undefined && (
                <Button
                  size="small"
                  appearance="transparent"
                  aria-expanded={rawShown}
                  onClick={(e) => {
                    e.stopPropagation();
                    setRawShown((r) => !r);
                  }}
                  data-no-row-click
                  data-testid="enrichment-show-raw"
                >
                  {rawShown ? 'Hide raw' : 'Show raw'}
                </Button>
              )}
            </span>
            {rawShown && (
              <code className={styles.raw} data-testid="enrichment-raw">
                {rawValueText(d.raw)}
              </code>
            )}
          </span>
        );
      }
      return (
        <button
          type="button"
          className={mergeClasses(styles.base, styles.value, className)}
          title={d.text}
          aria-expanded={false}
          onClick={(e) => {
            e.stopPropagation();
            setFull(true);
          }}
          data-no-row-click
          {...common}
        >
          <span className={styles.text}>
            <ValueView value={formatted} links={false} />
          </span>
        </button>
      );
    }
  }
}
