import { useTranslation } from 'react-i18next';
import type { User } from '../../../shared/api/types.js';
import { formatDateTime } from '../../../shared/format/format-date.js';

/** A user's fields as a definition list (expanded row and user view). */
export function UserDetails({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  const country = user.country
    ? (new Intl.DisplayNames([i18n.language], { type: 'region' }).of(user.country) ?? user.country)
    : '—';
  const yes = t('common:yes');
  const no = t('common:no');
  const items: Array<[string, string]> = [
    [t('admin:users.columns.email'), user.email],
    [t('auth:fields.firstname'), user.firstname || '—'],
    [t('auth:fields.lastname'), user.lastname || '—'],
    [t('admin:users.columns.company'), user.company || '—'],
    [t('admin:users.columns.country'), country],
    [t('admin:users.fields.language'), user.preferLanguage === 'fr' ? 'Français' : 'English'],
    [t('admin:users.fields.darkTheme'), user.preferDarkTheme ? yes : no],
    [t('admin:users.fields.enabled'), user.enabled ? yes : no],
    [t('admin:users.fields.activated'), user.activated ? yes : no],
    [t('admin:users.fields.premium'), user.premium ? yes : no],
    [t('admin:users.columns.projects'), String(user.ownedProjectsCount)],
    [t('admin:users.columns.createdAt'), formatDateTime(user.createdAt)],
    [t('admin:users.fields.lastLogin'), user.lastLoginAt ? formatDateTime(user.lastLoginAt) : '—'],
  ];
  return (
    <dl className="nu-details">
      {items.map(([k, v]) => (
        <div key={k} className="nu-details__item">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
