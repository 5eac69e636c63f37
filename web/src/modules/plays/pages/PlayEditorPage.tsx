// /playbooks/new and /playbooks/{id}: the play editor (spec 001 §2 'Play editor', §5 'Play').
// Name, description, type (Ai / Non-Ai), instructions (the enrichment prompt editor: '/' inserts
// field boxes and enrich boxes), subject, subject prompt, a target contact and a preview of the
// email the play would write for it (the real model for Ai plays); Save as draft and Publish. A new
// play's form is kept as the user's draft per provider (restored on return, removable).
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Combobox,
  Field,
  Input,
  Label,
  MessageBar,
  MessageBarBody,
  Option,
  Radio,
  RadioGroup,
  Spinner,
  Text,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { DeleteRegular, EyeRegular, SaveRegular, SendRegular } from '@fluentui/react-icons';
import type { PlayPreviewResponse } from '@dealscout/shared/contracts';
import { PLAY_MESSAGES, playPublishProblem, type PlayType, type PromptNode, type RichPromptNode } from '@dealscout/shared/domain';
import { PromptEditor, useNotify } from '@dealscout/shared/ui';
import { api, errorMessage } from '../../../app/api';

const useStyles = makeStyles({
  page: { display: 'grid', gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)', gap: tokens.spacingHorizontalL, alignItems: 'start' },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
  },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  preview: {
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: tokens.spacingHorizontalM,
    minHeight: '160px',
  },
  muted: { color: tokens.colorNeutralForeground3 },
  why: { fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground3, whiteSpace: 'pre-wrap' },
});

type FormError = 'none' | 'name' | 'target';
type Target = { id: string; title: string } | null;

/** The play's form (name, description, type, instructions, subject, subject prompt), its status and the preview's target contact. */
function usePlayForm() {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [provider, setProvider] = useState<PlayType>('openai');
  const [instructions, setInstructions] = useState<PromptNode[]>([]);
  const [subject, setSubject] = useState('');
  const [subjectPrompt, setSubjectPrompt] = useState('');
  const [target, setTarget] = useState<Target>(null);
  const [targetQuery, setTargetQuery] = useState('');
  const [status, setStatus] = useState<'draft' | 'published'>('draft');
  return {
    ...{ name, setName, description, setDescription, provider, setProvider, instructions, setInstructions, subject, setSubject },
    ...{ subjectPrompt, setSubjectPrompt, target, setTarget, targetQuery, setTargetQuery, status, setStatus },
  };
}
type PlayForm = ReturnType<typeof usePlayForm>;

/** What '/' can insert in the instructions: the contacts' and companies' fields and enrichments. */
function usePromptOptions() {
  const fields = useQuery({ queryKey: ['fields', 'all'], queryFn: async () => (await api.fields.list()).fields, staleTime: 60_000 });
  const enrichments = useQuery({
    queryKey: ['enrichments', 'all-for-plays'],
    queryFn: async () => (await api.enrichments.list({ take: 100 })).enrichments,
    staleTime: 60_000,
  });
  const fieldOptions = useMemo(
    () =>
      (fields.data ?? [])
        .filter((f) => (f.entityType === 'contact' || f.entityType === 'company') && f.dataType !== 'reference' && f.dataType !== 'id')
        .map((f) => ({ id: f.id, label: `${f.entityType === 'company' ? 'Company' : 'Contact'}: ${f.label}` })),
    [fields.data],
  );
  const enrichmentOptions = useMemo(
    () =>
      (enrichments.data ?? [])
        .filter((e) => e.entityType === 'contact' || e.entityType === 'company')
        .map((e) => ({ id: e.id, name: e.name })),
    [enrichments.data],
  );
  return { fieldOptions, enrichmentOptions };
}

/**
 * Loads the play being edited, or the user's draft of a new play (once); a new play's form is then kept as the user's draft of
 * its provider (a second after the last change).
 */
function usePlayLoad(id: string | undefined, editing: boolean, f: PlayForm) {
  const loaded = useRef(false);
  const { provider, name, description, instructions, subject, subjectPrompt, target } = f;
  const play = useQuery({ queryKey: ['plays', 'one', id], queryFn: () => api.plays.get(id!), enabled: editing });
  const draft = useQuery({
    queryKey: ['plays', 'draft', provider],
    queryFn: () => api.plays.draft(provider),
    enabled: !editing,
    staleTime: 0,
  });
  // Load the play being edited, or the user's draft of a new play (once).
  useEffect(() => {
    if (loaded.current) return;
    if (editing && play.data) {
      const p = play.data.play;
      f.setName(p.name);
      f.setDescription(p.description);
      f.setProvider(p.playType);
      f.setInstructions(p.instructions as PromptNode[]);
      f.setSubject(p.subject);
      f.setSubjectPrompt(p.subjectPrompt);
      f.setStatus(p.status);
      loaded.current = true;
    } else if (!editing && draft.data) {
      const d = draft.data.draft;
      if (d) {
        f.setName(d.name);
        f.setDescription(d.description);
        f.setInstructions(d.instructions as PromptNode[]);
        f.setSubject(d.title);
        f.setSubjectPrompt(d.subjectPrompt);
      }
      loaded.current = true;
    }
  }, [editing, play.data, draft.data]);

  // A new play's form is kept as the user's draft of this provider (a second after the last change).
  useEffect(() => {
    if (editing || !loaded.current) return;
    const t = setTimeout(() => {
      void api.plays
        .saveDraft(provider, {
          name,
          description,
          instructions: instructions as RichPromptNode[],
          title: subject,
          subjectPrompt,
          targetContactId: target?.id ?? null,
        })
        .catch(() => {});
    }, 1000);
    return () => clearTimeout(t);
  }, [editing, provider, name, description, instructions, subject, subjectPrompt, target]);
  return play;
}

/** Save as draft, Publish (checked first), Preview for the target contact and Remove draft; the problem they met and where. */
function usePlayActions(id: string | undefined, editing: boolean, f: PlayForm) {
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<FormError>('none');
  const [problem, setProblem] = useState<string | null>(null);
  const [preview, setPreview] = useState<PlayPreviewResponse | null>(null);
  const [busy, setBusy] = useState<'save' | 'publish' | 'preview' | null>(null);
  const { name, provider, instructions, subject, subjectPrompt } = f;
  const fail = (message: string, where: FormError) => {
    setProblem(message);
    setFormError(where);
  };
  const body = (s: 'draft' | 'published') => ({
    id: editing ? id : null,
    name,
    description: f.description,
    instructions: instructions as RichPromptNode[],
    status: s,
    llmProvider: provider,
    title: subject,
    subjectPrompt,
  });
  const save = async (s: 'draft' | 'published') => {
    setProblem(null);
    if (s === 'published') {
      const p = playPublishProblem({ name, instructions: instructions as RichPromptNode[] });
      if (p) return fail(p, p === PLAY_MESSAGES.nameRequired ? 'name' : 'none');
    } else if (!name.trim()) return fail(PLAY_MESSAGES.enterName, 'name');
    setFormError('none');
    setBusy(s === 'draft' ? 'save' : 'publish');
    try {
      const res = await api.plays.save(body(s));
      notify.success(res.message ?? PLAY_MESSAGES.saved);
      await queryClient.invalidateQueries({ queryKey: ['plays'] });
      navigate('/playbooks');
    } catch (e) {
      setProblem(errorMessage(e, PLAY_MESSAGES.error));
    } finally {
      setBusy(null);
    }
  };
  const runPreview = async () => {
    setProblem(null);
    if (!name.trim()) return fail(PLAY_MESSAGES.enterName, 'name');
    if (!f.target) return fail(PLAY_MESSAGES.selectContact, 'target');
    setFormError('none');
    setBusy('preview');
    try {
      const input = { name, instructions: instructions as RichPromptNode[], llmProvider: provider, title: subject, subjectPrompt };
      setPreview(await api.plays.preview({ ...input, contactId: f.target.id }));
    } catch (e) {
      setProblem(errorMessage(e, PLAY_MESSAGES.error));
    } finally {
      setBusy(null);
    }
  };
  const removeDraft = async () => {
    try {
      await api.plays.removeDraft(provider);
      f.setName('');
      f.setDescription('');
      f.setInstructions([]);
      f.setSubject('');
      f.setSubjectPrompt('');
      setPreview(null);
      notify.success(PLAY_MESSAGES.draftRemoved);
    } catch {
      notify.error(PLAY_MESSAGES.removeDraftFailed);
    }
  };
  return { formError, problem, preview, busy, save, runPreview, removeDraft };
}
type PlayActions = ReturnType<typeof usePlayActions>;

export default function PlayEditorPage() {
  const styles = useStyles();
  const { id } = useParams();
  const editing = !!id && id !== 'new';
  const f = usePlayForm();
  const play = usePlayLoad(id, editing, f);
  const options = usePromptOptions();
  const contacts = useQuery({
    queryKey: ['contacts', 'search', f.targetQuery],
    queryFn: async () => (await api.contacts.search(f.targetQuery)).results,
    staleTime: 10_000,
  });
  const actions = usePlayActions(id, editing, f);

  if (editing && play.isPending) return <Spinner label="Loading..." />;
  if (editing && play.isError)
    return (
      <MessageBar intent="error">
        <MessageBarBody>{PLAY_MESSAGES.fetchFailed}</MessageBarBody>
      </MessageBar>
    );

  return (
    <div className={styles.page} data-testid="play-editor" data-mode={editing && f.status === 'published' ? 'edit' : 'draft'}>
      <PlayFormSection f={f} editing={editing} options={options} actions={actions} />
      <PreviewSection f={f} contacts={contacts.data} actions={actions} />
    </div>
  );
}

/** The play: name, description, type, instructions, subject, subject prompt, the problem met, and the actions. */
function PlayFormSection({
  f,
  editing,
  options,
  actions,
}: {
  f: PlayForm;
  editing: boolean;
  options: ReturnType<typeof usePromptOptions>;
  actions: PlayActions;
}) {
  const styles = useStyles();
  const { provider } = f;
  const { problem, formError } = actions;
  return (
    <section className={styles.card} aria-label="Play">
      <Field label="Play Name" required validationMessage={formError === 'name' ? problem : undefined}>
        <Input value={f.name} maxLength={200} onChange={(_, d) => f.setName(d.value)} data-testid="play-name" />
      </Field>
      <Field label="Description">
        <Textarea value={f.description} maxLength={1000} onChange={(_, d) => f.setDescription(d.value)} data-testid="play-description" />
      </Field>
      <Field label="Type">
        <RadioGroup layout="horizontal" value={provider} onChange={(_, d) => f.setProvider(d.value as PlayType)} disabled={editing}>
          <Radio value="openai" label="Ai" data-testid="play-type-ai" />
          <Radio value="non_ai" label="Non-Ai" data-testid="play-type-non-ai" />
        </RadioGroup>
      </Field>
      <div>
        <Label required>{provider === 'openai' ? 'Instructions' : 'Template'}</Label>
        <PromptEditor
          value={f.instructions}
          onChange={f.setInstructions}
          fields={options.fieldOptions}
          enrichments={options.enrichmentOptions}
          aria-label="Play instructions"
          placeholder={
            provider === 'openai'
              ? 'Tell the AI what to write. Type / to insert a field or an enrichment.'
              : 'Write the email. Type / to insert a field.'
          }
        />
      </div>
      <Field label="Subject" hint={provider === 'openai' ? 'Leave empty to let the AI write it.' : undefined}>
        <Input value={f.subject} maxLength={500} onChange={(_, d) => f.setSubject(d.value)} data-testid="play-subject" />
      </Field>
      {provider === 'openai' && (
        <Field label="Subject prompt">
          <Input
            value={f.subjectPrompt}
            maxLength={2000}
            onChange={(_, d) => f.setSubjectPrompt(d.value)}
            data-testid="play-subject-prompt"
          />
        </Field>
      )}
      {problem && formError !== 'name' && (
        <MessageBar intent="error" data-testid="play-problem">
          <MessageBarBody>{problem}</MessageBarBody>
        </MessageBar>
      )}
      <PlayButtons editing={editing} published={f.status === 'published'} actions={actions} />
    </section>
  );
}

/** Save as draft, Publish (Save for a published play) and Remove draft. */
function PlayButtons({ editing, published, actions }: { editing: boolean; published: boolean; actions: PlayActions }) {
  const styles = useStyles();
  const { busy } = actions;
  return (
    <div className={styles.actions}>
      <Button
        icon={<SaveRegular />}
        onClick={() => void actions.save('draft')}
        disabled={busy !== null || (editing && published)}
        data-testid="play-save-draft"
      >
        Save as draft
      </Button>
      <Button
        appearance="primary"
        icon={<SendRegular />}
        onClick={() => void actions.save('published')}
        disabled={busy !== null}
        data-testid="play-publish"
      >
        {editing && published ? 'Save' : 'Publish'}
      </Button>
      {!editing && (
        <Button appearance="subtle" icon={<DeleteRegular />} onClick={() => void actions.removeDraft()} data-testid="play-remove-draft">
          Remove draft
        </Button>
      )}
    </div>
  );
}

/** 'Why this email': the model, the rendered prompt and the values that went in. */
function whyText(preview: PlayPreviewResponse): string {
  const values = preview.values.map((v) => `${v.label}: ${v.value}`).join('\n');
  return `Model: ${preview.model ?? 'none (template)'}\n\n${preview.renderedPrompt}\n\n${values}`;
}

/** The target contact, Preview and the email the play would write for it. */
function PreviewSection(props: {
  f: PlayForm;
  contacts: { id: string; title: string; subtitle: string }[] | undefined;
  actions: PlayActions;
}) {
  const { f, contacts, actions } = props;
  const { target } = f;
  const { preview } = actions;
  const styles = useStyles();
  return (
    <section className={styles.card} aria-label="Preview">
      <Field label="Target contact" required validationMessage={actions.formError === 'target' ? actions.problem : undefined}>
        <Combobox
          placeholder="Search contacts"
          value={target ? target.title : f.targetQuery}
          data-testid="play-target"
          onInput={(e) => {
            f.setTarget(null);
            f.setTargetQuery((e.target as HTMLInputElement).value);
          }}
          onOptionSelect={(_, d) => {
            const hit = contacts?.find((c) => c.id === d.optionValue);
            if (hit) f.setTarget({ id: hit.id, title: hit.title });
          }}
        >
          {(contacts ?? []).map((c) => (
            <Option key={c.id} value={c.id} text={c.title}>{`${c.title} — ${c.subtitle}`}</Option>
          ))}
        </Combobox>
      </Field>
      <Button icon={<EyeRegular />} onClick={() => void actions.runPreview()} disabled={actions.busy !== null} data-testid="play-preview">
        {actions.busy === 'preview' ? 'Writing…' : 'Preview'}
      </Button>
      <div className={styles.preview} data-testid="play-preview-output">
        {preview ? (
          <>
            <Text weight="semibold" block>
              {preview.subject || <span className={styles.muted}>(no subject)</span>}
            </Text>
            <div dangerouslySetInnerHTML={{ __html: preview.body }} />
            <details>
              <summary>Why this email</summary>
              <div className={styles.why}>{whyText(preview)}</div>
            </details>
          </>
        ) : (
          <Text className={styles.muted}>Pick a contact and press Preview to see the email this play writes.</Text>
        )}
      </div>
    </section>
  );
}
