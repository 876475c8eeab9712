import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/format-date.js';
import type { SubscriptionEvent } from '../../billing/billing.api.js';

/** The audit trail of a subscription or a template: who did what, when (newest first). */
export function EventList({ events }: { events: SubscriptionEvent[] }) {
  const { t } = useTranslation();
  if (events.length === 0) return <p className="nu-muted">{t('billing:history.empty')}</p>;
  return (
    <ol className="nu-billing__ledger" aria-label={t('billing:history.title')} data-testid="history">
      {events.map((e) => (
        <li key={e.id}>
          <span className="nu-muted">{formatDateTime(e.createdAt)}</span>{' '}
          <strong>{t(`billing:history.actions.${e.action}`, { defaultValue: e.action })}</strong>{' '}
          <span className="nu-muted">
            {e.actor ? t('billing:history.by', { who: e.actor.email ?? e.actor.id }) : t('billing:history.bySystem')}
          </span>
        </li>
      ))}
    </ol>
  );
}
