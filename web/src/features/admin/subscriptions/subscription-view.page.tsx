import { Button, ButtonGroup, Card, H2, Intent, NonIdealState } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useSWRConfig } from 'swr';
import { PageSpinner } from '../../../app/root-layout.js';
import { ROUTES, routePath } from '../../../app/route-paths.js';
import { formatDateTime } from '../../../shared/format/format-date.js';
import { errorMessage } from '../../../shared/i18n/error-message.js';
import { type DataColumn, DataTable } from '../../../shared/ui/data-table/data-table.js';
import { ErrorCallout } from '../../../shared/ui/error-callout.js';
import { PageFrame } from '../../../shared/ui/page-frame.js';
import { TextField } from '../../../shared/ui/text-field.js';
import { showToast } from '../../../shared/ui/toaster.js';
import type { LedgerEntry, Subscription } from '../../billing/billing.api.js';
import { formatHectares, parseDecimal } from '../../billing/billing-format.js';
import {
  Details,
  deltaText,
  LimitsList,
  ledgerText,
  noteOf,
  StatusTag,
  SubscriptionFacts,
} from '../../billing/subscription-parts.js';
import { EventList } from './event-list.js';
import { CheckField, LimitFields, SelectField } from './form-fields.js';
import {
  type SubscriptionFormValues,
  subscriptionFormSchema,
  subscriptionFormValues,
  subscriptionPatch,
} from './subscription-forms.js';
import {
  editSubscription,
  grantCredits,
  listSubscriptionLedger,
  type SubscriptionAction,
  subscriptionAction,
  useSubscription,
} from './subscriptions.api.js';
import '../../billing/billing.css';

function EditForm({ subscription, onSaved }: { subscription: Subscription; onSaved: () => void }) {
  const { t } = useTranslation();
  const initial = subscriptionFormValues(subscription);
  const form = useForm<SubscriptionFormValues>({
    resolver: zodResolver(subscriptionFormSchema),
    mode: 'onTouched',
    values: initial,
  });
  const { register, formState } = form;
  const e = formState.errors;
  const [error, setError] = useState<unknown>(null);
  const submit = form.handleSubmit(async (v) => {
    setError(null);
    try {
      await editSubscription(subscription.id, subscriptionPatch(v, initial));
      onSaved();
      void showToast({ intent: Intent.SUCCESS, icon: 'tick', message: t('billing:subscription.saved') });
    } catch (err) {
      setError(err);
    }
  });
  const periods = (['NONE', 'MONTH', 'YEAR'] as const).map((p) => ({ value: p, label: t(`billing:period.${p}`) }));
  return (
    <form onSubmit={submit} noValidate aria-label={t('billing:subscription.editTitle')} data-testid="subscription-form">
      <ErrorCallout error={error} />
      <div className="nu-form-grid">
        <TextField label={t('billing:fields.name')} registration={register('name')} error={e.name?.message} required />
        <SelectField
          label={t('billing:fields.category')}
          registration={register('category')}
          options={[
            { value: 'PAID', label: t('billing:category.PAID') },
            { value: 'FREEMIUM', label: t('billing:category.FREEMIUM') },
          ]}
        />
      </div>
      <TextField
        label={t('billing:fields.description')}
        registration={register('description')}
        error={e.description?.message}
      />
      <div className="nu-form-grid">
        <TextField
          label={t('billing:fields.creditsAllowance')}
          registration={register('creditsAllowance')}
          error={e.creditsAllowance?.message}
          inputMode="decimal"
          rightElement={<span className="nu-unit">ha</span>}
        />
        <SelectField
          label={t('billing:fields.allocationPeriod')}
          registration={register('allocationPeriod')}
          options={periods}
        />
        <TextField
          label={t('billing:fields.nextAllocationDate')}
          registration={register('nextAllocationDate')}
          error={e.nextAllocationDate?.message}
          type="date"
        />
        <TextField
          label={t('billing:fields.validUntil')}
          registration={register('validUntil')}
          error={e.validUntil?.message}
          type="date"
        />
        <TextField
          label={t('billing:fields.endDate')}
          registration={register('endDate')}
          error={e.endDate?.message}
          type="date"
        />
      </div>
      <LimitFields register={register} errors={e} />
      <div className="nu-form-grid">
        <TextField label={t('billing:fields.paymentProductId')} registration={register('paymentProductId')} />
        <TextField
          label={t('billing:fields.paymentProductReference')}
          registration={register('paymentProductReference')}
        />
      </div>
      <CheckField label={t('billing:subscription.enabledLabel')} registration={register('enabled')} />
      <CheckField label={t('billing:fields.premiumLabel')} registration={register('premium')} />
      <Button type="submit" intent={Intent.PRIMARY} disabled={!formState.isDirty} loading={formState.isSubmitting}>
        {t('billing:actions.save')}
      </Button>
    </form>
  );
}

function GrantForm({ subscription, onSaved }: { subscription: Subscription; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const [hectares, setHectares] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const value = parseDecimal(hectares);
  const valid = value !== null && Number.isFinite(value) && value !== 0;
  const grant = async () => {
    if (!valid) return;
    setBusy(true);
    try {
      const updated = await grantCredits(subscription.id, value, note.trim() || undefined);
      setHectares('');
      setNote('');
      onSaved();
      void showToast({
        intent: Intent.SUCCESS,
        icon: 'tick',
        message: t('billing:grant.done', { credits: formatHectares(updated.credits, i18n.language) }),
      });
    } catch (err) {
      void showToast({ intent: Intent.DANGER, message: errorMessage(t, err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      onSubmit={(ev) => {
        ev.preventDefault();
        void grant();
      }}
      aria-label={t('billing:grant.title')}
    >
      <p className="nu-muted">{t('billing:grant.help')}</p>
      <div className="nu-form-grid">
        <div className="bp6-form-group">
          <label className="bp6-label" htmlFor="grant-hectares">
            {t('billing:grant.hectares')}
          </label>
          <input
            id="grant-hectares"
            className="bp6-input bp6-fill"
            inputMode="decimal"
            value={hectares}
            onChange={(ev) => setHectares(ev.currentTarget.value)}
          />
        </div>
        <div className="bp6-form-group">
          <label className="bp6-label" htmlFor="grant-note">
            {t('billing:grant.note')}
          </label>
          <input
            id="grant-note"
            className="bp6-input bp6-fill"
            value={note}
            onChange={(ev) => setNote(ev.currentTarget.value)}
          />
        </div>
      </div>
      <Button type="submit" icon="add" intent={Intent.PRIMARY} disabled={!valid} loading={busy}>
        {t('billing:grant.submit')}
      </Button>
    </form>
  );
}

function LedgerTable({ id }: { id: string }) {
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
      width: 240,
      text: (e) => ledgerText(t, e),
      render: (e) => ledgerText(t, e),
    },
    {
      id: 'delta',
      header: t('billing:ledger.hectares'),
      width: 120,
      text: (e) => deltaText(e, i18n.language),
      render: (e) => deltaText(e, i18n.language),
    },
    {
      id: 'actor',
      header: t('billing:ledger.actor'),
      width: 200,
      text: (e) => e.actor?.email ?? '',
      render: (e) => e.actor?.email ?? '',
    },
    {
      id: 'note',
      header: t('billing:ledger.note'),
      width: 200,
      text: (e) => noteOf(e),
      render: (e) => noteOf(e),
    },
  ];
  return (
    <DataTable<LedgerEntry>
      tableUrlId={`admin-ledger-${id}`}
      label={t('billing:ledger.title')}
      columns={columns}
      fetchPage={(r) => listSubscriptionLedger(id, r)}
      rowKey={(e) => e.id}
      searchable={false}
    />
  );
}

/** The actions of spec §4 that apply to a subscription in its status. */
function actionsFor(s: Subscription): SubscriptionAction[] {
  const out: SubscriptionAction[] = [];
  if (s.status !== 'active' || !s.current) out.push('activate');
  if (s.status === 'active' || s.status === 'inactive') out.push('suspend');
  if (s.status === 'suspended' || !s.enabled) out.push('reactivate');
  if (s.status !== 'unsubscribed' && !s.unsubscribePending) out.push('cancel');
  return out;
}

/** Admin: one subscription (route admin/subscriptions/view/{id}): facts, actions, edit, credits, history. */
export function AdminSubscriptionViewPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data, error, mutate } = useSubscription(id);
  const { mutate: mutateKeys } = useSWRConfig();
  const [busy, setBusy] = useState<SubscriptionAction | null>(null);
  const crumbs = [
    { text: t('admin:title'), to: ROUTES.admin },
    { text: t('admin:subscriptions.listTitle'), to: `${ROUTES.admin_subscriptions}?tab=subscribed` },
  ];
  if (error) {
    return (
      <PageFrame title={t('admin:subscriptions.viewTitle', { ref: id })} breadcrumbs={[...crumbs, { text: id }]}>
        <NonIdealState icon="error" title={errorMessage(t, error)} />
      </PageFrame>
    );
  }
  if (!data) return <PageSpinner />;
  const s = data.subscription;
  // The facts, the history and the ledger table all change with an action.
  const refreshed = () => {
    void mutate();
    void mutateKeys((key) => Array.isArray(key) && key[0] === 'table' && key[1] === `admin-ledger-${id}`);
  };
  const run = async (action: SubscriptionAction) => {
    setBusy(action);
    try {
      await subscriptionAction(s.id, action);
      refreshed();
      void showToast({
        intent: Intent.SUCCESS,
        icon: 'tick',
        message: t(`billing:actions.done.${action}`, { count: 1 }),
      });
    } catch (err) {
      void showToast({ intent: Intent.DANGER, message: errorMessage(t, err) });
    } finally {
      setBusy(null);
    }
  };
  return (
    <PageFrame
      title={t('admin:subscriptions.viewTitle', { ref: `${s.id} · ${s.name}` })}
      breadcrumbs={[...crumbs, { text: s.id }]}
      actions={
        <ButtonGroup>
          {actionsFor(s).map((a) => (
            <Button
              key={a}
              loading={busy === a}
              intent={a === 'suspend' || a === 'cancel' ? Intent.DANGER : Intent.PRIMARY}
              variant="outlined"
              onClick={() => void run(a)}
            >
              {t(`billing:actions.${a}`)}
            </Button>
          ))}
        </ButtonGroup>
      }
    >
      <div className="nu-settings">
        <Card className="nu-settings__card">
          <H2>{t('billing:subscription.facts')}</H2>
          <SubscriptionFacts subscription={s} />
          <hr className="nu-billing__rule" />
          <Details
            items={[
              [
                t('billing:fields.user'),
                <Link key="u" to={routePath('admin_users_view', { id: s.user.id })}>
                  {s.user.email}
                </Link>,
              ],
              [t('billing:fields.creator'), s.creator?.email ?? t('billing:history.bySystem')],
              [t('billing:fields.template'), s.template?.name ?? '—'],
              [t('billing:fields.globalStatus'), s.globalStatus],
              [t('billing:fields.current'), s.current ? t('billing:yes') : t('billing:no')],
              [t('billing:fields.enabled'), s.enabled ? t('billing:yes') : t('billing:no')],
              [t('billing:fields.unsubscribePending'), s.unsubscribePending ? t('billing:yes') : t('billing:no')],
              [t('billing:fields.paymentProductId'), s.paymentProductId],
              [t('billing:fields.paymentSubscriptionId'), s.paymentSubscriptionId],
              [t('billing:fields.paymentProductReference'), s.paymentProductReference],
              [t('billing:fields.graceUntil'), formatDateTime(s.graceUntil)],
              [
                t('billing:fields.suspensionReason'),
                s.suspensionReason ? t(`billing:suspension.${s.suspensionReason}`) : '',
              ],
              [t('billing:fields.endedAt'), formatDateTime(s.endedAt)],
              [t('billing:fields.createdAt'), formatDateTime(s.createdAt)],
            ]}
          />
          <H2 className="nu-billing__section">{t('billing:current.limits')}</H2>
          <LimitsList subscription={s} />
        </Card>
        <div className="nu-stack">
          <Card className="nu-settings__card">
            <H2>{t('billing:subscription.editTitle')}</H2>
            <EditForm subscription={s} onSaved={refreshed} />
          </Card>
          <Card className="nu-settings__card">
            <H2>{t('billing:grant.title')}</H2>
            <GrantForm subscription={s} onSaved={refreshed} />
          </Card>
          <Card className="nu-settings__card">
            <H2>
              {t('billing:history.title')} <StatusTag subscription={s} />
            </H2>
            <EventList events={data.events} />
          </Card>
        </div>
      </div>
      <H2 className="nu-billing__section">{t('billing:ledger.title')}</H2>
      <LedgerTable id={s.id} />
    </PageFrame>
  );
}
