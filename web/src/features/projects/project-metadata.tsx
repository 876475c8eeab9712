import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format/format-date.js';
import { StatusBadge } from './project-status.js';
import type { Project } from './projects.types.js';

/**
 * The vertical reference of a project's heights when the API sends it (the
 * engine's metadata: orthometric or ellipsoidal, the vertical CRS named by
 * the file, whether it was read or assumed, the geoid undulation applied).
 */
interface VerticalReferenceInfo {
  heights?: 'orthometric' | 'ellipsoidal' | string;
  name?: string | null;
  epsg?: number | null;
  source?: 'crs' | 'assumed' | string;
  model?: string | null;
  geoidModel?: string | null;
  undulationMetres?: number | null;
}

function verticalReferenceOf(project: Project): VerticalReferenceInfo | null {
  const v = (project as Project & { verticalReference?: unknown }).verticalReference;
  return v && typeof v === 'object' ? (v as VerticalReferenceInfo) : null;
}

/** One row of the metadata list: a test id, a label and a value ('' shows a dash). */
export interface MetadataItem {
  id: string;
  label: string;
  value: ReactNode;
}

/** A number in the page's language, or '' when missing. */
function num(n: number | null | undefined, lang: string, digits = 2): string {
  return n === null || n === undefined ? '' : n.toLocaleString(lang, { maximumFractionDigits: digits });
}

/**
 * A file size given in GB (spec §3 "point cloud memory (GB)") in the unit that
 * reads best: 0.27 MB rather than 0 GB; units localised by Intl (Go, Mo in French).
 */
export function fileSize(gigabytes: number | null | undefined, lang: string): string {
  if (gigabytes === null || gigabytes === undefined) return '';
  const [value, unit] =
    gigabytes >= 1
      ? [gigabytes, 'gigabyte']
      : gigabytes >= 0.001
        ? [gigabytes * 1e3, 'megabyte']
        : [gigabytes * 1e6, 'kilobyte'];
  return new Intl.NumberFormat(lang, { style: 'unit', unit, maximumFractionDigits: value < 10 ? 2 : 1 }).format(value);
}

/**
 * Every project field of spec §3 with the LAS metadata collected at upload, as
 * label/value pairs in the order people read them: the file, the cloud, its
 * heights and CRS, the dates. Used by the expandable rows of My projects and
 * the viewer's project information panel.
 */
export function useProjectMetadata(project: Project): MetadataItem[] {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const f = (k: string) => t(`projects:projectInfo.fields.${k}`);
  const p = project;
  const elevation = (v: number | null) => (v === null ? '' : `${num(v, lang)} m`);
  const items: MetadataItem[] = [
    { id: 'name', label: f('name'), value: p.name },
    { id: 'status', label: f('status'), value: <StatusBadge status={p.status} /> },
    { id: 'lasName', label: f('lasName'), value: p.lasName ?? '' },
    { id: 'lasVersion', label: f('lasVersion'), value: p.lasVersion ?? '' },
    { id: 'pointCount', label: f('pointCount'), value: num(p.lidarPointCount, lang, 0) },
    { id: 'minElevation', label: f('minElevation'), value: elevation(p.minElevation) },
    { id: 'maxElevation', label: f('maxElevation'), value: elevation(p.maxElevation) },
    {
      id: 'area',
      label: f('area'),
      value: p.area === null ? '' : t('projects:projectInfo.hectares', { value: num(p.area, lang) }),
    },
    { id: 'memory', label: f('memory'), value: fileSize(p.pointCloudMemory, lang) },
    { id: 'crs', label: f('crs'), value: p.epsgCode === null ? '' : `EPSG:${p.epsgCode}` },
  ];
  const vertical = verticalReferenceOf(p);
  if (vertical) {
    const heights = vertical.heights
      ? t(`projects:projectInfo.heights.${vertical.heights}`, { defaultValue: vertical.heights })
      : '';
    const named = [vertical.name, vertical.epsg ? `EPSG:${vertical.epsg}` : null].filter(Boolean).join(' · ');
    const parts = [heights, named];
    if (vertical.source === 'assumed') parts.push(t('projects:projectInfo.verticalAssumed'));
    if (vertical.undulationMetres !== null && vertical.undulationMetres !== undefined) {
      parts.push(
        t('projects:projectInfo.undulation', {
          model: vertical.geoidModel ?? vertical.model ?? 'EGM96',
          value: num(vertical.undulationMetres, lang),
        }),
      );
    }
    items.push({
      id: 'verticalReference',
      label: t('viewer:verticalReference', { defaultValue: f('verticalReference') }),
      value: parts.filter(Boolean).join(' — '),
    });
  }
  const headerBounds = (p as Project & { headerBoundsWarning?: unknown }).headerBoundsWarning;
  if (headerBounds) {
    items.push({
      id: 'headerBounds',
      label: f('headerBounds'),
      value: <span className="bp5-text-intent-warning">{t('projects:projectInfo.headerBoundsWarning')}</span>,
    });
  }
  items.push(
    { id: 'systemId', label: f('systemId'), value: p.systemId ?? '' },
    { id: 'software', label: f('software'), value: p.generatingSoftware ?? '' },
    {
      id: 'fileCreation',
      label: f('fileCreation'),
      value: p.creationYear
        ? p.creationDay
          ? t('projects:projectInfo.dayOfYear', { day: p.creationDay, year: p.creationYear })
          : String(p.creationYear)
        : '',
    },
    { id: 'creatorEmail', label: f('creatorEmail'), value: p.creatorEmail },
    { id: 'creationDate', label: f('creationDate'), value: formatDateTime(p.creationDate) },
    { id: 'updatedAt', label: f('updatedAt'), value: formatDateTime(p.updatedAt) },
  );
  return items;
}

/** A project's metadata (spec §3) as a definition list. */
export function ProjectMetadata({ project, className }: { project: Project; className?: string }) {
  const items = useProjectMetadata(project);
  return (
    <dl className={className ? `nu-details ${className}` : 'nu-details'} data-testid="project-metadata">
      {items.map((item) => (
        <div key={item.id} className="nu-details__item" data-field={item.id}>
          <dt>{item.label}</dt>
          <dd>{item.value === '' || item.value === null ? '—' : item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
