// The LLM Prompt / AI Agent / Deep Research Agent editor (spec 001 §2 'Enrichment editor', §4
// 'Enrichment editor', §5 'Enrichment form', §9): 'Enrichment Name *', the AI Model (the
// organization's default or a model), the objective prompt with its '/' menu, the Response
// Structure (generated from the prompt after a 1 s pause; editable), the field to fill and whether
// the enrichment is its primary one, and a colour. Saving is blocked while the schema is generating
// or until it is ready. Submit creates or updates, then closes.
import { useEffect, useMemo, useRef, useState, type ComponentProps } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Label,
  MessageBar,
  MessageBarBody,
  Select,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular } from '@fluentui/react-icons';
import type { EnrichmentConfigDto, EnrichmentDto, FieldDto, PromptInput } from '../../contracts';
import {
  DEFAULT_LLM_MODEL_ID,
  ENRICHMENT_FORM_MESSAGES,
  PROMPT_GENERATION_DEBOUNCE_MS,
  canSaveEnrichment,
  defaultSchemaItem,
  enrichmentFormErrors,
  isHiddenDataType,
  generatedColumnToItem,
  hasFormErrors,
  promptIsEmpty,
  promptToText,
  type EnrichmentColor,
  type FormSchemaItem,
  type PromptNode,
  type PromptState,
} from '../../domain';
import { useApi, queryKeys } from '../ApiContext';
import { usePluginMode } from '../PluginMode';
import { useNotify } from '../toast';
import { serverMessage } from '../server-message';
import { PromptEditor } from './PromptEditor';
import { SchemaEditor } from './SchemaEditor';
import { ColorPalette } from './ColorPalette';
import { enrichmentKeys } from './keys';
import { useEnrichmentLlm } from './useEnrichmentLlm';
import { useLlmModels } from './useLlmModels';

/** Wide enough for the schema cards beside nothing else; full width under a plugin. */
export const EDITOR_WIDTH = 720;

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap', alignItems: 'flex-end' },
  grow: { flexGrow: 1, minWidth: '200px' },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  sectionHead: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  placeholder: {
    padding: tokens.spacingVerticalL,
    textAlign: 'center',
    color: tokens.colorNeutralForeground3,
    border: `${tokens.strokeWidthThin} dashed ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  error: { color: tokens.colorPaletteRedForeground1, fontSize: tokens.fontSizeBase200 },
  status: {
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    display: 'inline-flex',
    alignItems: 'center',
    gap: '4px',
  },
});

/** A stored prompt (text or nodes) as editor nodes. */
export function promptNodesOf(prompt: PromptInput | null | undefined): PromptNode[] {
  if (!prompt) return [];
  if (typeof prompt === 'string') return prompt ? [{ type: 'text', text: prompt }] : [];
  return prompt.map((n): PromptNode => {
    if (n.type === 'text') return { type: 'text', text: n.text };
    if (n.type === 'field-box')
      return { type: 'field-box', id: n.id, fieldId: n.fieldId, autorun: n.autorun ?? false, required: n.required ?? false };
    return {
      type: 'enrich-box',
      id: n.id,
      enrichmentId: n.enrichmentId,
      path: n.path ?? '$.result',
      autorun: n.autorun ?? false,
      required: n.required ?? false,
    };
  });
}

export interface EnrichmentEditorProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The type being created (llm, agent, deepresearchagent) — or the edited enrichment's config. */
  config: EnrichmentConfigDto;
  entityType: 'company' | 'contact';
  /** Editing this enrichment (absent: a new one). */
  enrichment?: EnrichmentDto | null;
  /** Preselected field (e.g. the field picked in the Enrich popover). */
  initialFieldId?: string | null;
  onSaved?: (e: EnrichmentDto) => void;
}

export function EnrichmentEditor(props: EnrichmentEditorProps) {
  const { open, config, entityType, enrichment } = props;
  const pluginMode = usePluginMode();
  return (
    <Dialog open={open} modalType="modal" onOpenChange={(_, d) => props.onOpenChange(d.open)}>
      <DialogSurface
        style={{ width: pluginMode ? '100%' : `${EDITOR_WIDTH}px`, maxWidth: '100%', boxSizing: 'border-box' }}
        data-testid="enrichment-editor"
        data-enrichment-type={config.enrichmentType}
        aria-label={config.label}
      >
        {/* Mounted while open only, so every opening starts from the enrichment (or empty). */}
        {open && <EditorForm {...props} key={`${enrichment?.id ?? 'new'}:${config.id}:${entityType}`} />}
      </DialogSurface>
    </Dialog>
  );
}

/** The form's values, from the edited enrichment (or empty, with the preselected field). */
function useEnrichmentValues({ enrichment, initialFieldId }: EnrichmentEditorProps) {
  const editing = !!enrichment;
  const [name, setName] = useState(enrichment?.name ?? '');
  const nameTouched = useRef(editing);
  const [llmModelId, setLlmModelId] = useState(enrichment?.llmModelId ?? enrichment?.data.llmModelId ?? DEFAULT_LLM_MODEL_ID);
  const [prompt, setPrompt] = useState<PromptNode[]>(() => promptNodesOf(enrichment?.data.prompt));
  const [schema, setSchema] = useState<FormSchemaItem[]>(() =>
    enrichment?.data.schema.length ? enrichment.data.schema.map((s) => ({ ...s, expanded: false })) : [],
  );
  const schemaTouched = useRef(editing);
  const [fieldId, setFieldId] = useState<string | null>(
    enrichment?.entityFieldId ?? enrichment?.data.fieldIdToAssign ?? initialFieldId ?? null,
  );
  const [isPrimary, setIsPrimary] = useState<boolean>(enrichment ? enrichment.isPrimary || enrichment.data.isFieldPrimary : true);
  const [color, setColor] = useState<EnrichmentColor | null>(enrichment?.color ?? enrichment?.data.color ?? null);
  return {
    ...{ name, setName, nameTouched, llmModelId, setLlmModelId, prompt, setPrompt, schema, setSchema, schemaTouched },
    ...{ fieldId, setFieldId, isPrimary, setIsPrimary, color, setColor },
  };
}
type EnrichmentValues = ReturnType<typeof useEnrichmentValues>;

/** The fields (to assign to, and to insert in the prompt) and the entity's other enrichments (to insert in the prompt). */
function useEditorSources(entityType: 'company' | 'contact', enrichmentId: string | undefined) {
  const api = useApi();
  const fieldsQuery = useQuery({
    queryKey: queryKeys.fields(entityType),
    queryFn: async () => (await api.fields.list(entityType)).fields,
    staleTime: 60_000,
  });
  const fields = fieldsQuery.data ?? [];
  const assignable = useMemo(
    () => fields.filter((f: FieldDto) => !f.builtIn && f.entityType === entityType).sort((a, b) => a.label.localeCompare(b.label)),
    [fields, entityType],
  );
  const others = useQuery({
    queryKey: enrichmentKeys.forEntity(entityType),
    queryFn: async () => (await api.enrichments.list({ entityType, take: 100 })).enrichments,
    staleTime: 30_000,
  });
  const otherEnrichments = useMemo(
    () => (others.data ?? []).filter((e) => e.id !== enrichmentId).map((e) => ({ id: e.id, name: e.name })),
    [others.data, enrichmentId],
  );
  const promptFields = useMemo(
    () => fields.filter((f) => f.entityType === entityType && !isHiddenDataType(f.dataType)).map((f) => ({ id: f.id, label: f.label })),
    [fields, entityType],
  );
  return { fields, assignable, otherEnrichments, promptFields };
}

/** A new enrichment is named prefix + next number until the user types a name. */
function useNextName(configId: string, editing: boolean, v: EnrichmentValues) {
  const api = useApi();
  const { nameTouched, setName } = v;
  useEffect(() => {
    if (editing) return;
    let live = true;
    api.enrichments
      .nextName(configId)
      .then((r) => {
        if (live && !nameTouched.current) setName(r.name);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api, configId, editing]);
}

/** The prompt, stringified, goes to schema generation after a 1 s pause (an opened enrichment is not regenerated). */
function useSchemaGeneration(o: {
  v: EnrichmentValues;
  editing: boolean;
  entityType: 'company' | 'contact';
  sources: ReturnType<typeof useEditorSources>;
}) {
  const { v, editing, entityType } = o;
  const { prompt, schema, llmModelId } = v;
  const llm = useEnrichmentLlm();
  const [promptState, setPromptState] = useState<PromptState>(editing ? 'ready' : 'idle');
  const [generationError, setGenerationError] = useState<string | null>(null);
  const [retry, setRetry] = useState(0);
  const labelOf = (n: { type: 'field-box'; fieldId: string } | { type: 'enrich-box'; enrichmentId: string }) =>
    n.type === 'field-box'
      ? (o.sources.fields.find((f) => f.id === n.fieldId)?.label ?? 'field')
      : (o.sources.otherEnrichments.find((e) => e.id === n.enrichmentId)?.name ?? 'enrichment');
  const promptText = promptToText(prompt, labelOf);
  // What the prompt says, independent of labels still loading (an opened enrichment is not regenerated).
  const promptKey = promptToText(prompt, (n) => (n.type === 'field-box' ? `f:${n.fieldId}` : `e:${n.enrichmentId}`));
  const generatedFor = useRef<string | null>(editing ? promptKey : null);
  const promptTextRef = useRef(promptText);
  promptTextRef.current = promptText;
  const request = useRef(0);
  useEffect(() => {
    if (promptIsEmpty(prompt)) {
      request.current += 1;
      setPromptState(editing && schema.length ? 'ready' : 'idle');
      return;
    }
    if (generatedFor.current === promptKey && retry === 0) return;
    setPromptState('generating');
    setGenerationError(null);
    const id = ++request.current;
    const t = setTimeout(() => {
      llm
        .generatePrompt(promptTextRef.current, { entityType, llmModelId })
        .then((g) => {
          if (id !== request.current) return;
          generatedFor.current = promptKey;
          if (!v.schemaTouched.current) {
            const item = generatedColumnToItem(g);
            v.setSchema([item ?? defaultSchemaItem()]);
          }
          if (!v.nameTouched.current && g.enrichmentName?.trim()) v.setName(g.enrichmentName.trim());
          setPromptState('ready');
        })
        .catch((e: unknown) => {
          if (id !== request.current) return;
          setGenerationError(serverMessage(e) ?? 'Could not generate the schema. Please try again.');
          setPromptState('error');
        });
    }, PROMPT_GENERATION_DEBOUNCE_MS);
    return () => clearTimeout(t);
    // The text is what matters (box ids and options do not change the schema).
  }, [promptKey, retry]);
  return { promptText, promptState, generationError, onRetry: () => setRetry((r) => r + 1) };
}

/** Validation (shown once submitted) and the save: create or update, then the enrichment and field lists are read again. */
function useSaveEnrichment(props: EnrichmentEditorProps, v: EnrichmentValues, promptState: PromptState) {
  const { config, entityType, enrichment, onOpenChange, onSaved } = props;
  const api = useApi();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const { name, prompt, schema, fieldId } = v;
  const values = { name, prompt, schema };
  const errors = enrichmentFormErrors(values);
  const canSave = canSaveEnrichment(values, promptState) && !saving;

  const save = async () => {
    setSubmitted(true);
    if (hasFormErrors(errors) || promptState !== 'ready') return;
    setSaving(true);
    setSaveError(null);
    try {
      const body = {
        configId: config.id,
        entityType,
        name: name.trim(),
        llmModelId: v.llmModelId,
        prompt,
        schema: schema.map(({ expanded: _e, ...s }) => s),
        color: v.color,
        fieldIdToAssign: fieldId,
        isFieldPrimary: fieldId ? v.isPrimary : false,
      };
      const res = enrichment ? await api.enrichments.update({ ...body, id: enrichment.id }) : await api.enrichments.create(body);
      notify.success(res.message);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: enrichmentKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['fields'] }),
      ]);
      onSaved?.(res.enrichment);
      onOpenChange(false);
    } catch (e) {
      setSaveError(serverMessage(e) ?? 'Could not save the enrichment.');
    } finally {
      setSaving(false);
    }
  };
  return { submitted, saving, saveError, errors, canSave, save };
}

function EditorForm(props: EnrichmentEditorProps) {
  const { config, entityType, enrichment, onOpenChange } = props;
  const styles = useStyles();
  const llm = useEnrichmentLlm();
  const editing = !!enrichment;
  const v = useEnrichmentValues(props);
  const sources = useEditorSources(entityType, enrichment?.id);
  useNextName(config.id, editing, v);
  const gen = useSchemaGeneration({ v, editing, entityType, sources });
  const { promptState } = gen;
  const { submitted, saving, saveError, errors, canSave, save } = useSaveEnrichment(props, v, promptState);
  const { prompt, schema } = v;

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <DialogBody>
        <DialogTitle>
          {editing ? `Edit ${config.label}` : `New ${config.label}`} · {entityType === 'company' ? 'Company' : 'Contact'}
        </DialogTitle>
        <DialogContent className={styles.content}>
          <NameAndModel v={v} nameError={submitted ? errors.name : undefined} />
          <div className={styles.section}>
            <Label required>Objective</Label>
            <PromptEditor
              value={prompt}
              onChange={v.setPrompt}
              fields={sources.promptFields}
              enrichments={sources.otherEnrichments}
              placeholder={`Describe what to find out about each ${entityType}. Type / to insert a field.`}
              invalid={submitted && !!errors.prompt}
              aria-label="Objective prompt"
            />
            {submitted && errors.prompt && (
              <Text className={styles.error} role="alert">
                {errors.prompt}
              </Text>
            )}
          </div>
          <ResponseStructure
            {...{ v, promptState, generationError: gen.generationError, onRetry: gen.onRetry }}
            schemaError={submitted && errors.schema && schema.length === 0 ? errors.schema : undefined}
            generateColumn={(hint) =>
              llm.generateColumn(hint, { prompt: gen.promptText, existingNames: schema.map((s) => s.name), llmModelId: v.llmModelId })
            }
          />
          <AssignField v={v} entityType={entityType} assignable={sources.assignable} enrichmentId={enrichment?.id} />
          <div className={styles.section}>
            <Label>Colour</Label>
            <ColorPalette value={v.color} onChange={v.setColor} />
          </div>
          {saveError && (
            <MessageBar intent="error" data-testid="enrichment-save-error">
              <MessageBarBody>{saveError}</MessageBarBody>
            </MessageBar>
          )}
        </DialogContent>
        <DialogActions fluid style={{ justifyContent: 'flex-end', marginTop: 8 }}>
          <Button appearance="secondary" disabled={saving} onClick={() => onOpenChange(false)} data-testid="enrichment-cancel">
            Cancel
          </Button>
          <Button
            appearance="primary"
            type="submit"
            disabled={!canSave && (promptState !== 'ready' || saving)}
            icon={saving ? <Spinner aria-hidden size="tiny" /> : undefined}
            data-testid="enrichment-save"
          >
            {editing ? 'Save' : 'Create'}
          </Button>
        </DialogActions>
      </DialogBody>
    </form>
  );
}

/** The name and the AI model. */
function NameAndModel({ v, nameError }: { v: EnrichmentValues; nameError: string | undefined }) {
  const styles = useStyles();
  const models = useLlmModels();
  return (
    <div className={styles.row}>
      <Field label="Enrichment Name *" className={styles.grow} validationMessage={nameError}>
        <Input
          value={v.name}
          onChange={(_, d) => {
            v.nameTouched.current = true;
            v.setName(d.value);
          }}
          maxLength={200}
          data-testid="enrichment-name"
        />
      </Field>
      <Field label="AI Model">
        <Select value={v.llmModelId} onChange={(_, d) => v.setLlmModelId(d.value)} data-testid="enrichment-model">
          <option value={DEFAULT_LLM_MODEL_ID}>{models.defaultName ? `Default (${models.defaultName})` : 'Default'}</option>
          {models.models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </Select>
      </Field>
    </div>
  );
}

/** The response structure: generating, its error with Retry, the placeholder or the schema editor. */
function ResponseStructure(props: {
  v: EnrichmentValues;
  promptState: PromptState;
  generationError: string | null;
  onRetry: () => void;
  schemaError: string | undefined;
  generateColumn: ComponentProps<typeof SchemaEditor>['generateColumn'];
}) {
  const { v } = props;
  const styles = useStyles();
  return (
    <div className={styles.section}>
      <div className={styles.sectionHead}>
        <Label>Response Structure</Label>
        {props.promptState === 'generating' && (
          <span className={styles.status} data-testid="schema-generating">
            <Spinner size="extra-tiny" aria-hidden /> Generating schema…
          </span>
        )}
      </div>
      {props.generationError && (
        <MessageBar intent="error" data-testid="schema-generation-error">
          <MessageBarBody>{props.generationError}</MessageBarBody>
          <Button size="small" appearance="transparent" icon={<ArrowClockwiseRegular />} onClick={props.onRetry}>
            Retry
          </Button>
        </MessageBar>
      )}
      {v.schema.length === 0 ? (
        <div className={styles.placeholder} data-testid="schema-placeholder">
          {ENRICHMENT_FORM_MESSAGES.schemaPlaceholder}
        </div>
      ) : (
        <SchemaEditor
          items={v.schema}
          onChange={(s) => {
            v.schemaTouched.current = true;
            v.setSchema(s);
          }}
          generateColumn={props.generateColumn}
        />
      )}
      {props.schemaError && (
        <Text className={styles.error} role="alert">
          {props.schemaError}
        </Text>
      )}
    </div>
  );
}

/** The field the results fill, and whether this enrichment is its primary one. */
function AssignField(props: {
  v: EnrichmentValues;
  entityType: 'company' | 'contact';
  assignable: FieldDto[];
  enrichmentId: string | undefined;
}) {
  const { v, assignable } = props;
  const { fieldId } = v;
  const styles = useStyles();
  const selectedField = assignable.find((f) => f.id === fieldId);
  const fieldHasPrimary = !!selectedField?.assignedEnrichments.some((a) => a.isPrimary && a.id !== props.enrichmentId);
  return (
    <div className={styles.row}>
      <Field
        label="Assign to field"
        className={styles.grow}
        hint={assignable.length === 0 ? `No custom ${props.entityType} fields yet.` : undefined}
      >
        <Select value={fieldId ?? ''} onChange={(_, d) => v.setFieldId(d.value || null)} data-testid="enrichment-field">
          <option value="">(No field)</option>
          {assignable.map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
            </option>
          ))}
        </Select>
      </Field>
      <Checkbox
        label={fieldHasPrimary ? 'Primary for this field (replaces the current one)' : 'Primary for this field'}
        checked={!!fieldId && v.isPrimary}
        disabled={!fieldId}
        onChange={(_, d) => v.setIsPrimary(!!d.checked)}
        data-testid="enrichment-primary"
      />
    </div>
  );
}
