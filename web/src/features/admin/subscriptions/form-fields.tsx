import { Checkbox, FormGroup, HTMLSelect, Intent } from '@blueprintjs/core';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/** A labelled native select bound to react-hook-form. */
export function SelectField({
  label,
  registration,
  options,
  error,
  helperText,
}: {
  label: string;
  registration: UseFormRegisterReturn;
  options: Array<{ value: string; label: string }>;
  error?: string | undefined;
  helperText?: string;
}) {
  const { t } = useTranslation();
  const id = `field-${registration.name}`;
  const message = error ? t(error, { defaultValue: error }) : undefined;
  return (
    <FormGroup
      label={label}
      labelFor={id}
      helperText={message ?? helperText}
      intent={message ? Intent.DANGER : Intent.NONE}
    >
      <HTMLSelect id={id} fill {...registration} options={options} />
    </FormGroup>
  );
}

/** A checkbox bound to react-hook-form. */
export function CheckField({ label, registration }: { label: string; registration: UseFormRegisterReturn }) {
  const { ref, ...rest } = registration;
  return <Checkbox inputRef={ref} {...rest} label={label} />;
}
