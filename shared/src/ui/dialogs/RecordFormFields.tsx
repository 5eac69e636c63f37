// The input groups of the company and contact dialogs. The same groups serve the dialog's own
// record and the 'new linked' record inside the other dialog, so both follow the same rules
// (spec 002 §5: 'validated by the same rules').
import { useState, type ReactNode } from 'react';
import { Button, Field, Input, Radio, RadioGroup, Text, makeStyles, tokens } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import { companyProblems, contactProblems, type CompanyFields, type ContactFields } from '../../domain';
import type { SearchHit } from '../../contracts';
import { RecordPicker } from './RecordPicker';

export interface CompanyDraft {
  name: string;
  website: string;
}
export interface ContactDraft {
  firstName: string;
  lastName: string;
  email: string;
}
export const emptyCompany = (): CompanyDraft => ({ name: '', website: '' });
export const emptyContact = (): ContactDraft => ({ firstName: '', lastName: '', email: '' });

export type CompanyErrors = ReturnType<typeof companyProblems>;
export type ContactErrors = ReturnType<typeof contactProblems>;

export const trimCompany = (c: CompanyFields): CompanyDraft => ({ name: (c.name ?? '').trim(), website: (c.website ?? '').trim() });
export const trimContact = (c: ContactFields): ContactDraft => ({
  firstName: (c.firstName ?? '').trim(),
  lastName: (c.lastName ?? '').trim(),
  email: (c.email ?? '').trim(),
});

const useStyles = makeStyles({
  group: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, '@media (max-width: 360px)': { flexDirection: 'column' } },
  grow: { flexGrow: 1, flexBasis: 0, minWidth: 0 },
  linked: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingVerticalS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  picked: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  pickedTexts: { display: 'flex', flexDirection: 'column', minWidth: 0, flexGrow: 1 },
  sub: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  radios: { flexWrap: 'wrap' },
});

export function CompanyFieldsGroup({
  value,
  onChange,
  errors,
  prefix,
  disabled,
  autoFocus,
}: {
  value: CompanyDraft;
  onChange: (v: CompanyDraft) => void;
  errors: Partial<Record<string, string>>;
  prefix: string;
  disabled?: boolean;
  autoFocus?: boolean;
}) {
  const styles = useStyles();
  return (
    <div className={styles.group}>
      <Field label="Company name" required validationMessage={errors.name} data-testid={`${prefix}-name-field`}>
        <Input
          value={value.name}
          onChange={(_, d) => onChange({ ...value, name: d.value })}
          readOnly={disabled}
          autoFocus={autoFocus}
          data-testid={`${prefix}-name`}
        />
      </Field>
      <Field label="Website" required validationMessage={errors.website} data-testid={`${prefix}-website-field`}>
        <Input
          value={value.website}
          placeholder="example.com"
          onChange={(_, d) => onChange({ ...value, website: d.value })}
          readOnly={disabled}
          data-testid={`${prefix}-website`}
        />
      </Field>
    </div>
  );
}

export function ContactFieldsGroup({
  value,
  onChange,
  errors,
  prefix,
  disabled,
  autoFocus,
}: {
  value: ContactDraft;
  onChange: (v: ContactDraft) => void;
  errors: Partial<Record<string, string>>;
  prefix: string;
  disabled?: boolean;
  autoFocus?: boolean;
}) {
  const styles = useStyles();
  return (
    <div className={styles.group}>
      <div className={styles.row}>
        <Field
          className={styles.grow}
          label="First name"
          required
          validationMessage={errors.firstName}
          data-testid={`${prefix}-first-name-field`}
        >
          <Input
            value={value.firstName}
            onChange={(_, d) => onChange({ ...value, firstName: d.value })}
            readOnly={disabled}
            autoFocus={autoFocus}
            data-testid={`${prefix}-first-name`}
          />
        </Field>
        <Field
          className={styles.grow}
          label="Last name"
          required
          validationMessage={errors.lastName}
          data-testid={`${prefix}-last-name-field`}
        >
          <Input
            value={value.lastName}
            onChange={(_, d) => onChange({ ...value, lastName: d.value })}
            readOnly={disabled}
            data-testid={`${prefix}-last-name`}
          />
        </Field>
      </div>
      <Field label="Email" required validationMessage={errors.email} data-testid={`${prefix}-email-field`}>
        <Input
          type="email"
          value={value.email}
          placeholder="name@company.com"
          onChange={(_, d) => onChange({ ...value, email: d.value })}
          readOnly={disabled}
          data-testid={`${prefix}-email`}
        />
      </Field>
    </div>
  );
}

export type LinkMode = 'none' | 'new' | 'existing';

export interface PickedRecord {
  id: string;
  title: string;
  subtitle?: string;
}

export const pickedFromHit = (hit: SearchHit): PickedRecord => ({ id: hit.id, title: hit.title, subtitle: hit.subtitle });

/**
 * 'Linked contact' / 'Linked company' part of a dialog: nothing, a new record (its input group) or
 * an existing one (search picker). `allowNew` is false when editing (the update links existing
 * records only).
 */
export function LinkedRecordSection(props: {
  entityType: 'company' | 'contact';
  mode: LinkMode;
  onModeChange: (m: LinkMode) => void;
  allowNew: boolean;
  picked: PickedRecord | null;
  onPick: (p: PickedRecord | null) => void;
  /** The input group of a new record. */
  newForm: ReactNode;
  /** Records that cannot be picked (already linked). */
  disabledIds?: ReadonlySet<string>;
  pickError?: string;
  prefix: string;
  disabled?: boolean;
}) {
  const styles = useStyles();
  const [picking, setPicking] = useState(false);
  const noun = props.entityType === 'company' ? 'company' : 'contact';
  return (
    <div className={styles.linked} data-testid={`${props.prefix}-linked`}>
      <Field label={props.entityType === 'company' ? 'Linked company' : 'Linked contact'}>
        <RadioGroup
          layout="horizontal"
          className={styles.radios}
          value={props.mode}
          disabled={props.disabled}
          onChange={(_, d) => props.onModeChange(d.value as LinkMode)}
          data-testid={`${props.prefix}-link-mode`}
        >
          <Radio value="none" label="None" data-testid={`${props.prefix}-link-none`} />
          {props.allowNew && <Radio value="new" label="New" data-testid={`${props.prefix}-link-new`} />}
          <Radio value="existing" label="Existing" data-testid={`${props.prefix}-link-existing`} />
        </RadioGroup>
      </Field>
      {props.mode === 'new' && props.newForm}
      {props.mode === 'existing' && (
        <Field validationMessage={props.pickError}>
          {props.picked && !picking ? (
            <div className={styles.picked} data-testid={`${props.prefix}-picked`} data-id={props.picked.id}>
              <div className={styles.pickedTexts}>
                <Text weight="semibold" truncate wrap={false}>
                  {props.picked.title}
                </Text>
                {props.picked.subtitle && (
                  <Text className={styles.sub} truncate wrap={false}>
                    {props.picked.subtitle}
                  </Text>
                )}
              </div>
              <Button
                appearance="subtle"
                size="small"
                icon={<DismissRegular />}
                aria-label={`Change the linked ${noun}`}
                disabled={props.disabled}
                onClick={() => {
                  props.onPick(null);
                  setPicking(true);
                }}
                data-testid={`${props.prefix}-picked-clear`}
              />
            </div>
          ) : (
            <RecordPicker
              entityType={props.entityType}
              placeholder={`Search for a ${noun}`}
              disabledIds={props.disabledIds}
              onPick={(hit) => {
                props.onPick(pickedFromHit(hit));
                setPicking(false);
              }}
              data-testid={`${props.prefix}-picker`}
            />
          )}
        </Field>
      )}
    </div>
  );
}
