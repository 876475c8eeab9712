import { Button, Checkbox, FormGroup, InputGroup, Intent, Radio, RadioGroup } from '@blueprintjs/core';
import { useState } from 'react';
import type { FieldError, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  BUILDING_SIMPLIFICATIONS,
  CROWN_SHAPES,
  formatCentimetres,
  PROCESSING_RANGES,
  type ProcessingOptions,
} from './processing-options.schema.js';

/** The form values the processing fields live in (other fields may sit beside them). */
export interface WithProcessing {
  processing: ProcessingOptions;
}

type NumberField =
  | 'dtmResolution'
  | 'contourMinorInterval'
  | 'contourMajorInterval'
  | 'gridResolution'
  | 'clearanceZoneHeight'
  | 'treeFallHeightBuffer';

const RANGE_OF: Record<NumberField, { min: number; max: number }> = {
  dtmResolution: PROCESSING_RANGES.dtmResolutionCm,
  contourMinorInterval: PROCESSING_RANGES.contourIntervalCm,
  contourMajorInterval: PROCESSING_RANGES.contourIntervalCm,
  gridResolution: PROCESSING_RANGES.gridResolutionCm,
  clearanceZoneHeight: PROCESSING_RANGES.clearanceHeightCm,
  treeFallHeightBuffer: PROCESSING_RANGES.treeFallHeightBufferCm,
};

/** A centimetre field: the range and the value in m or cm as its hint, the error under it. */
function CentimetreInput({
  form,
  name,
  path,
  label,
  range,
  error,
}: {
  form: UseFormReturn<WithProcessing>;
  name: string;
  path: `processing.${NumberField}` | `processing.powerLineBufferZones.${number}`;
  label: string;
  range: { min: number; max: number };
  error: FieldError | undefined;
}) {
  const { t, i18n } = useTranslation();
  const value = form.watch(path) as number;
  const id = `field-${name}`;
  const message = error?.message
    ? t(error.message, {
        min: formatCentimetres(range.min, i18n.language),
        max: formatCentimetres(range.max, i18n.language),
        defaultValue: error.message,
      })
    : undefined;
  const hint = t('projects:processing.rangeHint', {
    min: formatCentimetres(range.min, i18n.language),
    max: formatCentimetres(range.max, i18n.language),
  });
  const reg = form.register(path, { valueAsNumber: true });
  const { ref, ...handlers } = reg;
  return (
    <FormGroup
      label={label}
      labelFor={id}
      helperText={
        message ?? (
          <>
            {Number.isFinite(value) ? `= ${formatCentimetres(value, i18n.language)} · ` : ''}
            {hint}
          </>
        )
      }
      intent={message ? Intent.DANGER : Intent.NONE}
      className="nu-processing__field"
    >
      <InputGroup
        id={id}
        type="number"
        inputMode="decimal"
        step="any"
        min={range.min}
        max={range.max}
        inputRef={ref}
        {...handlers}
        rightElement={<span className="nu-unit">cm</span>}
        intent={message ? Intent.DANGER : Intent.NONE}
        aria-invalid={message ? true : undefined}
      />
    </FormGroup>
  );
}

/**
 * The processing form (spec §2, §5): DTM and grid resolutions, contour
 * intervals, power-line buffer zones (1 to 3), clearance height, tree-fall
 * buffer, crown shape and building simplification, every length in
 * centimetres with its value in metres as a hint.
 */
export function ProcessingFields({ form }: { form: UseFormReturn<WithProcessing> }) {
  const { t } = useTranslation();
  const errors = form.formState.errors.processing;
  const [buffers, setBuffers] = useState(() => form.getValues('processing.powerLineBufferZones')?.length ?? 1);
  const field = (name: NumberField, label: string) => (
    <CentimetreInput
      form={form}
      name={name}
      path={`processing.${name}`}
      label={label}
      range={RANGE_OF[name]}
      error={errors?.[name] as FieldError | undefined}
    />
  );
  const bufferErrors = errors?.powerLineBufferZones as unknown as (FieldError | undefined)[] & { message?: string };

  function removeBuffer() {
    const values = form.getValues('processing.powerLineBufferZones').slice(0, buffers - 1);
    form.unregister(`processing.powerLineBufferZones.${buffers - 1}`);
    form.setValue('processing.powerLineBufferZones', values);
    setBuffers(buffers - 1);
  }

  function addBuffer() {
    const values = form.getValues('processing.powerLineBufferZones');
    const last = values[buffers - 1] ?? 300;
    form.setValue(
      `processing.powerLineBufferZones.${buffers}`,
      Math.min(PROCESSING_RANGES.powerLineBufferCm.max, last + 300),
    );
    setBuffers(buffers + 1);
  }

  return (
    <div className="nu-processing">
      <fieldset className="nu-processing__group">
        <legend>{t('projects:processing.terrain')}</legend>
        <div className="nu-processing__grid">
          {field('dtmResolution', t('projects:processing.dtmResolution'))}
          {field('gridResolution', t('projects:processing.gridResolution'))}
        </div>
        <Checkbox
          checked={form.watch('processing.shadedDtm')}
          onChange={(e) => form.setValue('processing.shadedDtm', e.currentTarget.checked)}
          label={t('projects:processing.shadedDtm')}
        />
      </fieldset>

      <fieldset className="nu-processing__group">
        <legend>{t('projects:processing.contours')}</legend>
        <Checkbox
          checked={form.watch('processing.contours')}
          onChange={(e) => form.setValue('processing.contours', e.currentTarget.checked)}
          label={t('projects:processing.contoursOn')}
        />
        <div className="nu-processing__grid">
          {field('contourMinorInterval', t('projects:processing.contourMinor'))}
          {field('contourMajorInterval', t('projects:processing.contourMajor'))}
        </div>
      </fieldset>

      <fieldset className="nu-processing__group">
        <legend>{t('projects:processing.powerLines')}</legend>
        <div className="nu-processing__grid">
          {Array.from({ length: buffers }, (_, i) => (
            <CentimetreInput
              // biome-ignore lint/suspicious/noArrayIndexKey: zones are positional (zone 1, 2, 3).
              key={i}
              form={form}
              name={`buffer-${i}`}
              path={`processing.powerLineBufferZones.${i}`}
              label={t('projects:processing.bufferZone', { index: i + 1 })}
              range={PROCESSING_RANGES.powerLineBufferCm}
              error={bufferErrors?.[i]}
            />
          ))}
        </div>
        <div className="nu-processing__buttons">
          <Button
            size="small"
            icon="add"
            disabled={buffers >= PROCESSING_RANGES.powerLineBufferCount.max}
            onClick={addBuffer}
            text={t('projects:processing.addZone')}
          />
          <Button
            size="small"
            icon="remove"
            disabled={buffers <= PROCESSING_RANGES.powerLineBufferCount.min}
            onClick={removeBuffer}
            text={t('projects:processing.removeZone')}
          />
        </div>
        <div className="nu-processing__grid">
          {field('clearanceZoneHeight', t('projects:processing.clearanceHeight'))}
          {field('treeFallHeightBuffer', t('projects:processing.treeFallBuffer'))}
        </div>
      </fieldset>

      <fieldset className="nu-processing__group nu-processing__grid">
        <legend>{t('projects:processing.objects')}</legend>
        <RadioGroup
          label={t('projects:processing.crownShape')}
          inline
          selectedValue={form.watch('processing.crownShape')}
          onChange={(e) =>
            form.setValue('processing.crownShape', e.currentTarget.value as ProcessingOptions['crownShape'])
          }
        >
          {CROWN_SHAPES.map((v) => (
            <Radio key={v} value={v} label={t(`projects:processing.crownShapes.${v}`)} />
          ))}
        </RadioGroup>
        <RadioGroup
          label={t('projects:processing.buildingSimplification')}
          inline
          selectedValue={form.watch('processing.buildingSimplification')}
          onChange={(e) =>
            form.setValue(
              'processing.buildingSimplification',
              e.currentTarget.value as ProcessingOptions['buildingSimplification'],
            )
          }
        >
          {BUILDING_SIMPLIFICATIONS.map((v) => (
            <Radio key={v} value={v} label={t(`projects:processing.buildingSimplifications.${v}`)} />
          ))}
        </RadioGroup>
      </fieldset>
    </div>
  );
}
