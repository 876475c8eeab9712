import { FormGroup, InputGroup, type InputGroupProps, Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

export interface TextFieldProps extends Omit<InputGroupProps, 'name' | 'onChange' | 'onBlur' | 'inputRef'> {
  label: string;
  registration: UseFormRegisterReturn;
  /** A translation key of the validation namespace or plain text from the form's resolver. */
  error?: string | undefined;
  helperText?: ReactNode;
  /** Marks the label with "(required)" for screen readers and sighted users alike. */
  required?: boolean;
}

/**
 * A labelled text input bound to react-hook-form, with its error shown under
 * it and announced (aria-invalid, aria-describedby).
 */
export function TextField({ label, registration, error, helperText, required, id, ...input }: TextFieldProps) {
  const { t } = useTranslation();
  const fieldId = id ?? `field-${registration.name}`;
  const message = error ? t(error, { defaultValue: error }) : undefined;
  const { ref, ...handlers } = registration;
  return (
    <FormGroup
      label={label}
      labelFor={fieldId}
      labelInfo={required ? t('common:form.required') : undefined}
      helperText={message ?? helperText}
      intent={message ? Intent.DANGER : Intent.NONE}
    >
      <InputGroup
        id={fieldId}
        inputRef={ref}
        {...handlers}
        {...input}
        intent={message ? Intent.DANGER : Intent.NONE}
        aria-invalid={message ? true : undefined}
        aria-describedby={message || helperText ? `${fieldId}-helper` : undefined}
      />
    </FormGroup>
  );
}
