import { Button, Classes, Drawer, Tooltip } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ProjectMetadata } from '../projects/project-metadata.js';
import type { Project } from '../projects/projects.types.js';

/**
 * The viewer's project information: a toolbar button opening a side panel
 * with every project field of spec §3 (LAS file and version, point count,
 * elevations, area, size, CRS and vertical reference, system, software,
 * dates, creator). The same list as the expanded rows of My projects.
 */
export function ProjectInfoButton({ project }: { project: Project }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip content={t('viewer:projectInfo.button')}>
        <Button
          icon="info-sign"
          onClick={() => setOpen(true)}
          aria-label={t('viewer:projectInfo.button')}
          aria-expanded={open}
          data-testid="project-info-button"
        />
      </Tooltip>
      <ProjectInfoPanel project={project} isOpen={open} onClose={() => setOpen(false)} />
    </>
  );
}

/** The side panel itself (a drawer on the right, closed with Esc or its close button). */
export function ProjectInfoPanel({
  project,
  isOpen,
  onClose,
}: {
  project: Project;
  isOpen: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      isOpen={isOpen}
      onClose={onClose}
      size="420px"
      icon="info-sign"
      title={t('viewer:projectInfo.title')}
      className="nu-project-info"
      hasBackdrop={false}
      canOutsideClickClose
    >
      <div className={Classes.DRAWER_BODY} data-testid="project-info">
        <div className={Classes.DIALOG_BODY}>
          <ProjectMetadata project={project} className="nu-details--single" />
        </div>
      </div>
    </Drawer>
  );
}
