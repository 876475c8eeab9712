import { Button, Card, FormGroup, H2, Intent, NonIdealState, TextArea } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PageSpinner } from '../../../app/root-layout.js';
import { isApiError } from '../../../shared/api/api-error.js';
import { errorMessage } from '../../../shared/i18n/error-message.js';
import { ErrorCallout } from '../../../shared/ui/error-callout.js';
import { PageFrame } from '../../../shared/ui/page-frame.js';
import { applyServerFieldErrors } from '../../../shared/ui/server-field-errors.js';
import { TextField } from '../../../shared/ui/text-field.js';
import { showToast } from '../../../shared/ui/toaster.js';
import {
  type GlobalParameters,
  POINT_SIZE_MAX,
  POINT_SIZE_MIN,
  type SettingsValues,
  saveGlobalParameters,
  settingsSchema,
  useGlobalParameters,
} from './settings.api.js';
import './settings.css';

/** The form's values of what the server holds. */
function valuesOf(p: GlobalParameters): SettingsValues {
  return {
    pointSize: p.pointSize,
    tilingParameters: p.tilingParameters,
    globeOpacity: p.globeOpacity,
    cesiumIonToken: p.cesiumIonToken,
    bingMapsKey: p.bingMapsKey,
  };
}

/** The form of the settings, filled with what the server holds. */
function SettingsForm({ initial, onSaved }: { initial: GlobalParameters; onSaved: (p: GlobalParameters) => void }) {
  const { t } = useTranslation();
  const [error, setError] = useState<unknown>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError: setFieldError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<SettingsValues>({
    resolver: zodResolver(settingsSchema),
    mode: 'onTouched',
    defaultValues: valuesOf(initial),
  });

  const onSubmit = handleSubmit(async (v) => {
    setError(null);
    try {
      const saved = await saveGlobalParameters({
        pointSize: v.pointSize,
        tilingParameters: v.tilingParameters.trim(),
        globeOpacity: v.globeOpacity,
        cesiumIonToken: v.cesiumIonToken.trim(),
        bingMapsKey: v.bingMapsKey.trim(),
      });
      reset(valuesOf(saved));
      onSaved(saved);
      void showToast({ intent: Intent.SUCCESS, icon: 'tick', message: t('admin:settings.saved') });
    } catch (err) {
      if (isApiError(err) && err.code === 'INVALID_TILING_PARAMETERS') {
        // The parser's own words name the faulty option: show them under the field.
        setFieldError('tilingParameters', {
          type: 'server',
          message: `${t('errors:INVALID_TILING_PARAMETERS')} ${err.message}`,
        });
        return;
      }
      if (
        applyServerFieldErrors(err, setFieldError, {
          pointSize: 'pointSize',
          tilingParameters: 'tilingParameters',
          globeOpacity: 'globeOpacity',
          cesiumIonToken: 'cesiumIonToken',
          bingMapsKey: 'bingMapsKey',
        })
      )
        return;
      setError(err);
    }
  });

  // Blueprint's TextArea is a class: the DOM element comes through inputRef, not ref.
  const { ref: tilingRef, ...tilingHandlers } = register('tilingParameters');
  const tilingError = errors.tilingParameters?.message;
  const tilingMessage = tilingError ? t(tilingError, { defaultValue: tilingError }) : undefined;
  return (
    <form className="nu-stack" onSubmit={(e) => void onSubmit(e)} noValidate aria-label={t('admin:settings.title')}>
      <ErrorCallout error={error} />
      <Card className="nu-settings__card">
        <H2>{t('admin:settings.viewerTitle')}</H2>
        <TextField
          label={t('admin:settings.pointSize')}
          registration={register('pointSize', { valueAsNumber: true })}
          error={errors.pointSize?.message}
          helperText={t('admin:settings.pointSizeHelp', { min: POINT_SIZE_MIN, max: POINT_SIZE_MAX })}
          type="number"
          step="0.5"
          min={POINT_SIZE_MIN}
          max={POINT_SIZE_MAX}
          inputMode="decimal"
        />
      </Card>
      <Card className="nu-settings__card">
        <H2>{t('admin:imagerySettings.title')}</H2>
        <TextField
          label={t('admin:imagerySettings.globeOpacity')}
          registration={register('globeOpacity', { valueAsNumber: true })}
          error={errors.globeOpacity?.message}
          helperText={t('admin:imagerySettings.globeOpacityHelp')}
          type="number"
          step="5"
          min={0}
          max={100}
          inputMode="numeric"
        />
        <TextField
          label={t('admin:imagerySettings.cesiumIonToken')}
          registration={register('cesiumIonToken')}
          error={errors.cesiumIonToken?.message}
          helperText={t('admin:imagerySettings.cesiumIonTokenHelp')}
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          label={t('admin:imagerySettings.bingMapsKey')}
          registration={register('bingMapsKey')}
          error={errors.bingMapsKey?.message}
          helperText={t('admin:imagerySettings.bingMapsKeyHelp')}
          autoComplete="off"
          spellCheck={false}
        />
      </Card>
      <Card className="nu-settings__card">
        <H2>{t('admin:settings.tilingTitle')}</H2>
        <FormGroup
          label={t('admin:settings.tilingParameters')}
          labelFor="field-tilingParameters"
          helperText={
            <span id="field-tilingParameters-helper" role={tilingMessage ? 'alert' : undefined}>
              {tilingMessage ?? t('admin:settings.tilingHelp')}
            </span>
          }
          intent={tilingMessage ? Intent.DANGER : Intent.NONE}
        >
          <TextArea
            id="field-tilingParameters"
            fill
            rows={3}
            spellCheck={false}
            className="nu-admin-settings__code"
            placeholder="--max-points 60000 --min-node-size 0.15"
            intent={tilingMessage ? Intent.DANGER : Intent.NONE}
            aria-invalid={tilingMessage ? true : undefined}
            aria-describedby="field-tilingParameters-helper"
            inputRef={tilingRef}
            {...tilingHandlers}
          />
        </FormGroup>
      </Card>
      <div className="nu-admin-settings__actions">
        <Button type="submit" intent={Intent.PRIMARY} icon="floppy-disk" loading={isSubmitting} disabled={!isDirty}>
          {t('common:actions.save')}
        </Button>
        <Button
          type="button"
          variant="minimal"
          disabled={!isDirty || isSubmitting}
          onClick={() => reset(valuesOf(initial))}
        >
          {t('admin:settings.reset')}
        </Button>
      </div>
    </form>
  );
}

/** Admin: tiling parameters and viewer point size (route admin/settings). */
export function AdminSettingsPage() {
  const { t } = useTranslation();
  const { data, error, mutate } = useGlobalParameters();
  const frame = {
    title: t('admin:settings.title'),
    breadcrumbs: [{ text: t('admin:title'), to: '/admin' }, { text: t('admin:settings.title') }],
  };
  if (error && !data) {
    return (
      <PageFrame {...frame}>
        <NonIdealState icon="error" title={errorMessage(t, error)} />
      </PageFrame>
    );
  }
  if (!data) return <PageSpinner />;
  return (
    <PageFrame {...frame}>
      <p className="nu-lead">{t('admin:settings.intro')}</p>
      <div className="nu-admin-settings">
        <SettingsForm initial={data} onSaved={(p) => void mutate(p, { revalidate: false })} />
      </div>
    </PageFrame>
  );
}
