import { Button, Callout, Intent, NonIdealState } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import useSWR from 'swr';
import { PageSpinner } from '../../app/root-layout.js';
import { ROUTES } from '../../app/route-paths.js';
import { ApiError } from '../../shared/api/api-error.js';
import { errorMessage } from '../../shared/i18n/error-message.js';
import { ErrorCallout } from '../../shared/ui/error-callout.js';
import { PasswordField } from '../../shared/ui/password-field.js';
import { applyServerFieldErrors } from '../../shared/ui/server-field-errors.js';
import { useCountdown } from '../../shared/ui/use-countdown.js';
import { inspectMailToken, resetPassword } from './auth.api.js';
import { type ResetPasswordValues, resetPasswordSchema } from './auth.schemas.js';
import { AuthCard } from './auth-card.js';

/** Seconds before the browser goes to the login page after a successful reset. */
export const REDIRECT_DELAY_S = 5;

/**
 * Password reset (route reset-password-token, query value token): the link is
 * checked first, then the new password is asked, then a countdown leads to login.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const { remaining, start } = useCountdown(() => navigate(ROUTES.auth_login, { replace: true }));
  const link = useSWR(token ? ['reset-link', token] : null, () => inspectMailToken(token), {
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    shouldRetryOnError: false,
  });
  const {
    register,
    handleSubmit,
    setError: setFieldError,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordSchema),
    mode: 'onTouched',
    defaultValues: { password: '', confirmPassword: '' },
  });

  const title = t('auth:reset.title');
  // An activation link is not a reset link, even though the same endpoint reads both.
  const wrongPurpose = link.data !== undefined && link.data.purpose !== 'password_reset';
  if (!token || link.error || wrongPurpose) {
    const err = link.error ?? new ApiError(400, 'INVALID_RESET_LINK', 'missing token or not a reset link');
    return (
      <AuthCard title={title}>
        <NonIdealState
          icon="error"
          title={t('auth:reset.invalidTitle')}
          description={errorMessage(t, err)}
          action={<Link to={ROUTES.auth_forgotPwd}>{t('auth:reset.askAgain')}</Link>}
        />
      </AuthCard>
    );
  }
  if (!link.data) {
    return (
      <AuthCard title={title}>
        <PageSpinner />
      </AuthCard>
    );
  }

  if (done) {
    return (
      <AuthCard title={title}>
        <Callout intent={Intent.SUCCESS} role="status" className="nu-callout">
          {t('auth:reset.done')}
        </Callout>
        <p data-testid="redirect-countdown">{t('auth:redirectIn', { count: remaining })}</p>
        <Link to={ROUTES.auth_login}>{t('auth:goToLogin')}</Link>
      </AuthCard>
    );
  }

  const username = link.data.username;
  const onSubmit = handleSubmit(async ({ password }) => {
    setError(null);
    try {
      await resetPassword(username, password, token);
      setDone(true);
      start(REDIRECT_DELAY_S);
    } catch (err) {
      applyServerFieldErrors(err, setFieldError, { password: 'password' });
      setError(err);
    }
  });

  return (
    <AuthCard title={title}>
      <p>{t('auth:reset.intro', { email: username })}</p>
      <ErrorCallout error={error} />
      <form onSubmit={onSubmit} noValidate aria-label={title}>
        {/* Lets password managers file the new password under the right account. */}
        <input type="hidden" name="username" autoComplete="username" value={username} readOnly />
        <PasswordField
          label={t('auth:fields.newPassword')}
          registration={register('password')}
          error={errors.password?.message}
          helperText={t('auth:fields.passwordHelp')}
          autoComplete="new-password"
          autoFocus
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
          {t('auth:reset.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
