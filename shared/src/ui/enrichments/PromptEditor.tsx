// The objective prompt box (spec 001 §2 'Enrichment editor', §3 'Rich prompt nodes', §9): a rich
// editor whose '/' command menu inserts field boxes (a field of the record) and enrich boxes
// (another enrichment's result). Boxes are atoms in the text (contenteditable=false spans); a click
// on one shows its options (autorun, required, and the path of an enrich box). The value is a list
// of nodes: text, field-box {id, fieldId, autorun, required}, enrich-box {id, enrichmentId, path,
// autorun, required}; ids are 12 characters and autorun/required start false.
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type Dispatch,
  type KeyboardEvent,
  type RefObject,
  type SetStateAction,
} from 'react';
import { Button, Checkbox, Input, Text, makeStyles, mergeClasses, shorthands, tokens } from '@fluentui/react-components';
import { DeleteRegular, DocumentTextRegular, SparkleRegular } from '@fluentui/react-icons';
import {
  DEFAULT_ENRICH_BOX_PATH,
  newEnrichBox,
  newFieldBox,
  normalizePrompt,
  slashQuery,
  type EnrichBoxNode,
  type FieldBoxNode,
  type PromptNode,
} from '../../domain';

export interface PromptFieldOption {
  id: string;
  label: string;
}
export interface PromptEnrichmentOption {
  id: string;
  name: string;
}

export interface PromptEditorProps {
  value: readonly PromptNode[];
  onChange: (nodes: PromptNode[]) => void;
  fields: readonly PromptFieldOption[];
  enrichments: readonly PromptEnrichmentOption[];
  placeholder?: string;
  disabled?: boolean;
  invalid?: boolean;
  'aria-label'?: string;
}

type BoxNode = FieldBoxNode | EnrichBoxNode;
type MenuItem = { kind: 'field'; id: string; label: string } | { kind: 'enrichment'; id: string; label: string };

const useStyles = makeStyles({
  wrap: { position: 'relative' },
  editor: {
    minHeight: '96px',
    maxHeight: '280px',
    overflowY: 'auto',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    borderBottomColor: tokens.colorNeutralStrokeAccessible,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    lineHeight: '24px',
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    outline: 'none',
    ':focus-within': { borderBottomColor: tokens.colorCompoundBrandStroke, boxShadow: `inset 0 -1px 0 ${tokens.colorCompoundBrandStroke}` },
  },
  invalid: { ...shorthands.borderColor(tokens.colorPaletteRedBorder2) },
  disabled: { backgroundColor: tokens.colorNeutralBackgroundDisabled, color: tokens.colorNeutralForegroundDisabled },
  placeholder: {
    position: 'absolute',
    top: tokens.spacingVerticalS,
    left: tokens.spacingHorizontalM,
    right: tokens.spacingHorizontalM,
    lineHeight: '24px',
    color: tokens.colorNeutralForeground4,
    pointerEvents: 'none',
  },
  menu: {
    position: 'absolute',
    left: 0,
    top: '100%',
    marginTop: '4px',
    zIndex: 10,
    minWidth: '260px',
    maxWidth: '100%',
    maxHeight: '260px',
    overflowY: 'auto',
    padding: '4px',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: tokens.shadow16,
  },
  group: {
    padding: '4px 8px',
    fontSize: tokens.fontSizeBase100,
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground3,
    textTransform: 'uppercase',
  },
  option: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: '6px 8px',
    cursor: 'pointer',
    borderRadius: tokens.borderRadiusSmall,
    fontSize: tokens.fontSizeBase300,
  },
  optionActive: { backgroundColor: tokens.colorNeutralBackground1Hover },
  empty: { padding: '6px 8px', color: tokens.colorNeutralForeground3 },
  boxPanel: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    marginTop: tokens.spacingVerticalXS,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  hint: { color: tokens.colorNeutralForeground3 },
});

// Inline styles for the box atoms (they are created outside React, so no class hooks).
const BOX_STYLE: Record<BoxNode['type'], string> = {
  'field-box':
    'display:inline-block;padding:0 6px;margin:0 1px;border-radius:4px;background:#e0f2fe;color:#075985;border:1px ' +
    'solid #7dd3fc;cursor:pointer;line-height:20px;font-size:13px;user-select:none;',
  'enrich-box':
    'display:inline-block;padding:0 6px;margin:0 1px;border-radius:4px;background:#ede9fe;color:#5b21b6;border:1px ' +
    'solid #c4b5fd;cursor:pointer;line-height:20px;font-size:13px;user-select:none;',
};

const isBoxElement = (n: Node): n is HTMLElement => n.nodeType === 1 && !!(n as HTMLElement).dataset?.box;

type SlashMenuState = { query: string; node: Text; start: number; end: number };

/** A box's label (the field's, or the enrichment's with its path) and its element in the editor. */
function useBoxLabels(fields: readonly PromptFieldOption[], enrichments: readonly PromptEnrichmentOption[]) {
  const fieldLabel = useCallback((id: string) => fields.find((f) => f.id === id)?.label ?? 'Unknown field', [fields]);
  const enrichmentLabel = useCallback((id: string) => enrichments.find((e) => e.id === id)?.name ?? 'Unknown enrichment', [enrichments]);
  const boxLabel = useCallback(
    (b: BoxNode) =>
      b.type === 'field-box'
        ? fieldLabel(b.fieldId)
        : `${enrichmentLabel(b.enrichmentId)}${b.path && b.path !== DEFAULT_ENRICH_BOX_PATH ? ` · ${b.path}` : ''}`,
    [fieldLabel, enrichmentLabel],
  );

  const makeBoxElement = useCallback(
    (b: BoxNode) => {
      const span = document.createElement('span');
      span.contentEditable = 'false';
      span.dataset.box = b.type;
      span.dataset.id = b.id;
      span.setAttribute('data-testid', b.type);
      span.setAttribute('style', BOX_STYLE[b.type]);
      span.textContent = boxLabel(b);
      return span;
    },
    [boxLabel],
  );
  return { boxLabel, makeBoxElement };
}

/** The editor's DOM as prompt nodes (boxes are kept by id in `boxes`). */
function readPrompt(el: HTMLElement | null, boxes: ReadonlyMap<string, BoxNode>): PromptNode[] {
  if (!el) return [];
  const out: PromptNode[] = [];
  const walk = (parent: Node, top: boolean) => {
    parent.childNodes.forEach((n, i) => {
      if (n.nodeType === 3) out.push({ type: 'text', text: (n as Text).data.replace(/\u00a0/g, ' ') });
      else if (isBoxElement(n)) {
        const b = boxes.get(n.dataset.id ?? '');
        if (b) out.push({ ...b });
      } else if (n.nodeName === 'BR') out.push({ type: 'text', text: '\n' });
      else if (n.nodeType === 1) {
        // Browsers may wrap new lines in blocks.
        const block = n.nodeName === 'DIV' || n.nodeName === 'P';
        if (block && (i > 0 || !top)) out.push({ type: 'text', text: '\n' });
        walk(n, false);
      }
    });
  };
  walk(el, true);
  return normalizePrompt(out);
}

/**
 * The editable DOM and the value: the value is rendered when it comes from outside (first render, a loaded enrichment), the DOM
 * is read and emitted on every change, and the boxes' labels follow the field and enrichment lists as they load.
 */
function usePromptDom(o: {
  value: PromptEditorProps['value'];
  onChange: PromptEditorProps['onChange'];
  boxLabel: (b: BoxNode) => string;
  makeBoxElement: (b: BoxNode) => HTMLSpanElement;
}) {
  const { onChange, boxLabel, makeBoxElement } = o;
  const ref = useRef<HTMLDivElement>(null);
  const boxes = useRef(new Map<string, BoxNode>());
  const lastEmitted = useRef<string | null>(null);
  const [empty, setEmpty] = useState(true);

  /** The DOM as nodes. */
  const read = useCallback((): PromptNode[] => readPrompt(ref.current, boxes.current), []);

  const emit = useCallback(() => {
    const nodes = read();
    const json = JSON.stringify(nodes);
    setEmpty(!nodes.length);
    if (json === lastEmitted.current) return;
    lastEmitted.current = json;
    onChange(nodes);
  }, [read, onChange]);

  // Render the value when it comes from outside (first render, a loaded enrichment).
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const nodes = normalizePrompt(o.value);
    const json = JSON.stringify(nodes);
    if (json === lastEmitted.current) return;
    lastEmitted.current = json;
    el.textContent = '';
    for (const n of nodes) {
      if (n.type === 'text') el.appendChild(document.createTextNode(n.text));
      else {
        boxes.current.set(n.id, { ...n });
        el.appendChild(makeBoxElement(n));
      }
    }
    setEmpty(!nodes.length);
  }, [o.value, makeBoxElement]);

  // Labels follow the field and enrichment lists as they load.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.querySelectorAll<HTMLElement>('[data-box]').forEach((span) => {
      const b = boxes.current.get(span.dataset.id ?? '');
      if (b) span.textContent = boxLabel(b);
    });
  }, [boxLabel]);
  return { ref, boxes, emit, empty };
}

/** The '/' menu: opened, updated or closed from the text before the caret; its items and the active one. */
function useSlashMenu(
  ref: RefObject<HTMLDivElement | null>,
  fields: readonly PromptFieldOption[],
  enrichments: readonly PromptEnrichmentOption[],
) {
  const [menu, setMenu] = useState<SlashMenuState | null>(null);
  const [active, setActive] = useState(0);
  const items = useMemo<MenuItem[]>(() => {
    if (!menu) return [];
    const q = menu.query.toLowerCase();
    const match = (s: string) => s.toLowerCase().includes(q);
    return [
      ...fields.filter((f) => match(f.label)).map((f): MenuItem => ({ kind: 'field', id: f.id, label: f.label })),
      ...enrichments.filter((e) => match(e.name)).map((e): MenuItem => ({ kind: 'enrichment', id: e.id, label: e.name })),
    ];
  }, [menu, fields, enrichments]);

  /** Opens, updates or closes the '/' menu from the text before the caret. */
  const checkMenu = useCallback(() => {
    const sel = typeof window !== 'undefined' ? window.getSelection() : null;
    const el = ref.current;
    if (!sel || !el || sel.rangeCount === 0 || !sel.isCollapsed) return setMenu(null);
    const node = sel.anchorNode;
    if (!node || node.nodeType !== 3 || !el.contains(node)) return setMenu(null);
    const offset = sel.anchorOffset;
    const q = slashQuery((node as Text).data.slice(0, offset));
    if (q === null) return setMenu(null);
    setMenu((m) => {
      if (!m || m.query !== q) setActive(0);
      return { query: q, node: node as Text, start: offset - q.length - 1, end: offset };
    });
  }, [ref]);
  return { menu, setMenu, active, setActive, items, checkMenu };
}

/** Puts `span` (and a space after it) in place of the menu's '/query', and the caret after them. */
function replaceSlashQuery(menu: SlashMenuState, span: HTMLElement) {
  const range = document.createRange();
  const len = menu.node.data.length;
  range.setStart(menu.node, Math.max(0, Math.min(menu.start, len)));
  range.setEnd(menu.node, Math.max(0, Math.min(menu.end, len)));
  range.deleteContents();
  const space = document.createTextNode(' ');
  range.insertNode(space);
  range.insertNode(span);
  const sel = window.getSelection();
  if (sel) {
    const after = document.createRange();
    after.setStart(space, 1);
    after.collapse(true);
    sel.removeAllRanges();
    sel.addRange(after);
  }
}

/** Types `text` at the caret (inside `el` only); false when there is no caret there. */
function insertTextAtCaret(el: HTMLElement | null, text: string): boolean {
  const sel = window.getSelection();
  if (!sel || !el || sel.rangeCount === 0) return false;
  const range = sel.getRangeAt(0);
  if (!el.contains(range.startContainer)) return false;
  range.deleteContents();
  const node = document.createTextNode(text);
  range.insertNode(node);
  range.setStartAfter(node);
  range.collapse(true);
  sel.removeAllRanges();
  sel.addRange(range);
  return true;
}

export function PromptEditor(props: PromptEditorProps) {
  const { fields, enrichments } = props;
  const styles = useStyles();
  const { boxLabel, makeBoxElement } = useBoxLabels(fields, enrichments);
  const { ref, boxes, emit, empty } = usePromptDom({ value: props.value, onChange: props.onChange, boxLabel, makeBoxElement });
  const { menu, setMenu, active, setActive, items, checkMenu } = useSlashMenu(ref, fields, enrichments);
  const [selectedBox, setSelectedBox] = useState<string | null>(null);

  const insert = (item: MenuItem) => {
    const el = ref.current;
    if (!el || !menu) return;
    const box: BoxNode = item.kind === 'field' ? newFieldBox(item.id) : newEnrichBox(item.id);
    boxes.current.set(box.id, box);
    replaceSlashQuery(menu, makeBoxElement(box));
    setMenu(null);
    el.focus();
    emit();
  };
  const insertText = (text: string) => {
    if (insertTextAtCaret(ref.current, text)) emit();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (menu && onMenuKey(e, { items, active, setActive, insert, close: () => setMenu(null) })) return;
    if (e.key === 'Enter') {
      // A new line as text (no browser-made blocks).
      e.preventDefault();
      insertText('\n');
    }
  };

  const selected = selectedBox ? (boxes.current.get(selectedBox) ?? null) : null;
  return (
    <div className={styles.wrap}>
      <div
        ref={ref}
        className={mergeClasses(styles.editor, props.invalid && styles.invalid, props.disabled && styles.disabled)}
        contentEditable={!props.disabled}
        suppressContentEditableWarning
        role="textbox"
        aria-multiline
        aria-label={props['aria-label'] ?? 'Prompt'}
        aria-invalid={props.invalid || undefined}
        aria-haspopup="listbox"
        tabIndex={0}
        onInput={() => {
          emit();
          checkMenu();
        }}
        onKeyDown={onKeyDown}
        onKeyUp={(e) => {
          if (!['ArrowDown', 'ArrowUp', 'Enter', 'Tab', 'Escape'].includes(e.key)) checkMenu();
        }}
        onClick={(e) => {
          const box = (e.target as HTMLElement).closest?.('[data-box]') as HTMLElement | null;
          setSelectedBox(box?.dataset.id ?? null);
          checkMenu();
        }}
        onBlur={() => setMenu(null)}
        onPaste={(e) => {
          e.preventDefault();
          insertText(e.clipboardData.getData('text/plain'));
        }}
        data-testid="prompt-editor"
      />
      {empty && props.placeholder && (
        <span className={styles.placeholder} aria-hidden>
          {props.placeholder}
        </span>
      )}
      {menu && <SlashMenu query={menu.query} items={items} active={active} onPick={insert} onHover={setActive} />}
      {selected && <BoxOptions {...{ selected, boxLabel, boxes, editor: ref, emit }} onSelect={setSelectedBox} />}
      {!selected && (
        <Text size={200} className={styles.hint}>
          Type / to insert a field or another enrichment's result.
        </Text>
      )}
    </div>
  );
}

/** The '/' menu's keys: arrows move, Enter or Tab inserts, Escape closes; true when the key was the menu's. */
function onMenuKey(
  e: KeyboardEvent<HTMLDivElement>,
  m: {
    items: MenuItem[];
    active: number;
    setActive: Dispatch<SetStateAction<number>>;
    insert: (item: MenuItem) => void;
    close: () => void;
  },
): boolean {
  const { items } = m;
  if (e.key === 'ArrowDown') {
    e.preventDefault();
    m.setActive((a) => (items.length ? (a + 1) % items.length : 0));
    return true;
  }
  if (e.key === 'ArrowUp') {
    e.preventDefault();
    m.setActive((a) => (items.length ? (a - 1 + items.length) % items.length : 0));
    return true;
  }
  if ((e.key === 'Enter' || e.key === 'Tab') && items.length) {
    e.preventDefault();
    m.insert(items[Math.min(m.active, items.length - 1)]);
    return true;
  }
  if (e.key === 'Escape') {
    e.preventDefault();
    e.stopPropagation();
    m.close();
    return true;
  }
  return false;
}

/** The '/' menu's list: the fields, then the enrichments (the active option is the keyboard's). */
function SlashMenu(props: {
  query: string;
  items: MenuItem[];
  active: number;
  onPick: (item: MenuItem) => void;
  onHover: (i: number) => void;
}) {
  const { items, active } = props;
  const styles = useStyles();
  const fieldItems = items.filter((i) => i.kind === 'field');
  const enrichmentItems = items.filter((i) => i.kind === 'enrichment');
  const option = (it: MenuItem, i: number) => (
    <div
      key={`${it.kind}:${it.id}`}
      role="option"
      aria-selected={i === active}
      className={mergeClasses(styles.option, i === active && styles.optionActive)}
      onMouseDown={(e) => {
        e.preventDefault();
        props.onPick(it);
      }}
      onMouseEnter={() => props.onHover(i)}
      data-testid="prompt-menu-option"
      data-kind={it.kind}
      data-id={it.id}
    >
      {it.kind === 'field' ? <DocumentTextRegular aria-hidden /> : <SparkleRegular aria-hidden />}
      <span>{it.label}</span>
    </div>
  );
  return (
    <div className={styles.menu} role="listbox" aria-label="Insert" data-testid="prompt-menu">
      {items.length === 0 && <div className={styles.empty}>No fields or enrichments match '{props.query}'</div>}
      {fieldItems.length > 0 && <div className={styles.group}>Fields</div>}
      {fieldItems.map((it, k) => option(it, k))}
      {enrichmentItems.length > 0 && <div className={styles.group}>Enrichments</div>}
      {enrichmentItems.map((it, k) => option(it, fieldItems.length + k))}
    </div>
  );
}

/** The selected box's options: Autorun, Required, an enrichment's path, Remove. */
function BoxOptions(props: {
  selected: BoxNode;
  boxLabel: (b: BoxNode) => string;
  boxes: RefObject<Map<string, BoxNode>>;
  editor: RefObject<HTMLDivElement | null>;
  emit: () => void;
  onSelect: (id: string | null) => void;
}) {
  const { selected, boxLabel, boxes, editor, emit } = props;
  const styles = useStyles();
  const updateBox = (patch: Partial<FieldBoxNode> & Partial<EnrichBoxNode>) => {
    const next = { ...selected, ...patch } as BoxNode;
    boxes.current.set(next.id, next);
    const span = editor.current?.querySelector<HTMLElement>(`[data-id="${next.id}"]`);
    if (span) span.textContent = boxLabel(next);
    emit();
    props.onSelect(next.id);
  };
  const removeBox = () => {
    editor.current?.querySelector(`[data-id="${selected.id}"]`)?.remove();
    boxes.current.delete(selected.id);
    props.onSelect(null);
    emit();
  };
  return (
    <div className={styles.boxPanel} data-testid="prompt-box-options">
      <Text size={200} weight="semibold">
        {boxLabel(selected)}
      </Text>
      <Checkbox
        label="Autorun"
        checked={selected.autorun}
        onChange={(_, d) => updateBox({ autorun: !!d.checked })}
        data-testid="prompt-box-autorun"
      />
      <Checkbox
        label="Required"
        checked={selected.required}
        onChange={(_, d) => updateBox({ required: !!d.checked })}
        data-testid="prompt-box-required"
      />
      {selected.type === 'enrich-box' && (
        <Input
          size="small"
          value={selected.path}
          aria-label="Path"
          onChange={(_, d) => updateBox({ path: d.value })}
          data-testid="prompt-box-path"
        />
      )}
      <Button size="small" appearance="subtle" icon={<DeleteRegular />} onClick={removeBox} data-testid="prompt-box-remove">
        Remove
      </Button>
    </div>
  );
}
