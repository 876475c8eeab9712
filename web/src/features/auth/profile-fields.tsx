import { FormGroup, HTMLSelect, Intent } from '@blueprintjs/core';
import { useMemo } from 'react';
import { type Control, Controller, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { countryOptions } from '../../shared/format/countries.js';
import { TextField } from '../../shared/ui/text-field.js';
import type { ProfileValues } from './auth.schemas.js';

/**
 * The person's fields a registration and the account settings share: first
 * and last name, company and country (countries named in the UI language).
 */
export function ProfileFields<V extends ProfileValues>({
  register,
  control,
  errors,
}: {
  register: UseFormRegister<V>;
  control: Control<V>;
  errors: FieldErrors<V>;
}) {
  const { t, i18n } = useTranslation();
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  // The four keys exist on every V (V extends ProfileValues); react-hook-form's path types cannot see it through a generic.
  const reg = register as unknown as UseFormRegister<ProfileValues>;
  const ctl = control as unknown as Control<ProfileValues>;
  const e = errors as FieldErrors<ProfileValues>;
  return (
    <>
      <div className="nu-form-row">
        <TextField
          label={t('auth:fields.firstname')}
          registration={reg('firstname')}
          error={e.firstname?.message}
          autoComplete="given-name"
          required
        />
        <TextField
          label={t('auth:fields.lastname')}
          registration={reg('lastname')}
          error={e.lastname?.message}
          autoComplete="family-name"
          required
        />
      </div>
      <TextField
        label={t('auth:fields.company')}
        registration={reg('company')}
        error={e.company?.message}
        autoComplete="organization"
      />
      <Controller
        control={ctl}
        name="country"
        render={({ field, fieldState }) => (
          <FormGroup
            label={t('auth:fields.country')}
            labelFor="field-country"
            labelInfo={t('common:form.required')}
            intent={fieldState.error ? Intent.DANGER : Intent.NONE}
            helperText={fieldState.error?.message ? t(fieldState.error.message) : undefined}
          >
            <HTMLSelect
              id="field-country"
              fill
              name={field.name}
              value={field.value}
              onChange={(ev) => field.onChange(ev.currentTarget.value)}
              onBlur={field.onBlur}
              ref={field.ref}
              aria-invalid={fieldState.error ? true : undefined}
              options={[{ value: '', label: t('auth:fields.chooseCountry') }, ...countries]}
              autoComplete="country"
            />
          </FormGroup>
        )}
      />
    </>
  );
}
