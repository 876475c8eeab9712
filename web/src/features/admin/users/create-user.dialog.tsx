import { Button, Dialog, DialogBody, DialogFooter, Intent, Radio, RadioGroup } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error.js';
import type { User } from '../../../shared/api/types.js';
import { ErrorCallout } from '../../../shared/ui/error-callout.js';
import { PasswordField } from '../../../shared/ui/password-field.js';
import { applyServerFieldErrors } from '../../../shared/ui/server-field-errors.js';
import { TextField } from '../../../shared/ui/text-field.js';
import { type CreateUserValues, createUserSchema } from '../../auth/auth.schemas.js';
import { createUser } from './users.api.js';

/** Admin dialog that creates an active account: email, password and role (spec §2). */
export function CreateUserDialog({
  isOpen,
  onClose,
  onCreated,
}: {
  isOpen: boolean;
  onClose: () => void;
  onCreated: (user: User) => void;
}) {
  const { t } = useTranslation();
  const [error, setError] = useState<unknown>(null);
  const {
    register,
    handleSubmit,
    control,
    reset,
    setError: setFieldError,
    formState: { errors, isSubmitting },
  } = useForm<CreateUserValues>({
    resolver: zodResolver(createUserSchema),
    mode: 'onTouched',
    defaultValues: { username: '', password: '', role: 'user' },
  });

  const close = () => {
    reset();
    setError(null);
    onClose();
  };

  const onSubmit = handleSubmit(async (v) => {
    setError(null);
    try {
      const user = await createUser(v.username, v.password, v.role);
      reset();
      onCreated(user);
    } catch (err) {
      applyServerFieldErrors(err, setFieldError, {
        'userJwt.username': 'username',
        'userJwt.password': 'password',
        username: 'username',
        password: 'password',
      });
      if (isApiError(err) && err.code === 'ACCOUNT_EXISTS') {
        setFieldError('username', { type: 'server', message: 'errors:ACCOUNT_EXISTS' });
      }
      setError(err);
    }
  });

  return (
    <Dialog isOpen={isOpen} onClose={close} title={t('admin:users.create.title')} icon="new-person">
      <form onSubmit={onSubmit} noValidate aria-label={t('admin:users.create.title')}>
        <DialogBody>
          <ErrorCallout error={error} />
          <TextField
            label={t('auth:fields.email')}
            registration={register('username')}
            error={errors.username?.message}
            type="email"
            autoComplete="off"
            autoFocus
            required
          />
          <PasswordField
            label={t('auth:fields.password')}
            registration={register('password')}
            error={errors.password?.message}
            helperText={t('auth:fields.passwordHelp')}
            autoComplete="new-password"
            required
          />
          <Controller
            control={control}
            name="role"
            render={({ field }) => (
              <RadioGroup
                label={t('admin:users.role')}
                inline
                name={field.name}
                selectedValue={field.value}
                onChange={(e) => field.onChange(e.currentTarget.value)}
              >
                <Radio value="user" label={t('admin:users.roles.user')} />
                <Radio value="admin" label={t('admin:users.roles.admin')} />
              </RadioGroup>
            )}
          />
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={close}>{t('common:actions.cancel')}</Button>
              <Button type="submit" intent={Intent.PRIMARY} loading={isSubmitting}>
                {t('admin:users.create.submit')}
              </Button>
            </>
          }
        />
      </form>
    </Dialog>
  );
}
