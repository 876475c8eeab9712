import { Callout, Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../i18n/error-message.js';

/** Shows an error (an API error's code translated) in a red callout; nothing when there is none. */
export function ErrorCallout({ error, title }: { error: unknown; title?: string }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <Callout intent={Intent.DANGER} title={title} role="alert" className="nu-callout">
      {errorMessage(t, error)}
    </Callout>
  );
}
