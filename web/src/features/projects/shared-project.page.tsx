import { Callout, Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageFrame } from '../../shared/ui/page-frame.js';

/** A project opened from a share link (route project-from-share-token, public, query value token). */
export function SharedProjectPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <PageFrame title={t('common:sharedProject.title')} breadcrumbs={[{ text: t('common:sharedProject.title') }]}>
      {token ? (
        <p className="nu-lead">{t('common:sharedProject.intro')}</p>
      ) : (
        <Callout intent={Intent.DANGER} role="alert">
          {t('common:sharedProject.missingToken')}
        </Callout>
      )}
    </PageFrame>
  );
}
