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

export default function PlayEditorPage() {
  const styles = useStyles();
  const { id } = useParams();
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const editing = !!id && id !== 'new';
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [provider, setProvider] = useState<PlayType>('openai');
  const [instructions, setInstructions] = useState<PromptNode[]>([]);
  const [subject, setSubject] = useState('');
  const [subjectPrompt, setSubjectPrompt] = useState('');
  const [target, setTarget] = useState<{ id: string; title: string } | null>(null);
  const [targetQuery, setTargetQuery] = useState('');
  const [formError, setFormError] = useState<FormError>('none');
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<'draft' | 'published'>('draft');
  const [preview, setPreview] = useState<PlayPreviewResponse | null>(null);
  const [busy, setBusy] = useState<'save' | 'publish' | 'preview' | null>(null);
  const loaded = useRef(false);

  const play = useQuery({ queryKey: ['plays', 'one', id], queryFn: () => api.plays.get(id!), enabled: editing });
  const draft = useQuery({
    queryKey: ['plays', 'draft', provider],
    queryFn: () => api.plays.draft(provider),
    enabled: !editing,
    staleTime: 0,
  });
  const fields = useQuery({ queryKey: ['fields', 'all'], queryFn: async () => (await api.fields.list()).fields, staleTime: 60_000 });
  const enrichments = useQuery({
    queryKey: ['enrichments', 'all-for-plays'],
    queryFn: async () => (await api.enrichments.list({ take: 100 })).enrichments,
    staleTime: 60_000,
  });
  const contacts = useQuery({
    queryKey: ['contacts', 'search', targetQuery],
    queryFn: async () => (await api.contacts.search(targetQuery)).results,
    staleTime: 10_000,
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

  // Load the play being edited, or the user's draft of a new play (once).
  useEffect(() => {
    if (loaded.current) return;
    if (editing && play.data) {
      const p = play.data.play;
      setName(p.name);
      setDescription(p.description);
      setProvider(p.playType);
      setInstructions(p.instructions as PromptNode[]);
      setSubject(p.subject);
      setSubjectPrompt(p.subjectPrompt);
      setStatus(p.status);
      loaded.current = true;
    } else if (!editing && draft.data) {
      const d = draft.data.draft;
      if (d) {
        setName(d.name);
        setDescription(d.description);
        setInstructions(d.instructions as PromptNode[]);
        setSubject(d.title);
        setSubjectPrompt(d.subjectPrompt);
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

  const body = (s: 'draft' | 'published') => ({
    id: editing ? id : null,
    name,
    description,
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
      if (p) {
        setProblem(p);
        setFormError(p === PLAY_MESSAGES.nameRequired ? 'name' : 'none');
        return;
      }
    } else if (!name.trim()) {
      setProblem(PLAY_MESSAGES.enterName);
      setFormError('name');
      return;
    }
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
    if (!name.trim()) {
      setProblem(PLAY_MESSAGES.enterName);
      setFormError('name');
      return;
    }
    if (!target) {
      setProblem(PLAY_MESSAGES.selectContact);
      setFormError('target');
      return;
    }
    setFormError('none');
    setBusy('preview');
    try {
      setPreview(
        await api.plays.preview({
          name,
          instructions: instructions as RichPromptNode[],
          llmProvider: provider,
          title: subject,
          subjectPrompt,
          contactId: target.id,
        }),
      );
    } catch (e) {
      setProblem(errorMessage(e, PLAY_MESSAGES.error));
    } finally {
      setBusy(null);
    }
  };
  const removeDraft = async () => {
    try {
      await api.plays.removeDraft(provider);
      setName('');
      setDescription('');
      setInstructions([]);
      setSubject('');
      setSubjectPrompt('');
      setPreview(null);
      notify.success(PLAY_MESSAGES.draftRemoved);
    } catch {
      notify.error(PLAY_MESSAGES.removeDraftFailed);
    }
  };

  if (editing && play.isPending) return <Spinner label="Loading..." />;
  if (editing && play.isError)
    return (
      <MessageBar intent="error">
        <MessageBarBody>{PLAY_MESSAGES.fetchFailed}</MessageBarBody>
      </MessageBar>
    );

  return (
    <div className={styles.page} data-testid="play-editor" data-mode={editing && status === 'published' ? 'edit' : 'draft'}>
      <section className={styles.card} aria-label="Play">
        <Field label="Play Name" required validationMessage={formError === 'name' ? problem : undefined}>
          <Input value={name} maxLength={200} onChange={(_, d) => setName(d.value)} data-testid="play-name" />
        </Field>
        <Field label="Description">
          <Textarea value={description} maxLength={1000} onChange={(_, d) => setDescription(d.value)} data-testid="play-description" />
        </Field>
        <Field label="Type">
          <RadioGroup layout="horizontal" value={provider} onChange={(_, d) => setProvider(d.value as PlayType)} disabled={editing}>
            <Radio value="openai" label="Ai" data-testid="play-type-ai" />
            <Radio value="non_ai" label="Non-Ai" data-testid="play-type-non-ai" />
          </RadioGroup>
        </Field>
        <div>
          <Label required>{provider === 'openai' ? 'Instructions' : 'Template'}</Label>
          <PromptEditor
            value={instructions}
            onChange={setInstructions}
            fields={fieldOptions}
            enrichments={enrichmentOptions}
            aria-label="Play instructions"
            placeholder={
              provider === 'openai'
                ? 'Tell the AI what to write. Type / to insert a field or an enrichment.'
                : 'Write the email. Type / to insert a field.'
            }
          />
        </div>
        <Field label="Subject" hint={provider === 'openai' ? 'Leave empty to let the AI write it.' : undefined}>
          <Input value={subject} maxLength={500} onChange={(_, d) => setSubject(d.value)} data-testid="play-subject" />
        </Field>
        {provider === 'openai' && (
          <Field label="Subject prompt">
            <Input
              value={subjectPrompt}
              maxLength={2000}
              onChange={(_, d) => setSubjectPrompt(d.value)}
              data-testid="play-subject-prompt"
            />
          </Field>
        )}
        {problem && formError !== 'name' && (
          <MessageBar intent="error" data-testid="play-problem">
            <MessageBarBody>{problem}</MessageBarBody>
          </MessageBar>
        )}
        <div className={styles.actions}>
          <Button
            icon={<SaveRegular />}
            onClick={() => void save('draft')}
            disabled={busy !== null || (editing && status === 'published')}
            data-testid="play-save-draft"
          >
            Save as draft
          </Button>
          <Button
            appearance="primary"
            icon={<SendRegular />}
            onClick={() => void save('published')}
            disabled={busy !== null}
            data-testid="play-publish"
          >
            {editing && status === 'published' ? 'Save' : 'Publish'}
          </Button>
          {!editing && (
            <Button appearance="subtle" icon={<DeleteRegular />} onClick={() => void removeDraft()} data-testid="play-remove-draft">
              Remove draft
            </Button>
          )}
        </div>
      </section>
      <section className={styles.card} aria-label="Preview">
        <Field label="Target contact" required validationMessage={formError === 'target' ? problem : undefined}>
          <Combobox
            placeholder="Search contacts"
            value={target ? target.title : targetQuery}
            data-testid="play-target"
            onInput={(e) => {
              setTarget(null);
              setTargetQuery((e.target as HTMLInputElement).value);
            }}
            onOptionSelect={(_, d) => {
              const hit = contacts.data?.find((c) => c.id === d.optionValue);
              if (hit) setTarget({ id: hit.id, title: hit.title });
            }}
          >
            {(contacts.data ?? []).map((c) => (
              <Option key={c.id} value={c.id} text={c.title}>{`${c.title} — ${c.subtitle}`}</Option>
            ))}
          </Combobox>
        </Field>
        <Button icon={<EyeRegular />} onClick={() => void runPreview()} disabled={busy !== null} data-testid="play-preview">
          {busy === 'preview' ? 'Writing…' : 'Preview'}
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
                <div
                  className={styles.why}
                >{`Model: ${preview.model ?? 'none (template)'}\n\n${preview.renderedPrompt}\n\n${preview.values.map((v) => `${v.label}: ${v.value}`).join('\n')}`}</div>
              </details>
            </>
          ) : (
            <Text className={styles.muted}>Pick a contact and press Preview to see the email this play writes.</Text>
          )}
        </div>
      </section>
    </div>
  );
}
