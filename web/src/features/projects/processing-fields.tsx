import {
  Button,
  Callout,
  Checkbox,
  FormGroup,
  InputGroup,
  Intent,
  Radio,
  RadioGroup,
  Spinner,
} from '@blueprintjs/core';
import type { CentimetreListField, ChoiceField } from '@nuage/engine/products/options.js';
import { useState } from 'react';
import type { FieldError, Path, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  formatCentimetres,
  OPTION_FIELDS,
  OPTION_GROUPS,
  type OptionName,
  optionsOfGroup,
  type ProcessingOptions,
  productsToSend,
  withNeeds,
  withoutDependents,
} from './processing-options.schema.js';
import { useProcessingProducts } from './projects.api.js';

/** The form values the processing fields live in (other fields may sit beside them). */
export interface WithProcessing {
  processing: ProcessingOptions;
}

type Form = UseFormReturn<WithProcessing>;
type FormPath = Path<WithProcessing>;

/** The error of one option (or of one item of a list option). */
function errorOf(form: Form, name: OptionName): FieldError | undefined {
  return (form.formState.errors.processing as Record<string, FieldError | undefined> | undefined)?.[name];
}

/** The translated message of an error key, min and max shown as "50 cm" / "1.5 m". */
function useRangeMessage() {
  const { t, i18n } = useTranslation();
  return (error: FieldError | undefined, range: { min: number; max: number }, extra: Record<string, unknown> = {}) =>
    error?.message
      ? t(error.message, {
          min: formatCentimetres(range.min, i18n.language),
          max: formatCentimetres(range.max, i18n.language),
          ...extra,
          defaultValue: error.message,
        })
      : undefined;
}

/**
 * A centimetre input: the value in m or cm and the range as its hint (the
 * input's description), the translated error in its place.
 */
function CentimetreInput({
  form,
  id,
  path,
  label,
  range,
  error,
}: {
  form: Form;
  id: string;
  path: FormPath;
  label: string;
  range: { min: number; max: number };
  error: FieldError | undefined;
}) {
  const { t, i18n } = useTranslation();
  const rangeMessage = useRangeMessage();
  const value = form.watch(path) as unknown as number;
  const message = rangeMessage(error, range);
  const hint = t('projects:processing.rangeHint', {
    min: formatCentimetres(range.min, i18n.language),
    max: formatCentimetres(range.max, i18n.language),
  });
  const { ref, ...handlers } = form.register(path, { valueAsNumber: true });
  return (
    <FormGroup
      label={label}
      labelFor={id}
      helperText={
        <span id={`${id}-hint`} data-testid={`${id}-hint`}>
          {message ?? (
            <>
              {Number.isFinite(value) ? `= ${formatCentimetres(value, i18n.language)} · ` : ''}
              {hint}
            </>
          )}
        </span>
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
        aria-describedby={`${id}-hint`}
      />
    </FormGroup>
  );
}

/** A list of lengths (power-line buffer radii): one input per item, buttons to add and remove the last. */
function CentimetreListInput({ form, name, field }: { form: Form; name: OptionName; field: CentimetreListField }) {
  const { t } = useTranslation();
  const rangeMessage = useRangeMessage();
  const path = `processing.${name}` as FormPath;
  const [count, setCount] = useState(() => (form.getValues(path) as unknown as number[] | undefined)?.length ?? 0);
  const error = errorOf(form, name) as (FieldError & Array<FieldError | undefined>) | undefined;
  const countMessage = error?.message
    ? rangeMessage(error, field, { minItems: field.minItems, maxItems: field.maxItems })
    : undefined;

  function remove() {
    const values = (form.getValues(path) as unknown as number[]).slice(0, count - 1);
    form.unregister(`${path}.${count - 1}` as FormPath);
    form.setValue(path, values as never);
    setCount(count - 1);
  }

  function add() {
    const values = form.getValues(path) as unknown as number[];
    const last = values[count - 1] ?? field.min;
    form.setValue(
      `${path}.${count}` as FormPath,
      (field.default[count] ?? Math.min(field.max, last + field.min)) as never,
    );
    setCount(count + 1);
  }

  return (
    <fieldset className="nu-processing__list" data-option={name}>
      <legend className="nu-processing__list-label">{t(`projects:processing.fields.${name}`)}</legend>
      <div className="nu-processing__grid">
        {Array.from({ length: count }, (_, i) => (
          <CentimetreInput
            // biome-ignore lint/suspicious/noArrayIndexKey: items are positional (zone 1, 2, 3).
            key={i}
            form={form}
            id={`field-${name}-${i}`}
            path={`${path}.${i}` as FormPath}
            label={t('projects:processing.bufferZone', { index: i + 1 })}
            range={field}
            error={error?.[i]}
          />
        ))}
      </div>
      {countMessage && (
        <p className="nu-processing__error" role="alert">
          {countMessage}
        </p>
      )}
      <div className="nu-processing__buttons">
        <Button
          size="small"
          icon="add"
          disabled={count >= field.maxItems}
          onClick={add}
          text={t('projects:processing.addZone')}
        />
        <Button
          size="small"
          icon="remove"
          disabled={count <= field.minItems}
          onClick={remove}
          text={t('projects:processing.removeZone')}
        />
      </div>
    </fieldset>
  );
}

/** One value of a fixed list, as radio buttons labelled `projects:processing.choices.<name>.<value>`. */
function ChoiceInput({ form, name, field }: { form: Form; name: OptionName; field: ChoiceField }) {
  const { t } = useTranslation();
  const path = `processing.${name}` as FormPath;
  const error = errorOf(form, name);
  return (
    <FormGroup
      className="nu-processing__field"
      intent={error ? Intent.DANGER : Intent.NONE}
      helperText={error?.message ? t(error.message, { defaultValue: error.message }) : undefined}
    >
      <RadioGroup
        label={t(`projects:processing.fields.${name}`)}
        name={`field-${name}`}
        inline
        selectedValue={form.watch(path) as unknown as string}
        onChange={(e) => form.setValue(path, e.currentTarget.value as never, { shouldDirty: true })}
      >
        {field.choices.map((v) => (
          <Radio key={v} value={v} label={t(`projects:processing.choices.${name}.${v}`)} />
        ))}
      </RadioGroup>
    </FormGroup>
  );
}

/** The field of one option, by its kind. */
function OptionInput({ form, name }: { form: Form; name: OptionName }) {
  const { t } = useTranslation();
  const field = OPTION_FIELDS[name];
  switch (field.kind) {
    case 'centimetres':
      return (
        <CentimetreInput
          form={form}
          id={`field-${name}`}
          path={`processing.${name}` as FormPath}
          label={t(`projects:processing.fields.${name}`)}
          range={field}
          error={errorOf(form, name)}
        />
      );
    case 'centimetreList':
      return <CentimetreListInput form={form} name={name} field={field} />;
    case 'choice':
      return <ChoiceInput form={form} name={name} field={field} />;
  }
}

/**
 * The products to make (GET /processing/products), all ticked by default and
 * named as the viewer names their assets. Ticking one ticks what it needs;
 * unticking one unticks the products that need it. `processing.products`
 * stays absent while every product is ticked.
 */
function ProductsFieldset({ form }: { form: Form }) {
  const { t } = useTranslation();
  const { data: products, error: loadError, isLoading } = useProcessingProducts();
  const chosen = form.watch('processing.products');
  const error = form.formState.errors.processing?.products as FieldError | undefined;
  const ticked = new Set(chosen ?? products?.map((p) => p.id) ?? []);

  function toggle(id: string, on: boolean) {
    if (!products) return;
    const next = on ? withNeeds([...ticked, id], products) : withoutDependents(ticked, id, products);
    form.setValue('processing.products', productsToSend(next, products), {
      shouldDirty: true,
      shouldValidate: form.formState.isSubmitted,
    });
  }

  return (
    <fieldset className="nu-processing__group" data-testid="processing-products">
      <legend>{t('projects:processing.products.title')}</legend>
      <p className="nu-muted nu-small nu-processing__hint">{t('projects:processing.products.hint')}</p>
      {isLoading && <Spinner size={16} />}
      {loadError && !products && (
        <Callout intent={Intent.WARNING} compact className="nu-processing__hint">
          {t('projects:processing.products.failed')}
        </Callout>
      )}
      {products && (
        <div className="nu-processing__products">
          {products.map((p) => (
            <Checkbox
              key={p.id}
              checked={ticked.has(p.id)}
              onChange={(e) => toggle(p.id, e.currentTarget.checked)}
              label={t(`viewer:assetTypes.${p.assetType}`, { defaultValue: p.title })}
              data-product={p.id}
            />
          ))}
        </div>
      )}
      {error?.message && (
        <p className="nu-processing__error" role="alert">
          {t(error.message, { defaultValue: error.message })}
        </p>
      )}
    </fieldset>
  );
}

/**
 * The processing form (spec §2, §5), derived from the engine's option
 * descriptors: the products to make, then one group per option group, each
 * option shown by its kind (lengths in centimetres with their value in
 * metres and their range as a hint, lists of lengths, choices).
 */
export function ProcessingFields({ form }: { form: Form }) {
  const { t } = useTranslation();
  return (
    <div className="nu-processing">
      <ProductsFieldset form={form} />
      {OPTION_GROUPS.map((group) => (
        <fieldset key={group} className="nu-processing__group" data-group={group}>
          <legend>{t(`projects:processing.groups.${group}`)}</legend>
          <div className="nu-processing__grid">
            {optionsOfGroup(group).map((name) => (
              <OptionInput key={name} form={form} name={name} />
            ))}
          </div>
        </fieldset>
      ))}
    </div>
  );
}
