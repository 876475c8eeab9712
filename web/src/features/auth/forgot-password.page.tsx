import { Button, Callout, Intent } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROUTES } from '../../app/route-paths.js';
import { ErrorCallout } from '../../shared/ui/error-callout.js';
import { retryAfterSeconds } from '../../shared/ui/server-field-errors.js';
import { TextField } from '../../shared/ui/text-field.js';
import { useCountdown } from '../../shared/ui/use-countdown.js';
import { requestPasswordReset } from './auth.api.js';
import { type ForgotPasswordValues, forgotPasswordSchema } from './auth.schemas.js';
import { AuthCard } from './auth-card.js';

/** Seconds before a new reset mail may be asked for, after a failure or a sent mail. */
export const RESEND_DELAY_S = 30;

/** Forgotten password (route auth/forgotPwd): mails a reset link; a failure offers a resend after a countdown. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [error, setError] = useState<unknown>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { remaining, start } = useCountdown();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ForgotPasswordValues>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { username: '' } });

  const onSubmit = handleSubmit(async ({ username }) => {
    setError(null);
    try {
      await requestPasswordReset(username);
      setSentTo(username);
      start(RESEND_DELAY_S);
    } catch (err) {
      setError(err);
      // A failed mail comes with the server's wait (Retry-After); the button counts it down.
      start(retryAfterSeconds(err) ?? RESEND_DELAY_S);
    }
  });

  return (
    <AuthCard title={t('auth:forgot.title')} footer={<Link to={ROUTES.auth_login}>{t('auth:backToLogin')}</Link>}>
      {sentTo && !error ? (
        <Callout intent={Intent.SUCCESS} icon="envelope" role="status" className="nu-callout">
          {t('auth:forgot.sent', { email: sentTo })}
        </Callout>
      ) : (
        <p>{t('auth:forgot.intro')}</p>
      )}
      <ErrorCallout error={error} />
      <form onSubmit={onSubmit} noValidate aria-label={t('auth:forgot.title')}>
        <TextField
          label={t('auth:fields.email')}
          registration={register('username')}
          error={errors.username?.message}
          type="email"
          autoComplete="email"
          autoFocus
        />
        <Button type="submit" intent={Intent.PRIMARY} size="large" fill loading={isSubmitting} disabled={remaining > 0}>
          {remaining > 0
            ? t('auth:forgot.resendIn', { count: remaining })
            : sentTo || error
              ? t('auth:forgot.resend')
              : t('auth:forgot.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
