import { AnchorButton, Card, H2, Intent, Spinner } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../app/route-paths.js';
import { isApiError } from '../../shared/api/api-error.js';
import { formatDateTime } from '../../shared/format/format-date.js';
import { type DataColumn, DataTable } from '../../shared/ui/data-table/data-table.js';
import { ErrorCallout } from '../../shared/ui/error-callout.js';
import { PageFrame } from '../../shared/ui/page-frame.js';
import { type LedgerEntry, listMyLedger, useCurrentSubscription } from './billing.api.js';
import { CancelSubscriptionButton, MyLimits, NoSubscription, SubscriptionNotices } from './my-subscription.js';
import { deltaText, ledgerText, noteOf, SubscriptionFacts } from './subscription-parts.js';
import './billing.css';

/** The credits history of the current user (the reusable table). */
export function MyLedgerTable() {
  const { t, i18n } = useTranslation();
  const columns: DataColumn<LedgerEntry>[] = [
    {
      id: 'createdAt',
      header: t('billing:ledger.date'),
      width: 150,
      text: (e) => formatDateTime(e.createdAt),
      render: (e) => formatDateTime(e.createdAt),
    },
    {
      id: 'kind',
      header: t('billing:ledger.movement'),
      width: 260,
      text: (e) => ledgerText(t, e),
      render: (e) => ledgerText(t, e),
    },
    {
      id: 'delta',
      header: t('billing:ledger.hectares'),
      width: 120,
      text: (e) => deltaText(e, i18n.language),
      render: (e) => (
        <strong className={e.delta < 0 ? 'nu-billing__minus' : e.delta > 0 ? 'nu-billing__plus' : undefined}>
          {deltaText(e, i18n.language)}
        </strong>
      ),
    },
    {
      id: 'note',
      header: t('billing:ledger.note'),
      width: 220,
      text: (e) => noteOf(e),
      render: (e) => noteOf(e),
    },
  ];
  return (
    <DataTable<LedgerEntry>
      tableUrlId="my-credits"
      label={t('billing:ledger.title')}
      columns={columns}
      fetchPage={listMyLedger}
      rowKey={(e) => e.id}
      defaultRowsPerPage="10"
      searchable={false}
    />
  );
}

/** The user's subscription (route user/subscription): plan, credits, limits, history, cancel. */
export function SubscriptionPage() {
  const { t } = useTranslation();
  const { data, error } = useCurrentSubscription();
  let body: ReactNode;
  if (error) {
    body = isApiError(error) && error.code === 'NO_SUBSCRIPTION' ? <NoSubscription /> : <ErrorCallout error={error} />;
  } else if (!data) {
    body = <Spinner />;
  } else {
    body = (
      <>
        <SubscriptionNotices current={data} />
        <div className="nu-settings">
          <Card className="nu-settings__card">
            <H2>{t('billing:current.title')}</H2>
            <SubscriptionFacts subscription={data.subscription} />
            <div className="nu-billing__actions">
              <CancelSubscriptionButton current={data} />
            </div>
          </Card>
          <Card className="nu-settings__card">
            <H2>{t('billing:current.limits')}</H2>
            <MyLimits current={data} />
          </Card>
        </div>
        <H2 className="nu-billing__section">{t('billing:ledger.title')}</H2>
        <MyLedgerTable />
      </>
    );
  }
  return (
    <PageFrame
      title={t('common:subscription.title')}
      breadcrumbs={[{ text: t('common:projects.title'), to: ROUTES.user }, { text: t('common:subscription.title') }]}
      actions={
        <AnchorButton intent={Intent.PRIMARY} icon="shopping-cart" href={`#${ROUTES.user_subscription_buy}`}>
          {t('common:subscription.buy')}
        </AnchorButton>
      }
    >
      <p className="nu-lead">{t('common:subscription.intro')}</p>
      {body}
    </PageFrame>
  );
}
