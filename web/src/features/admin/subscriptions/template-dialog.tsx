import { Button, Dialog, DialogBody, DialogFooter, Intent } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/format-date.js';
import { ErrorCallout } from '../../../shared/ui/error-callout.js';
import { applyServerFieldErrors } from '../../../shared/ui/server-field-errors.js';
import { TextField } from '../../../shared/ui/text-field.js';
import type { SubscriptionTemplate } from '../../billing/billing.api.js';
import { EventList } from './event-list.js';
import { CheckField, LimitFields, SelectField } from './form-fields.js';
import { type TemplateFormValues, templateBody, templateFormSchema, templateFormValues } from './subscription-forms.js';
import { createTemplate, editTemplate, useTemplate } from './subscriptions.api.js';

/** Admin dialog that creates or edits a template (spec §3: templates mirror subscriptions); limits in GB. */
export function TemplateDialog({
  template,
  isOpen,
  onClose,
  onSaved,
}: {
  /** The template to edit; undefined creates one. */
  template?: SubscriptionTemplate | undefined;
  isOpen: boolean;
  onClose: () => void;
  onSaved: (t: SubscriptionTemplate) => void;
}) {
  const { t } = useTranslation();
  const [error, setError] = useState<unknown>(null);
  const history = useTemplate(isOpen && template ? template.id : null);
  const form = useForm<TemplateFormValues>({
    resolver: zodResolver(templateFormSchema),
    mode: 'onTouched',
    values: templateFormValues(template),
  });
  const { register, handleSubmit, formState } = form;
  const e = formState.errors;
  const close = () => {
    setError(null);
    onClose();
  };
  const onSubmit = handleSubmit(async (v) => {
    setError(null);
    try {
      const body = templateBody(v);
      const saved = template ? await editTemplate(template.id, body) : await createTemplate(body);
      onSaved(saved);
    } catch (err) {
      applyServerFieldErrors(err, form.setError, {});
      setError(err);
    }
  });
  const periods = (['NONE', 'MONTH', 'YEAR'] as const).map((p) => ({ value: p, label: t(`billing:period.${p}`) }));
  const title = template
    ? t('billing:templates.editTitle', { name: template.name })
    : t('billing:templates.createTitle');
  return (
    <Dialog isOpen={isOpen} onClose={close} title={title} icon="clipboard" style={{ width: 760 }}>
      <form onSubmit={onSubmit} noValidate aria-label={title}>
        <DialogBody>
          <ErrorCallout error={error} />
          <div className="nu-form-grid">
            <TextField
              label={t('billing:fields.name')}
              registration={register('name')}
              error={e.name?.message}
              required
            />
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
              label={t('billing:fields.credits')}
              registration={register('credits')}
              error={e.credits?.message}
              helperText={t('billing:templates.creditsHelp')}
              inputMode="decimal"
              rightElement={<span className="nu-unit">ha</span>}
            />
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
              label={t('billing:fields.durationMonths')}
              registration={register('durationMonths')}
              error={e.durationMonths?.message}
              helperText={t('billing:templates.durationHelp')}
              inputMode="numeric"
            />
          </div>
          <LimitFields register={register} errors={e} />
          <div className="nu-form-grid">
            <TextField
              label={t('billing:fields.price')}
              registration={register('price')}
              error={e.price?.message}
              inputMode="decimal"
            />
            <TextField
              label={t('billing:fields.currency')}
              registration={register('currency')}
              error={e.currency?.message}
            />
            <TextField
              label={t('billing:fields.paymentProductId')}
              registration={register('paymentProductId')}
              error={e.paymentProductId?.message}
              helperText={t('billing:templates.priceIdHelp')}
            />
            <TextField
              label={t('billing:fields.paymentProductReference')}
              registration={register('paymentProductReference')}
              error={e.paymentProductReference?.message}
            />
            <TextField
              label={t('billing:fields.startDate')}
              registration={register('startDate')}
              error={e.startDate?.message}
              type="date"
            />
            <TextField
              label={t('billing:fields.endDate')}
              registration={register('endDate')}
              error={e.endDate?.message}
              type="date"
            />
          </div>
          <CheckField label={t('billing:templates.enabledLabel')} registration={register('enabled')} />
          <CheckField label={t('billing:fields.premiumLabel')} registration={register('premium')} />
          {template && (
            <>
              <p className="nu-muted">
                {t('billing:templates.counts', {
                  active: template.activeSubscriptions,
                  total: template.subscriptions,
                  date: formatDateTime(template.createdAt),
                })}
              </p>
              {history.data && <EventList events={history.data.events} />}
            </>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={close}>{t('common:actions.cancel')}</Button>
              <Button type="submit" intent={Intent.PRIMARY} loading={formState.isSubmitting}>
                {template ? t('billing:actions.save') : t('billing:templates.submit')}
              </Button>
            </>
          }
        />
      </form>
    </Dialog>
  );
}
