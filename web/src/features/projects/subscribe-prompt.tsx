import { Icon } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROUTES } from '../../app/route-paths.js';
import { isApiError } from '../../shared/api/api-error.js';

/**
 * Error codes whose remedy is a subscription or more credits (spec §8: the
 * insufficient-credits subscribe prompt, the inactive subscription, the zero
 * file-size limit): their message comes with a link to the buy page.
 */
export const SUBSCRIBE_CODES: ReadonlySet<string> = new Set([
  'INSUFFICIENT_CREDITS',
  'SUBSCRIPTION_INACTIVE',
  'FILE_SIZE_LIMIT_ZERO',
]);

/** The code of an API error, else null. */
export function errorCodeOf(err: unknown): string | null {
  return isApiError(err) ? err.code : null;
}

/** Whether an error code asks the user to subscribe or buy credits. */
export function needsSubscription(code: string | null | undefined): boolean {
  return !!code && SUBSCRIBE_CODES.has(code);
}

/** A link to the buy page (route user/subscription/buy) when the code asks for a subscription; nothing otherwise. */
export function SubscribePrompt({ code }: { code: string | null | undefined }) {
  const { t } = useTranslation();
  if (!needsSubscription(code)) return null;
  return (
    <p className="nu-subscribe-prompt">
      <Link to={ROUTES.user_subscription_buy} data-testid="subscribe-link">
        <Icon icon="credit-card" size={14} /> {t('projects:subscribe')}
      </Link>
    </p>
  );
}
