import { Field, Input } from '@fluentui/react-components';
import { passwordProblem } from '@dealscout/shared/domain';

/** Spec 002 §5: an upper-case letter, a lower-case letter and a digit, no spaces, at least 5 characters. */
export const PASSWORD_RULES_HINT = 'At least 5 characters with an upper-case letter, a lower-case letter and a digit; no spaces.';

export interface NewPasswordFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Show the problem even before the user typed (after a submit attempt). */
  showErrors: boolean;
  autoComplete?: string;
  'data-testid'?: string;
}

export function NewPasswordField(props: NewPasswordFieldProps) {
  const problem = passwordProblem(props.value);
  const show = props.showErrors || props.value.length > 0;
  return (
    <Field
      label={props.label}
      required
      hint={PASSWORD_RULES_HINT}
      validationState={show ? (problem ? 'error' : 'success') : 'none'}
      validationMessage={show ? (problem ?? 'Password meets the rules') : undefined}
    >
      <Input
        type="password"
        value={props.value}
        onChange={(_, d) => props.onChange(d.value)}
        autoComplete={props.autoComplete ?? 'new-password'}
        data-testid={props['data-testid']}
      />
    </Field>
  );
}
