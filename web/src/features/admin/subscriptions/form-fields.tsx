import { Checkbox, FormGroup, HTMLSelect, Intent } from '@blueprintjs/core';
import type { FieldErrors, UseFormRegister, UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../shared/ui/text-field.js';
import { gbUnit } from '../../billing/billing-format.js';

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

/** The limit fields a template and a subscription share (empty: the configured default). */
export interface LimitValues {
  maxProjects: string;
  maxInputFileGb: string;
  maxStorageGb: string;
}

/** The three limits of a template or a subscription, in one row of the form grid. */
export function LimitFields<V extends LimitValues>({
  register,
  errors,
}: {
  register: UseFormRegister<V>;
  errors: FieldErrors<V>;
}) {
  const { t, i18n } = useTranslation();
  // The three keys exist on every V (V extends LimitValues); react-hook-form's path types cannot see it through a generic.
  const reg = register as unknown as UseFormRegister<LimitValues>;
  const e = errors as FieldErrors<LimitValues>;
  const unit = <span className="nu-unit">{gbUnit(i18n.language)}</span>;
  return (
    <div className="nu-form-grid">
      <TextField
        label={t('billing:fields.maxProjects')}
        registration={reg('maxProjects')}
        error={e.maxProjects?.message}
        helperText={t('billing:fields.emptyDefault')}
        inputMode="numeric"
      />
      <TextField
        label={t('billing:fields.maxInputFileBytes')}
        registration={reg('maxInputFileGb')}
        error={e.maxInputFileGb?.message}
        helperText={t('billing:fields.emptyDefault')}
        inputMode="decimal"
        rightElement={unit}
      />
      <TextField
        label={t('billing:fields.maxStorageBytes')}
        registration={reg('maxStorageGb')}
        error={e.maxStorageGb?.message}
        helperText={t('billing:fields.emptyDefault')}
        inputMode="decimal"
        rightElement={unit}
      />
    </div>
  );
}
