import { Button, Checkbox, FormGroup, HTMLSelect, Intent, Tag } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message.js';
import { ErrorCallout } from '../../../shared/ui/error-callout.js';
import { TextField } from '../../../shared/ui/text-field.js';
import { showToast } from '../../../shared/ui/toaster.js';
import {
  type StandingFormValues,
  SUBSCRIPTION_STATUSES,
  standingFormSchema,
  standingFormValues,
  standingPatch,
} from './subscription-form.js';
import { type SubscriptionStanding, setStanding, useStanding } from './users.api.js';

const STATUS_INTENTS: Record<string, Intent> = {
  active: Intent.SUCCESS,
  inactive: Intent.WARNING,
  unsubscribed: Intent.WARNING,
  suspended: Intent.DANGER,
  none: Intent.DANGER,
};

function StandingForm({
  userId,
  standing,
  onSaved,
}: {
  userId: string;
  standing: SubscriptionStanding;
  onSaved: (s: SubscriptionStanding) => void;
}) {
  const { t, i18n } = useTranslation();
  const form = useForm<StandingFormValues>({
    resolver: zodResolver(standingFormSchema),
    defaultValues: standingFormValues(standing),
    mode: 'onTouched',
  });
  const hectares = (v: number) =>
    t('admin:users.subscription.hectares', {
      value: v.toLocaleString(i18n.language, { maximumFractionDigits: 2 }),
    });

  async function submit(values: StandingFormValues) {
    try {
      const saved = await setStanding(userId, standingPatch(values));
      form.reset(standingFormValues(saved));
      onSaved(saved);
      void showToast({ intent: Intent.SUCCESS, icon: 'tick', message: t('admin:users.subscription.saved') });
    } catch (err) {
      void showToast({
        intent: Intent.DANGER,
        icon: 'error',
        message: `${t('admin:users.subscription.saveFailed')}: ${errorMessage(t, err)}`,
      });
    }
  }

  const status = form.register('status');
  return (
    <form onSubmit={form.handleSubmit(submit)} noValidate data-testid="subscription-form">
      <p className="nu-muted">{t('admin:users.subscription.help')}</p>
      <dl className="nu-details" style={{ marginBottom: 16 }}>
        <div className="nu-details__item">
          <dt>{t('admin:users.subscription.status')}</dt>
          <dd>
            <Tag round minimal intent={STATUS_INTENTS[standing.status] ?? Intent.NONE} data-status={standing.status}>
              {t(`admin:users.subscription.statuses.${standing.status}`)}
            </Tag>
          </dd>
        </div>
        <div className="nu-details__item">
          <dt>{t('admin:users.subscription.allowance')}</dt>
          <dd>{hectares(standing.creditsAllowance)}</dd>
        </div>
        <div className="nu-details__item">
          <dt>{t('admin:users.subscription.used')}</dt>
          <dd>{hectares(standing.creditsUsed)}</dd>
        </div>
        <div className="nu-details__item">
          <dt>{t('admin:users.subscription.available')}</dt>
          <dd data-testid="credits-left">{hectares(standing.credits)}</dd>
        </div>
      </dl>
      <FormGroup
        label={t('admin:users.subscription.status')}
        labelFor="field-subscription-status"
        helperText={t('admin:users.subscription.statusHelp')}
      >
        <HTMLSelect id="field-subscription-status" fill {...status}>
          <option value="">{t('admin:users.subscription.statusDefault')}</option>
          {SUBSCRIPTION_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`admin:users.subscription.statuses.${s}`)}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <TextField
        id="field-subscription-allowance"
        label={t('admin:users.subscription.allowance')}
        registration={form.register('creditsAllowance')}
        error={form.formState.errors.creditsAllowance?.message}
        helperText={t('admin:users.subscription.allowanceHelp')}
        inputMode="decimal"
        rightElement={<span className="nu-unit">ha</span>}
      />
      <Checkbox
        {...(() => {
          const { ref, ...rest } = form.register('premium');
          return { inputRef: ref, ...rest };
        })()}
        label={t('admin:users.subscription.premium')}
      />
      <Button
        type="submit"
        intent={Intent.PRIMARY}
        disabled={!form.formState.isDirty}
        loading={form.formState.isSubmitting}
        text={t('admin:users.subscription.save')}
      />
    </form>
  );
}

/**
 * Admin: a user's subscription standing (spec §3 Subscription: status,
 * credits, allowance) and premium flag, editable until billing sets them.
 */
export function SubscriptionEditor({ userId, onSaved }: { userId: string; onSaved: () => void }) {
  const { data, error, mutate } = useStanding(userId);
  if (error) return <ErrorCallout error={error} />;
  if (!data) return null;
  return (
    <StandingForm
      key={`${data.status}:${data.creditsAllowance}:${data.premium}`}
      userId={userId}
      standing={data}
      onSaved={(s) => {
        void mutate(s, { revalidate: false });
        onSaved();
      }}
    />
  );
}
