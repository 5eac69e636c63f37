// The organization's currencies (admin, /organization/settings):
// the default currency of currency fields (PUT /organization/currency; USD until an admin picks
// one) and, per currency field, its own currency or the default (PUT /entity/set-config). Every
// table, drawer and export follows at once: the fields' queries are re-read here, and other
// users' open screens get the realtime 'entity.fields.changed' event.
import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Field, Select, Spinner, Subtitle1, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { FieldDto } from '../../contracts';
import { DEFAULT_CURRENCY, currencyCodes, currencyLabel } from '../../domain';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { serverMessage } from '../server-message';
import { ORGANIZATION_DETAILS_KEY } from '../llm/AiProviderCard';

export const CURRENCY_SETTINGS_TEXT = {
  title: 'Currency',
  intro: 'Values of Currency fields are shown in their currency in tables, drawers and the side panels.',
  defaultCurrency: 'Default currency',
  defaultHint: 'For every Currency field that has no currency of its own.',
  fields: 'Currency fields',
  noFields: 'No Currency fields yet. Create one with New Field in the companies or contacts table.',
  organizationDefault: (code: string) => `Organization default (${code})`,
  saveFailed: 'Could not save the currency. Please try again.',
} as const;

const ENTITY_LABEL: Record<string, string> = { company: 'Company', contact: 'Contact' };

const useStyles = makeStyles({
  section: {
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
    padding: '16px 20px',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
  },
  row: { display: 'flex', alignItems: 'flex-end', gap: '12px', flexWrap: 'wrap' },
  select: { minWidth: '300px' },
  muted: { color: tokens.colorNeutralForeground2 },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '8px' },
  item: { display: 'flex', alignItems: 'center', gap: '12px', flexWrap: 'wrap' },
  fieldName: { minWidth: '220px', display: 'flex', flexDirection: 'column' },
});

export function CurrencySettingsCard() {
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const org = useQuery({
    queryKey: ORGANIZATION_DETAILS_KEY,
    queryFn: async () => (await api.organization.get()).organization,
    staleTime: 60_000,
  });
  const fields = useQuery({ queryKey: ['fields', 'all'], queryFn: async () => (await api.fields.list()).fields, staleTime: 60_000 });
  const current = (org.data as { defaultCurrency?: string } | undefined)?.defaultCurrency ?? DEFAULT_CURRENCY;
  const [choice, setChoice] = useState(current);
  useEffect(() => setChoice(current), [current]);
  const codes = useMemo(() => currencyCodes(), []);
  const currencyFields = useMemo(
    () =>
      (fields.data ?? [])
        .filter((f: FieldDto) => f.dataType === 'currency')
        .sort((a, b) => a.entityType.localeCompare(b.entityType) || a.label.localeCompare(b.label)),
    [fields.data],
  );

  const refetchFields = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: ['fields'] }), queryClient.invalidateQueries({ queryKey: ['filter-fields'] })]);
  const saveDefault = useMutation({
    mutationFn: () => api.organization.setDefaultCurrency(choice),
    onSuccess: async (res) => {
      queryClient.setQueryData(ORGANIZATION_DETAILS_KEY, (old: object | undefined) =>
        old ? { ...old, defaultCurrency: res.defaultCurrency } : old,
      );
      notify.success(res.message);
      await refetchFields();
    },
    onError: (e) => notify.error(serverMessage(e) ?? CURRENCY_SETTINGS_TEXT.saveFailed),
  });
  const saveField = useMutation({
    mutationFn: ({ fieldId, currency }: { fieldId: string; currency: string | null }) =>
      api.fields.setConfig({ fieldId, config: { currency } }),
    onSuccess: async (res) => {
      notify.success(res.message);
      await refetchFields();
    },
    onError: (e) => notify.error(serverMessage(e) ?? CURRENCY_SETTINGS_TEXT.saveFailed),
  });

  if (org.isPending) return <Spinner size="tiny" label="Loading…" />;

  return (
    <section className={styles.section} aria-label={CURRENCY_SETTINGS_TEXT.title} data-testid="currency-settings">
      <Subtitle1 as="h2" block>
        {CURRENCY_SETTINGS_TEXT.title}
      </Subtitle1>
      <Text className={styles.muted}>{CURRENCY_SETTINGS_TEXT.intro}</Text>
      <div className={styles.row}>
        <Field label={CURRENCY_SETTINGS_TEXT.defaultCurrency} hint={CURRENCY_SETTINGS_TEXT.defaultHint} className={styles.select}>
          <Select value={choice} onChange={(_, d) => setChoice(d.value)} disabled={saveDefault.isPending} data-testid="currency-default">
            {codes.map((c) => (
              <option key={c} value={c}>
                {currencyLabel(c)}
              </option>
            ))}
          </Select>
        </Field>
        <Button
          appearance="primary"
          disabled={choice === current || saveDefault.isPending}
          icon={saveDefault.isPending ? <Spinner aria-hidden size="tiny" /> : undefined}
          onClick={() => saveDefault.mutate()}
          data-testid="currency-default-save"
        >
          Save
        </Button>
      </div>
      <Subtitle1 as="h3" block>
        {CURRENCY_SETTINGS_TEXT.fields}
      </Subtitle1>
      {fields.isPending ? (
        <Spinner size="tiny" label="Loading…" />
      ) : currencyFields.length === 0 ? (
        <Text className={styles.muted} data-testid="currency-fields-empty">
          {CURRENCY_SETTINGS_TEXT.noFields}
        </Text>
      ) : (
        <ul className={styles.list} data-testid="currency-fields">
          {currencyFields.map((f) => (
            <li key={f.id} className={styles.item} data-testid="currency-field" data-field-id={f.id}>
              <span className={styles.fieldName}>
                <Text weight="semibold">{f.label}</Text>
                <Text size={200} className={styles.muted}>
                  {ENTITY_LABEL[f.entityType] ?? f.entityType}
                </Text>
              </span>
              <Select
                aria-label={`Currency of ${f.label}`}
                className={styles.select}
                value={f.config.currency ?? ''}
                disabled={saveField.isPending}
                onChange={(_, d) => saveField.mutate({ fieldId: f.id, currency: d.value || null })}
                data-testid="currency-field-select"
              >
                <option value="">{CURRENCY_SETTINGS_TEXT.organizationDefault(current)}</option>
                {codes.map((c) => (
                  <option key={c} value={c}>
                    {currencyLabel(c)}
                  </option>
                ))}
              </Select>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
