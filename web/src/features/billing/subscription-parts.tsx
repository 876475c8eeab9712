import { Intent, ProgressBar, Tag } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format/format-date.js';
import type { LedgerEntry, Subscription, SubscriptionStatus } from './billing.api.js';
import { formatGb, formatHectares } from './billing-format.js';

const STATUS_INTENTS: Record<SubscriptionStatus, Intent> = {
  active: Intent.SUCCESS,
  inactive: Intent.WARNING,
  unsubscribed: Intent.NONE,
  suspended: Intent.DANGER,
};

/** The status of a subscription as a coloured tag (spec §4), with the pending cancellation. */
export function StatusTag({ subscription }: { subscription: Pick<Subscription, 'status' | 'unsubscribePending'> }) {
  const { t } = useTranslation();
  return (
    <span className="nu-tags">
      <Tag round minimal intent={STATUS_INTENTS[subscription.status]} data-status={subscription.status}>
        {t(`billing:status.${subscription.status}`)}
      </Tag>
      {subscription.unsubscribePending && (
        <Tag round minimal intent={Intent.WARNING} icon="time">
          {t('billing:fields.unsubscribePending')}
        </Tag>
      )}
    </span>
  );
}

/** The category as the admin columns show it (spec §3: PAYANT or FREEMIUM in French). */
export function CategoryTag({ category }: { category: Subscription['category'] }) {
  const { t } = useTranslation();
  return (
    <Tag minimal intent={category === 'PAID' ? Intent.PRIMARY : Intent.NONE}>
      {t(`billing:category.${category}`)}
    </Tag>
  );
}

/** Label / value pairs in the app's definition list style. */
export function Details({ items }: { items: Array<[string, ReactNode, string?]> }) {
  return (
    <dl className="nu-details">
      {items.map(([label, value, testId]) => (
        <div className="nu-details__item" key={label}>
          <dt>{label}</dt>
          <dd data-testid={testId}>{value === null || value === undefined || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** How often credits come, in words. */
export function periodText(t: (k: string) => string, period: Subscription['allocationPeriod']): string {
  return t(`billing:period.${period}`);
}

/** The limits of a subscription, in GB, with the usage against them when given. */
export function LimitsList({
  subscription,
  usage,
}: {
  subscription: Pick<Subscription, 'effectiveLimits' | 'limits'>;
  usage?: { projects: number; storageBytes: number };
}) {
  const { t, i18n } = useTranslation();
  const l = subscription.effectiveLimits;
  const defaulted = (v: number | null) => (v === null ? ` (${t('billing:fields.default')})` : '');
  const bar = (used: number, max: number) =>
    max > 0 ? (
      <ProgressBar
        value={Math.min(1, used / max)}
        stripes={false}
        animate={false}
        intent={used / max > 0.9 ? Intent.DANGER : Intent.PRIMARY}
        className="nu-billing__bar"
      />
    ) : null;
  return (
    <Details
      items={[
        [
          t('billing:fields.maxProjects'),
          <>
            {usage ? `${usage.projects} / ${l.maxProjects}` : l.maxProjects}
            {defaulted(subscription.limits.maxProjects)}
            {usage && bar(usage.projects, l.maxProjects)}
          </>,
          'limit-projects',
        ],
        [
          t('billing:fields.maxInputFileBytes'),
          `${formatGb(l.maxInputFileBytes, i18n.language)}${defaulted(subscription.limits.maxInputFileBytes)}`,
          'limit-file',
        ],
        [
          t('billing:fields.maxStorageBytes'),
          <>
            {usage
              ? `${formatGb(usage.storageBytes, i18n.language)} / ${formatGb(l.maxStorageBytes, i18n.language)}`
              : formatGb(l.maxStorageBytes, i18n.language)}
            {defaulted(subscription.limits.maxStorageBytes)}
            {usage && bar(usage.storageBytes, l.maxStorageBytes)}
          </>,
          'limit-storage',
        ],
      ]}
    />
  );
}

/** The main facts of a subscription: plan, status, credits and dates. */
export function SubscriptionFacts({ subscription: s }: { subscription: Subscription }) {
  const { t, i18n } = useTranslation();
  return (
    <Details
      items={[
        [t('billing:fields.name'), s.name, 'subscription-name'],
        [t('billing:fields.status'), <StatusTag key="s" subscription={s} />],
        [t('billing:fields.category'), <CategoryTag key="c" category={s.category} />],
        [t('billing:fields.credits'), <strong key="c">{formatHectares(s.credits, i18n.language)}</strong>, 'credits'],
        [
          t('billing:fields.creditsAllowance'),
          s.allocationPeriod === 'NONE'
            ? periodText(t, 'NONE')
            : `${formatHectares(s.creditsAllowance, i18n.language)} · ${periodText(t, s.allocationPeriod)}`,
        ],
        [t('billing:fields.startDate'), formatDateTime(s.startDate)],
        [t('billing:fields.lastAllocationDate'), formatDateTime(s.lastAllocationDate)],
        [t('billing:fields.nextAllocationDate'), formatDateTime(s.nextAllocationDate)],
        [t('billing:fields.validUntil'), formatDateTime(s.validUntil)],
        [t('billing:fields.endDate'), formatDateTime(s.endDate)],
        [t('billing:fields.premium'), s.premium ? t('billing:yes') : t('billing:no')],
      ]}
    />
  );
}

/** One credits movement in words: what happened, and for which project. */
export function ledgerText(t: (k: string, o?: Record<string, unknown>) => string, e: LedgerEntry): string {
  const what = t(`billing:ledger.kinds.${e.kind}`);
  return e.project?.name ? `${what} · ${e.project.name}` : what;
}

/** A signed hectares figure (+12 ha, −2.5 ha; a charge shows its size). */
export function deltaText(e: LedgerEntry, language: string): string {
  if (e.kind === 'charge') return formatHectares(e.hectares, language);
  const sign = e.delta > 0 ? '+' : e.delta < 0 ? '−' : '';
  return `${sign}${formatHectares(Math.abs(e.delta), language)}`;
}

/** The note of a movement written by a person (an admin's grant); the system's own notes are not shown. */
export function noteOf(e: LedgerEntry): string {
  return e.actor ? (e.note ?? '') : '';
}
