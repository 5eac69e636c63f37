// The draft's rich body editor (spec 000 §2: fonts Calibri, Anton, Arial, Courier, Garamond,
// Tahoma, Times New Roman, Verdana). Built on Tiptap 3 (ProseMirror): a maintained editor with a
// schema, so what it emits is a small, predictable HTML (p, strong, em, u, s, ul/ol/li, a, and
// spans with font-family) — the same allow-list the server's sanitizer keeps. The value is HTML.
import { useEffect, useRef, type ReactElement } from 'react';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { FontFamily, TextStyle } from '@tiptap/extension-text-style';
import { Placeholder } from '@tiptap/extensions';
import { Select, ToggleButton, Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import {
  TextBoldRegular,
  TextBulletListLtrRegular,
  TextItalicRegular,
  TextNumberListLtrRegular,
  TextUnderlineRegular,
} from '@fluentui/react-icons';
import { DRAFT_FONTS } from '../../domain';

export const DEFAULT_FONT = 'Calibri';

export interface DraftBodyEditorProps {
  value: string;
  onChange: (html: string) => void;
  readOnly?: boolean;
  placeholder?: string;
  'aria-label'?: string;
  className?: string;
}

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    minHeight: 0,
    flexGrow: 1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  toolbar: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: '2px',
    padding: '2px 4px',
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  font: { width: '150px' },
  content: {
    flexGrow: 1,
    minHeight: 0,
    overflowY: 'auto',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    fontFamily: `${DEFAULT_FONT}, ${tokens.fontFamilyBase}`,
    fontSize: tokens.fontSizeBase300,
    lineHeight: '20px',
    '& .ProseMirror': { outline: 'none', minHeight: '100%' },
    '& .ProseMirror p': { margin: '0 0 8px 0' },
    '& .ProseMirror ul, & .ProseMirror ol': { margin: '0 0 8px 0', paddingLeft: '24px' },
    '& .ProseMirror p.is-editor-empty:first-child::before': {
      content: 'attr(data-placeholder)',
      color: tokens.colorNeutralForeground4,
      float: 'left',
      height: 0,
      pointerEvents: 'none',
    },
  },
  readOnly: { backgroundColor: tokens.colorNeutralBackground3 },
});

function Mark({
  editor,
  mark,
  label,
  icon,
  disabled,
  run,
}: {
  editor: Editor;
  mark: string;
  label: string;
  icon: ReactElement;
  disabled?: boolean;
  run: (e: Editor) => void;
}) {
  const active = useEditorState({ editor, selector: (s) => s.editor.isActive(mark) });
  return (
    <Tooltip content={label} relationship="label">
      <ToggleButton
        size="small"
        appearance="subtle"
        icon={icon}
        checked={active}
        disabled={disabled}
        onClick={() => run(editor)}
        data-testid={`draft-body-${mark}`}
      />
    </Tooltip>
  );
}

export function DraftBodyEditor({ value, onChange, readOnly, placeholder, className, ...rest }: DraftBodyEditorProps) {
  const styles = useStyles();
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  // The HTML last emitted or adopted: a value prop equal to it is our own echo, not a new text.
  const known = useRef(value);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: false,
        codeBlock: false,
        code: false,
        horizontalRule: false,
        link: { openOnClick: false, autolink: true },
      }),
      TextStyle,
      FontFamily,
      Placeholder.configure({ placeholder: placeholder ?? '' }),
    ],
    content: value,
    editable: !readOnly,
    editorProps: {
      attributes: {
        'aria-label': rest['aria-label'] ?? 'Email body',
        'aria-multiline': 'true',
        role: 'textbox',
        'data-testid': 'draft-body-input',
      },
    },
    onUpdate: ({ editor: e }) => {
      const html = e.isEmpty ? '' : e.getHTML();
      known.current = html;
      onChangeRef.current(html);
    },
  });
  // A body written elsewhere (a generated email) replaces the text without an onChange.
  useEffect(() => {
    if (!editor || value === known.current) return;
    known.current = value;
    editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);
  useEffect(() => {
    editor?.setEditable(!readOnly);
  }, [editor, readOnly]);
  const font =
    useEditorState({ editor, selector: (s) => (s.editor?.getAttributes('textStyle').fontFamily as string | undefined) ?? '' }) ?? '';

  return (
    <div className={mergeClasses(styles.root, readOnly && styles.readOnly, className)} data-testid="draft-body">
      {editor && (
        <div className={styles.toolbar} role="toolbar" aria-label="Formatting">
          <Select
            size="small"
            className={styles.font}
            aria-label="Font"
            disabled={readOnly}
            value={DRAFT_FONTS.includes(font as (typeof DRAFT_FONTS)[number]) ? font : ''}
            onChange={(_, d) => {
              if (d.value) editor.chain().focus().setFontFamily(d.value).run();
              else editor.chain().focus().unsetFontFamily().run();
            }}
            data-testid="draft-body-font"
          >
            <option value="">{`${DEFAULT_FONT} (default)`}</option>
            {DRAFT_FONTS.map((f) => (
              <option key={f} value={f} style={{ fontFamily: f }}>
                {f}
              </option>
            ))}
          </Select>
          <Mark
            editor={editor}
            mark="bold"
            label="Bold"
            icon={<TextBoldRegular />}
            disabled={readOnly}
            run={(e) => e.chain().focus().toggleBold().run()}
          />
          <Mark
            editor={editor}
            mark="italic"
            label="Italic"
            icon={<TextItalicRegular />}
            disabled={readOnly}
            run={(e) => e.chain().focus().toggleItalic().run()}
          />
          <Mark
            editor={editor}
            mark="underline"
            label="Underline"
            icon={<TextUnderlineRegular />}
            disabled={readOnly}
            run={(e) => e.chain().focus().toggleUnderline().run()}
          />
          <Mark
            editor={editor}
            mark="bulletList"
            label="Bulleted list"
            icon={<TextBulletListLtrRegular />}
            disabled={readOnly}
            run={(e) => e.chain().focus().toggleBulletList().run()}
          />
          <Mark
            editor={editor}
            mark="orderedList"
            label="Numbered list"
            icon={<TextNumberListLtrRegular />}
            disabled={readOnly}
            run={(e) => e.chain().focus().toggleOrderedList().run()}
          />
        </div>
      )}
      <EditorContent editor={editor} className={styles.content} />
    </div>
  );
}
