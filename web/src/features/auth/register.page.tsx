import { Button, Callout, Intent } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { normalizeLanguage } from '../../app/i18n.js';
import { ROUTES } from '../../app/route-paths.js';
import { isApiError } from '../../shared/api/api-error.js';
import { ErrorCallout } from '../../shared/ui/error-callout.js';
import { PasswordField } from '../../shared/ui/password-field.js';
import { applyServerFieldErrors } from '../../shared/ui/server-field-errors.js';
import { TextField } from '../../shared/ui/text-field.js';
import { register as registerAccount, resendActivationMail } from './auth.api.js';
import { type RegisterValues, registerSchema } from './auth.schemas.js';
import { AuthCard } from './auth-card.js';
import { ProfileFields } from './profile-fields.js';

/** Sign-up (route auth/register): the registration payload of spec §3, checked with the §5 rules. */
export function RegisterPage() {
  const { t, i18n } = useTranslation();
  const [error, setError] = useState<unknown>(null);
  const [sent, setSent] = useState<{ email: string; mailed: boolean } | null>(null);
  const [resend, setResend] = useState<{ busy: boolean; error: unknown; done: boolean }>({
    busy: false,
    error: null,
    done: false,
  });
  const {
    register,
    handleSubmit,
    control,
    setError: setFieldError,
    formState: { errors, isSubmitting },
  } = useForm<RegisterValues>({
    resolver: zodResolver(registerSchema),
    mode: 'onTouched',
    defaultValues: {
      username: '',
      password: '',
      confirmPassword: '',
      firstname: '',
      lastname: '',
      company: '',
      country: '',
    },
  });

  const onSubmit = handleSubmit(async ({ confirmPassword: _, company, ...values }) => {
    setError(null);
    try {
      const { activationMailSent } = await registerAccount({
        ...values,
        ...(company ? { company } : {}),
        preferLanguage: normalizeLanguage(i18n.language),
      });
      setSent({ email: values.username, mailed: activationMailSent });
    } catch (err) {
      applyServerFieldErrors(err, setFieldError, {
        username: 'username',
        password: 'password',
        firstname: 'firstname',
        lastname: 'lastname',
        company: 'company',
        country: 'country',
      });
      if (isApiError(err) && err.code === 'ACCOUNT_EXISTS') {
        setFieldError('username', { type: 'server', message: 'errors:ACCOUNT_EXISTS' });
      }
      setError(err);
    }
  });

  const sendAgain = async () => {
    if (!sent) return;
    setResend({ busy: true, error: null, done: false });
    try {
      await resendActivationMail(sent.email);
      setResend({ busy: false, error: null, done: true });
    } catch (err) {
      setResend({ busy: false, error: err, done: false });
    }
  };

  if (sent) {
    return (
      <AuthCard title={t('auth:register.doneTitle')}>
        {sent.mailed || resend.done ? (
          <Callout intent={Intent.SUCCESS} icon="envelope" role="status" className="nu-callout">
            {t('auth:register.done', { email: sent.email })}
          </Callout>
        ) : (
          <Callout intent={Intent.WARNING} role="alert" className="nu-callout">
            {t('auth:register.mailNotSent', { email: sent.email })}
          </Callout>
        )}
        <ErrorCallout error={resend.error} />
        <p>
          <Button variant="outlined" icon="envelope" loading={resend.busy} onClick={sendAgain}>
            {t('auth:register.resend')}
          </Button>
        </p>
        <Link to={ROUTES.auth_login}>{t('auth:backToLogin')}</Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('auth:register.title')}
      footer={
        <>
          {t('auth:register.haveAccount')} <Link to={ROUTES.auth_login}>{t('auth:register.login')}</Link>
        </>
      }
    >
      <ErrorCallout error={error} />
      <form onSubmit={onSubmit} noValidate aria-label={t('auth:register.title')}>
        <TextField
          label={t('auth:fields.email')}
          registration={register('username')}
          error={errors.username?.message}
          type="email"
          autoComplete="email"
          autoFocus
          required
        />
        <ProfileFields register={register} control={control} errors={errors} />
        <PasswordField
          label={t('auth:fields.password')}
          registration={register('password')}
          error={errors.password?.message}
          helperText={t('auth:fields.passwordHelp')}
          autoComplete="new-password"
          required
        />
        <PasswordField
          label={t('auth:fields.confirmPassword')}
          registration={register('confirmPassword')}
          error={errors.confirmPassword?.message}
          autoComplete="new-password"
          required
        />
        <Button type="submit" intent={Intent.PRIMARY} size="large" fill loading={isSubmitting}>
          {t('auth:register.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
