import { Button, Callout, Intent, Radio, RadioGroup } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { afterLoginPath, ROUTES } from '../../app/route-paths.js';
import { useSession, useSessionStore } from '../../app/session-context.js';
import { REMEMBER_ME_DAYS } from '../../app/session-store.js';
import { isApiError } from '../../shared/api/api-error.js';
import { ErrorCallout } from '../../shared/ui/error-callout.js';
import { PasswordField } from '../../shared/ui/password-field.js';
import { retryAfterSeconds } from '../../shared/ui/server-field-errors.js';
import { TextField } from '../../shared/ui/text-field.js';
import { useCountdown } from '../../shared/ui/use-countdown.js';
import { resendActivationMail } from './auth.api.js';
import { type LoginValues, loginSchema } from './auth.schemas.js';
import { AuthCard } from './auth-card.js';

/** Login screen (route auth_login): email, password, remember me 7/30/90 days. */
export function LoginPage() {
  const { t } = useTranslation();
  const store = useSessionStore();
  const { user } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<unknown>(null);
  const [resend, setResend] = useState<{ busy: boolean; done: boolean; error: unknown }>({
    busy: false,
    done: false,
    error: null,
  });
  const wait = useCountdown();
  const forbidden = params.get('reason') === 'forbidden';
  const goBack = params.get('goBackToRouteFullPath');
  const {
    register,
    handleSubmit,
    control,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: '', password: '', rememberMeDays: 30 },
  });

  if (user && !forbidden && !isSubmitting) return <Navigate to={afterLoginPath(goBack)} replace />;

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    setResend({ busy: false, done: false, error: null });
    try {
      await store.login(values.username, values.password, values.rememberMeDays);
      navigate(afterLoginPath(goBack), { replace: true });
    } catch (err) {
      setError(err);
      const s = retryAfterSeconds(err);
      if (s) wait.start(s);
    }
  });

  const notActivated = isApiError(error) && error.code === 'ACCOUNT_NOT_ACTIVATED';
  const sendActivation = async () => {
    setResend({ busy: true, done: false, error: null });
    try {
      await resendActivationMail(getValues('username').trim());
      setResend({ busy: false, done: true, error: null });
    } catch (err) {
      setResend({ busy: false, done: false, error: err });
    }
  };

  return (
    <AuthCard
      title={t('auth:login.title')}
      footer={
        <>
          {t('auth:login.noAccount')} <Link to={ROUTES.auth_register}>{t('auth:login.createAccount')}</Link>
        </>
      }
    >
      {forbidden && (
        <Callout intent={Intent.WARNING} className="nu-callout" role="status">
          {t('auth:login.forbidden')}
        </Callout>
      )}
      <ErrorCallout error={error} />
      {notActivated && (
        <div className="nu-callout">
          {resend.done ? (
            <Callout intent={Intent.SUCCESS} icon="envelope" role="status">
              {t('auth:login.activationSent')}
            </Callout>
          ) : (
            <Button variant="outlined" icon="envelope" loading={resend.busy} onClick={sendActivation}>
              {t('auth:register.resend')}
            </Button>
          )}
          <ErrorCallout error={resend.error} />
        </div>
      )}
      <form onSubmit={onSubmit} noValidate aria-label={t('auth:login.title')}>
        <TextField
          label={t('auth:fields.email')}
          registration={register('username')}
          error={errors.username?.message}
          type="email"
          autoComplete="username"
          autoFocus
          size="large"
        />
        <PasswordField
          label={t('auth:fields.password')}
          registration={register('password')}
          error={errors.password?.message}
          autoComplete="current-password"
          size="large"
        />
        <Controller
          control={control}
          name="rememberMeDays"
          render={({ field }) => (
            <RadioGroup
              label={t('auth:login.rememberMe')}
              inline
              name={field.name}
              selectedValue={String(field.value)}
              onChange={(e) => field.onChange(Number(e.currentTarget.value))}
            >
              {REMEMBER_ME_DAYS.map((d) => (
                <Radio key={d} value={String(d)} label={t('auth:login.days', { count: d })} />
              ))}
            </RadioGroup>
          )}
        />
        <Button
          type="submit"
          intent={Intent.PRIMARY}
          size="large"
          fill
          loading={isSubmitting}
          disabled={wait.remaining > 0}
        >
          {wait.remaining > 0 ? t('auth:login.retryIn', { count: wait.remaining }) : t('auth:login.submit')}
        </Button>
      </form>
      <p className="nu-auth__links">
        <Link to={ROUTES.auth_forgotPwd}>{t('auth:login.forgotPassword')}</Link>
      </p>
    </AuthCard>
  );
}
