import { Callout, Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import useSWR from 'swr';
import { PageSpinner } from '../../app/root-layout.js';
import { PageFrame } from '../../shared/ui/page-frame.js';
import { ProjectViewer } from '../viewer/project-viewer.js';
import { projectFromShareToken } from '../viewer/viewer.api.js';
import { viewerProblem } from '../viewer/viewer-scene.js';
import { ViewerLoadError, ViewerProblemView } from '../viewer/viewer-state.js';
import { isInProgress } from './projects.types.js';

/**
 * A project opened from a share link (route project-from-share-token, public,
 * query value token): the viewer, read-only, without an account.
 */
export function SharedProjectPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  const { data: project, error } = useSWR(
    token ? ['shared-project', token] : null,
    () => projectFromShareToken(token!),
    {
      refreshInterval: (p) => (p && isInProgress(p) ? 3000 : 0),
    },
  );
  if (!token) {
    return (
      <PageFrame title={t('projects:shared.title')} breadcrumbs={[{ text: t('projects:shared.title') }]}>
        <Callout intent={Intent.DANGER} role="alert">
          {t('projects:shared.missingToken')}
        </Callout>
      </PageFrame>
    );
  }
  if (error && !project) return <ViewerLoadError error={error} showBack={false} />;
  if (!project) return <PageSpinner />;
  const problem = viewerProblem(project);
  if (problem) return <ViewerProblemView project={project} problem={problem} showBack={false} />;
  return <ProjectViewer key={project.id} project={project} shareToken={token} />;
}
