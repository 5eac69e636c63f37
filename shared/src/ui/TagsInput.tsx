// Tags input of spec 000 §2 'Other shared UI': typing splits on comma, space, Enter or Tab; pasted
// text is split on whitespace and commas; Backspace on an empty input pulls the last tag back into
// the input for editing. Entries can be capped (the invite modal caps them at the free seats).
import { useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { Tag, TagGroup, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { isTagSplitKey, pullLastTag, splitTags } from '../domain';

/** Appends tags up to `max` entries; returns the new list and what did not fit. */
export function addTagsCapped(tags: readonly string[], incoming: readonly string[], max?: number): { tags: string[]; rejected: string[] } {
  const room = max === undefined ? incoming.length : Math.max(0, max - tags.length);
  return { tags: [...tags, ...incoming.slice(0, room)], rejected: incoming.slice(room) };
}

export interface TagsInputProps {
  value: readonly string[];
  onChange: (tags: string[]) => void;
  /** Controlled text of the input (optional). */
  inputValue?: string;
  onInputChange?: (text: string) => void;
  /** At most this many tags; at 0 the input is disabled. */
  maxTags?: number;
  disabled?: boolean;
  placeholder?: string;
  /** Tags failing this check are shown in red. */
  isValid?: (tag: string) => boolean;
  /** Called with the entries dropped because the cap was reached. */
  onRejected?: (rejected: string[]) => void;
  id?: string;
  'aria-label'?: string;
  'aria-describedby'?: string;
  'data-testid'?: string;
}

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    minHeight: '32px',
    boxSizing: 'border-box',
    padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`,
    backgroundColor: tokens.colorNeutralBackground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    borderBottomColor: tokens.colorNeutralStrokeAccessible,
    borderRadius: tokens.borderRadiusMedium,
    cursor: 'text',
    ':focus-within': {
      borderBottomColor: tokens.colorCompoundBrandStroke,
      outlineWidth: '1px',
      outlineStyle: 'solid',
      outlineColor: tokens.colorCompoundBrandStroke,
      outlineOffset: '-1px',
    },
  },
  disabled: {
    cursor: 'not-allowed',
    backgroundColor: tokens.colorNeutralBackgroundDisabled,
    borderTopColor: tokens.colorNeutralStrokeDisabled,
    borderRightColor: tokens.colorNeutralStrokeDisabled,
    borderBottomColor: tokens.colorNeutralStrokeDisabled,
    borderLeftColor: tokens.colorNeutralStrokeDisabled,
  },
  tags: { display: 'contents' },
  invalid: {
    backgroundColor: tokens.colorPaletteRedBackground1,
    color: tokens.colorPaletteRedForeground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorPaletteRedBorder1}`,
  },
  input: {
    flexGrow: 1,
    minWidth: '120px',
    border: 'none',
    outline: 'none',
    backgroundColor: 'transparent',
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
    color: tokens.colorNeutralForeground1,
    padding: `${tokens.spacingVerticalXS} 0`,
    ':disabled': { cursor: 'not-allowed', color: tokens.colorNeutralForegroundDisabled },
  },
});

export function TagsInput(props: TagsInputProps) {
  const { value, onChange, maxTags, isValid, onRejected } = props;
  const styles = useStyles();
  const inputRef = useRef<HTMLInputElement>(null);
  const [ownText, setOwnText] = useState('');
  const text = props.inputValue ?? ownText;
  const setText = (t: string) => {
    if (props.inputValue === undefined) setOwnText(t);
    props.onInputChange?.(t);
  };
  const disabled = !!props.disabled || maxTags === 0;

  const commit = (incoming: string[], rest: string) => {
    if (incoming.length > 0) {
      const result = addTagsCapped(value, incoming, maxTags);
      if (result.tags.length !== value.length) onChange(result.tags);
      if (result.rejected.length > 0) onRejected?.(result.rejected);
    }
    setText(rest);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (e.key === 'Backspace' && text === '' && value.length > 0) {
      e.preventDefault();
      const pulled = pullLastTag(value);
      onChange(pulled.tags);
      setText(pulled.input);
      return;
    }
    if (!isTagSplitKey(e.key)) return;
    const pending = splitTags(text);
    if (pending.length === 0) {
      // Nothing to add: Tab and Enter keep their usual meaning; a leading comma or space is swallowed.
      if (e.key === ',' || e.key === ' ') e.preventDefault();
      return;
    }
    e.preventDefault();
    commit(pending, '');
  };

  const onInputChange = (next: string) => {
    // Separators that arrive without a key event (mobile keyboards, autofill): split on them too.
    if (/[\s,]/.test(next)) {
      const parts = next.split(/[\s,]+/);
      const last = parts.pop() ?? '';
      commit(splitTags(parts.join(' ')), last);
      return;
    }
    setText(next);
  };

  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    const pasted = e.clipboardData.getData('text');
    const tokens = splitTags(pasted);
    e.preventDefault();
    if (tokens.length > 0) commit(tokens, text);
  };

  const onBlur = () => {
    const pending = splitTags(text);
    if (pending.length > 0) commit(pending, '');
  };

  return (
    <div
      className={mergeClasses(styles.root, disabled && styles.disabled)}
      data-testid={props['data-testid'] ?? 'tags-input'}
      onClick={() => inputRef.current?.focus()}
    >
      {value.length > 0 && (
        <TagGroup
          className={styles.tags}
          size="small"
          aria-label="Entries"
          disabled={props.disabled}
          onDismiss={(_, data) => {
            const index = Number(data.value);
            onChange(value.filter((_, i) => i !== index));
            inputRef.current?.focus();
          }}
        >
          {value.map((tag, i) => {
            const invalid = isValid ? !isValid(tag) : false;
            return (
              <Tag
                key={`${i}-${tag}`}
                value={String(i)}
                dismissible
                dismissIcon={{ 'aria-label': `Remove ${tag}` }}
                className={invalid ? styles.invalid : undefined}
                appearance={invalid ? 'outline' : 'brand'}
                data-testid="tags-input-tag"
                data-invalid={invalid ? 'true' : undefined}
                title={invalid ? 'Not a valid entry' : undefined}
              >
                {tag}
              </Tag>
            );
          })}
        </TagGroup>
      )}
      <input
        ref={inputRef}
        id={props.id}
        className={styles.input}
        value={text}
        disabled={disabled}
        placeholder={value.length === 0 ? props.placeholder : undefined}
        aria-label={props['aria-label']}
        aria-describedby={props['aria-describedby']}
        autoComplete="off"
        spellCheck={false}
        data-testid="tags-input-field"
        onChange={(e) => onInputChange(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        onBlur={onBlur}
      />
    </div>
  );
}
