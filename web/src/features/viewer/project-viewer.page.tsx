import { useParams } from 'react-router';
import useSWR from 'swr';
import { PageSpinner } from '../../app/root-layout.js';
import { getProject } from '../projects/projects.api.js';
import { isInProgress } from '../projects/projects.types.js';
import { ProjectViewer } from './project-viewer.js';
import { viewerProblem } from './viewer-scene.js';
import { ViewerLoadError, ViewerProblemView } from './viewer-state.js';
import './viewer.css';

/** Refresh period of a project still in progress (ms). */
const PROGRESS_REFRESH_MS = 2000;

/**
 * The project viewer route (user/projects/:id): the viewer once the project
 * is READY; before that its live progress, and the §8 viewer errors.
 */
export function ProjectViewerPage() {
  const { id = '' } = useParams();
  const {
    data: project,
    error,
    mutate,
  } = useSWR(['project', id], () => getProject(id), {
    refreshInterval: (p) => (p && isInProgress(p) ? PROGRESS_REFRESH_MS : 0),
  });
  if (error && !project) return <ViewerLoadError error={error} />;
  if (!project) return <PageSpinner />;
  const problem = viewerProblem(project);
  if (problem) return <ViewerProblemView project={project} problem={problem} />;
  return (
    <ProjectViewer
      key={project.id}
      project={project}
      onShareTokenChange={(token) => void mutate({ ...project, shareToken: token }, { revalidate: false })}
      onProcessingStarted={() => void mutate()}
    />
  );
}
