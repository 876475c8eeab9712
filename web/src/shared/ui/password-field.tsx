import { Button } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField, type TextFieldProps } from './text-field.js';

/** A password input with a show/hide button (kept out of the tab order's way: it follows the input). */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'rightElement'>) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <TextField
      {...props}
      type={shown ? 'text' : 'password'}
      rightElement={
        <Button
          variant="minimal"
          icon={shown ? 'eye-off' : 'eye-open'}
          aria-label={shown ? t('common:form.hidePassword') : t('common:form.showPassword')}
          aria-pressed={shown}
          onClick={() => setShown((s) => !s)}
        />
      }
    />
  );
}
