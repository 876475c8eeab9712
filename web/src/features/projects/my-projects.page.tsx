import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session-context.js';
import { PageFrame } from '../../shared/ui/page-frame.js';

/** The user page (route user, where `/` leads): the user's projects. */
export function MyProjectsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <PageFrame title={t('common:projects.title')} breadcrumbs={[{ text: t('common:projects.title') }]}>
      <p className="nu-lead" data-testid="welcome">
        {t('common:projects.welcome', { name: user?.firstname || user?.email || '' })}
      </p>
    </PageFrame>
  );
}
