import { AnchorButton, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../app/route-paths.js';
import { errorMessage } from '../../shared/i18n/error-message.js';
import { ProjectProgress, StatusBadge } from '../projects/project-status.js';
import { isInProgress, type Project } from '../projects/projects.types.js';
import type { ViewerProblem } from './viewer-scene.js';

/**
 * What the viewer shows instead of a scene (spec §8 Viewer errors): the
 * project is not ready (with its live progress), or its LAS layer or asset
 * cannot be loaded.
 */
export function ViewerProblemView({
  project,
  problem,
  showBack = true,
}: {
  project: Project;
  problem: ViewerProblem;
  showBack?: boolean;
}) {
  const { t } = useTranslation();
  const inProgress = isInProgress(project);
  const status = t(`projects:status.${project.status}`, { defaultValue: project.status });
  const title =
    problem.code === 'PROJECT_NOT_READY'
      ? t('viewer:problems.PROJECT_NOT_READY', { status })
      : t(`viewer:problems.${problem.code}`);
  return (
    <div className="nu-viewer-state" data-testid="viewer-problem" data-problem={problem.code}>
      <NonIdealState
        icon={inProgress ? <Spinner size={40} /> : problem.code === 'PROJECT_NOT_READY' ? 'time' : 'error'}
        title={title}
        description={
          <div className="nu-viewer-state__body">
            <p>
              <strong>{project.name}</strong> <StatusBadge status={project.status} />
            </p>
            {inProgress ? (
              <>
                <ProjectProgress project={project} />
                <p className="nu-muted">{t('viewer:problems.opensWhenReady')}</p>
              </>
            ) : project.status === 'ERROR' ? (
              <p className="nu-muted">
                {project.errorCode || project.errorMessage
                  ? t(`errors:${project.errorCode}`, { defaultValue: project.errorMessage ?? '' })
                  : t('viewer:problems.contactSupport')}
              </p>
            ) : null}
          </div>
        }
        action={
          showBack ? (
            <AnchorButton href={`#${ROUTES.user}`} icon="arrow-left" text={t('viewer:backToProjects')} />
          ) : undefined
        }
      />
    </div>
  );
}

/** A project that could not be loaded: the server's message, else the error's, else "Unknown error" (spec §8). */
export function ViewerLoadError({ error, showBack = true }: { error: unknown; showBack?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="nu-viewer-state" data-testid="viewer-load-error">
      <NonIdealState
        icon="error"
        title={t('viewer:loadFailed')}
        description={<span role="alert">{errorMessage(t, error)}</span>}
        action={
          showBack ? (
            <AnchorButton href={`#${ROUTES.user}`} intent={Intent.NONE} text={t('viewer:backToProjects')} />
          ) : undefined
        }
      />
    </div>
  );
}
