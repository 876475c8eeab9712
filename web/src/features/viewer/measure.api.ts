import { api } from '../../shared/api/api.js';
import type { ProjectCrsDefinition } from '../../viewer/measure/project-crs.js';

/**
 * The measurement tools' API calls (api/src/routes/measure.routes.ts): the
 * project CRS as a proj4 definition, and DTM heights at project coordinates;
 * a share link's visitor goes through the `-from-shared-token` twins.
 */

/** GET /projects/{id}/measure/crs: the project CRS (409 CRS_REQUIRED when it has none). */
export function fetchMeasureCrs(projectId: string, shareToken?: string): Promise<ProjectCrsDefinition> {
  const id = encodeURIComponent(projectId);
  return shareToken
    ? api.get<ProjectCrsDefinition>(`/projects/${id}/measure/crs-from-shared-token`, { query: { token: shareToken } })
    : api.get<ProjectCrsDefinition>(`/projects/${id}/measure/crs`);
}

/** What POST /projects/{id}/measure/dtm-heights answers. */
export interface DtmHeights {
  dtmAssetId: string;
  resolution: number;
  /** Project vertical unit; null off the DTM. */
  heights: Array<number | null>;
}

/** POST /projects/{id}/measure/dtm-heights: the DTM's heights at X, Y of the project CRS. */
export function fetchDtmHeights(
  projectId: string,
  points: Array<[number, number]>,
  shareToken?: string,
): Promise<DtmHeights> {
  const id = encodeURIComponent(projectId);
  return shareToken
    ? api.post<DtmHeights>(`/projects/${id}/measure/dtm-heights-from-shared-token`, {
        query: { token: shareToken },
        body: { points },
      })
    : api.post<DtmHeights>(`/projects/${id}/measure/dtm-heights`, { body: { points } });
}
