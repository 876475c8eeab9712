import { Button, Card, FormGroup, H2, HTMLSelect, Intent, Switch } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../app/i18n.js';
import { usePreferences } from '../../app/preferences.js';
import { ROUTES } from '../../app/route-paths.js';
import { useSession, useSessionStore } from '../../app/session-context.js';
import type { Language, User } from '../../shared/api/types.js';
import { formatDateTime } from '../../shared/format/format-date.js';
import { errorMessage } from '../../shared/i18n/error-message.js';
import { ErrorCallout } from '../../shared/ui/error-callout.js';
import { PageFrame } from '../../shared/ui/page-frame.js';
import { showToast } from '../../shared/ui/toaster.js';
import { type ProfileValues, profileSchema } from '../auth/auth.schemas.js';
import { MySubscriptionSummary } from '../billing/my-subscription.js';
import { AccessTokensCard } from './access-tokens-card.js';
import '../billing/billing.css';
import { ProfileFields } from '../auth/profile-fields.js';
import { updateCurrentUser } from './account.api.js';

const LANGUAGE_NAMES: Record<Language, string> = { 'en-US': 'English', fr: 'Français' };

function ProfileForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const store = useSessionStore();
  const [error, setError] = useState<unknown>(null);
  const {
    register,
    handleSubmit,
    control,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ProfileValues>({
    resolver: zodResolver(profileSchema),
    mode: 'onTouched',
    defaultValues: {
      firstname: user.firstname ?? '',
      lastname: user.lastname ?? '',
      company: user.company ?? '',
      country: user.country ?? '',
    },
  });
  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      const updated = await updateCurrentUser({ ...values, company: values.company || null });
      store.setUser(updated);
      reset(values);
      void showToast({ intent: Intent.SUCCESS, icon: 'tick', message: t('account:profile.saved') });
    } catch (err) {
      setError(err);
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('account:profile.title')}>
      <ErrorCallout error={error} />
      <FormGroup label={t('auth:fields.email')} labelFor="field-email" helperText={t('account:profile.emailHelp')}>
        <input id="field-email" className="bp6-input bp6-fill" value={user.email} readOnly />
      </FormGroup>
      <ProfileFields register={register} control={control} errors={errors} />
      <Button type="submit" intent={Intent.PRIMARY} loading={isSubmitting} disabled={!isDirty}>
        {t('account:profile.save')}
      </Button>
    </form>
  );
}

/** Account settings (route user/settings): theme, language, profile, a way to the subscription, access tokens. */
export function AccountSettingsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { language, darkTheme, setLanguage, setDarkTheme } = usePreferences();
  if (!user) return null;
  const fail = (err: unknown) => void showToast({ intent: Intent.DANGER, message: errorMessage(t, err) });
  return (
    <PageFrame
      title={t('account:title')}
      breadcrumbs={[{ text: t('common:projects.title'), to: ROUTES.user }, { text: t('account:title') }]}
    >
      <div className="nu-settings">
        <Card className="nu-settings__card">
          <H2>{t('account:preferences.title')}</H2>
          <Switch
            large
            checked={darkTheme}
            label={t('account:preferences.darkTheme')}
            onChange={(e) => setDarkTheme(e.currentTarget.checked).catch(fail)}
            data-testid="dark-theme-switch"
          />
          <FormGroup label={t('account:preferences.language')} labelFor="settings-language">
            <HTMLSelect
              id="settings-language"
              value={language}
              onChange={(e) => setLanguage(e.currentTarget.value as Language).catch(fail)}
              options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
            />
          </FormGroup>
        </Card>
        <Card className="nu-settings__card">
          <H2>{t('account:profile.title')}</H2>
          <p className="nu-muted">{t('account:memberSince', { date: formatDateTime(user.createdAt) })}</p>
          <ProfileForm user={user} />
        </Card>
        <Card className="nu-settings__card">
          <H2>{t('account:subscription.title')}</H2>
          <p className="nu-muted">{t('account:subscription.intro')}</p>
          <MySubscriptionSummary />
        </Card>
        <AccessTokensCard />
      </div>
    </PageFrame>
  );
}
