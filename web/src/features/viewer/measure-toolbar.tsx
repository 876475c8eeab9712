import { Button, ButtonGroup, HTMLTable, Intent, NumericInput, Spinner, Tooltip } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CartesianGrid,
  Tooltip as ChartTooltip,
  ComposedChart,
  Line,
  ResponsiveContainer,
  Scatter,
  XAxis,
  YAxis,
} from 'recharts';
import useSWR from 'swr';
import { isApiError } from '../../shared/api/api-error.js';
import type { MeasureScene, PickedPosition } from '../../viewer/measure/measure.types.js';
import { measurePolygon, measurePolyline } from '../../viewer/measure/measure-geometry.js';
import {
  type Measure,
  type MeasureFormat,
  type MeasureTool,
  type MeasureVertex,
  measureSceneOf,
  VERTICES_NEEDED,
} from '../../viewer/measure/measure-session.js';
import { thinSamples } from '../../viewer/measure/profile.js';
import { type LoadedProfile, loadProfile } from '../../viewer/measure/profile-loader.js';
import { measureCrs, type ProjectCrs, type ProjectCrsDefinition } from '../../viewer/measure/project-crs.js';
import { classOf } from '../../viewer/point-styles.js';
import type { Project } from '../projects/projects.types.js';
import { fetchDtmHeights, fetchMeasureCrs } from './measure.api.js';
import './measure-toolbar.css';

export interface MeasureToolbarProps {
  project: Project;
  shareToken?: string | undefined;
  /** tileset.json of the cloud a profile reads (the classified cloud when shown, else the uploaded one). */
  cloudUrl: string | undefined;
  /** Hands the drawing to the scene (undefined: nothing to draw, clicks pick features again). */
  onSceneChange: (scene: MeasureScene | undefined) => void;
  /** The page sends the viewer's `measurePick` events here. */
  pickRef: RefObject<((position: PickedPosition | null) => void) | null>;
  /** Another tool of the scene is open (classification editing): the tool in use is left, the buttons wait. */
  suspended?: boolean;
}

const TOOL_ICONS: Record<MeasureTool, IconName> = {
  distance: 'timeline-line-chart',
  area: 'polygon-filter',
  height: 'arrows-vertical',
  coordinates: 'locate',
  profile: 'timeline-area-chart',
};
const TOOLS = Object.keys(TOOL_ICONS) as MeasureTool[];

/** Most points drawn in the profile chart (the count shown is of every point in the corridor). */
const CHART_POINTS = 4000;

interface ProfileState {
  measureId: number;
  width: number;
  status: 'loading' | 'ready' | 'error';
  data?: LoadedProfile;
  error?: string;
}

/** The test hook a browser journey drives the tool with (what a click would hand it). */
interface MeasureTestHook {
  pick(position: PickedPosition | null): Promise<void>;
}

declare global {
  interface Window {
    __nuageMeasure?: MeasureTestHook;
  }
}

/**
 * The viewer's measurement tools: distance (3D, horizontal, vertical), area,
 * height above the DTM, coordinates (project CRS and WGS 84) and an
 * elevation profile with its chart. Lengths are computed in the project CRS
 * (viewer/measure); the viewer only picks positions and draws the overlay.
 * Esc cancels the measure being drawn, Enter finishes it.
 */
export function MeasureToolbar({
  project,
  shareToken,
  cloudUrl,
  onSceneChange,
  pickRef,
  suspended = false,
}: MeasureToolbarProps) {
  const { t, i18n } = useTranslation();
  const [tool, setTool] = useState<MeasureTool | null>(null);
  const [measures, setMeasures] = useState<Measure[]>([]);
  const [draft, setDraft] = useState<Measure | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [profile, setProfile] = useState<ProfileState | null>(null);
  const [corridorWidth, setCorridorWidth] = useState(2);
  const [copied, setCopied] = useState<number | null>(null);
  const nextId = useRef(1);
  const crsRef = useRef<ProjectCrs | null>(null);
  const draftRef = useRef<Measure | null>(null);
  draftRef.current = draft;

  const { data: crsDefinition, error: crsError } = useSWR<ProjectCrsDefinition | null>(
    ['measure-crs', project.id, shareToken ?? ''],
    async () => {
      try {
        return await fetchMeasureCrs(project.id, shareToken);
      } catch (err) {
        // No CRS: measures are made in a local metric frame, coordinates shown in WGS 84 only.
        if (isApiError(err) && err.code === 'CRS_REQUIRED') return null;
        throw err;
      }
    },
    { shouldRetryOnError: false, revalidateOnFocus: false },
  );
  const crsReady = crsDefinition !== undefined || crsError !== undefined;
  const hasDtm = Boolean(project.layers?.some((l) => l.assets.some((a) => a.type === 'DTM' && a.status === 'READY')));

  const lang = i18n.language;
  const format: MeasureFormat = useMemo(() => {
    const n = (digits: number) =>
      new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    const m = n(2);
    const c = n(3);
    return {
      metres: (v) => t('viewer:measure.units.metres', { value: m.format(v) }),
      squareMetres: (v) => t('viewer:measure.units.squareMetres', { value: m.format(v) }),
      coordinate: (v) => c.format(v),
    };
  }, [lang, t]);

  const crs = crsRef.current;
  const scene = useMemo(
    () => measureSceneOf(draft ? [...measures, draft] : measures, crs, tool !== null, format),
    [measures, draft, crs, tool, format],
  );
  const hasAnything = tool !== null || measures.length > 0 || draft !== null;
  useEffect(() => {
    onSceneChange(hasAnything ? scene : undefined);
  }, [scene, hasAnything, onSceneChange]);
  useEffect(() => () => onSceneChange(undefined), [onSceneChange]);

  const ensureCrs = useCallback(
    (p: { lon: number; lat: number }): ProjectCrs => {
      crsRef.current ??= measureCrs(crsDefinition ?? null, p);
      return crsRef.current;
    },
    [crsDefinition],
  );

  const finishDraft = useCallback(() => {
    const d = draftRef.current;
    if (d && d.vertices.length >= VERTICES_NEEDED[d.tool]) setMeasures((list) => [...list, d]);
    setDraft(null);
  }, []);

  const cancel = useCallback(() => {
    setDraft(null);
    setTool(null);
    setMessage(null);
  }, []);

  function choose(next: MeasureTool) {
    const drawing = draftRef.current !== null && draftRef.current.tool === next;
    finishDraft();
    setMessage(null);
    // The active tool's button while drawing finishes the measure and keeps the tool (Enter on it does too).
    if (!drawing) setTool((current) => (current === next ? null : next));
  }

  const groundZ = useCallback(
    async (x: number, y: number): Promise<number | null> => {
      const r = await fetchDtmHeights(project.id, [[x, y]], shareToken);
      return r.heights[0] ?? null;
    },
    [project.id, shareToken],
  );

  const onPick = useCallback(
    async (p: PickedPosition | null) => {
      if (!tool) return;
      if (!p) {
        setMessage(t('viewer:measure.messages.noPosition'));
        return;
      }
      if (tool === 'height' && p.source === 'globe') {
        setMessage(t('viewer:measure.messages.clickOnCloud'));
        return;
      }
      const c = ensureCrs(p);
      let height = p.height;
      try {
        if (height === null) {
          // The 2D map away from the loaded points: the ground's height, when the project has a DTM.
          if (!hasDtm) {
            setMessage(t('viewer:measure.messages.noHeight'));
            return;
          }
          const xy = c.toProject({ lon: p.lon, lat: p.lat, height: 0 });
          const z = await groundZ(xy.x, xy.y);
          if (z === null) {
            setMessage(t('viewer:measure.messages.noHeight'));
            return;
          }
          height = z * c.units.vertical;
        }
        const geodetic = { lon: p.lon, lat: p.lat, height };
        const vertex: MeasureVertex = { geodetic, project: c.toProject(geodetic), source: p.source };
        setMessage(null);
        if (tool === 'coordinates' || tool === 'height') {
          const m: Measure = { id: nextId.current++, tool, vertices: [vertex] };
          if (tool === 'height') {
            if (!hasDtm) {
              setMessage(t('viewer:measure.messages.needsDtm'));
              return;
            }
            m.groundZ = await groundZ(vertex.project.x, vertex.project.y);
          }
          setMeasures((list) => [...list, m]);
          return;
        }
        const d = draftRef.current ?? { id: nextId.current++, tool, vertices: [] };
        const next: Measure = { ...d, vertices: [...d.vertices, vertex] };
        if (tool === 'profile' && next.vertices.length === 2) {
          draftRef.current = null;
          setDraft(null);
          setMeasures((list) => [...list, next]);
          return;
        }
        draftRef.current = next;
        setDraft(next);
      } catch (err) {
        setMessage(
          isApiError(err)
            ? t(`errors:${err.code}`, { defaultValue: err.message })
            : t('viewer:measure.messages.failed', { message: (err as Error).message }),
        );
      }
    },
    [tool, ensureCrs, hasDtm, groundZ, t],
  );

  useEffect(() => {
    pickRef.current = (p) => void onPick(p);
    window.__nuageMeasure = { pick: onPick };
    return () => {
      pickRef.current = null;
      delete window.__nuageMeasure;
    };
  }, [onPick, pickRef]);

  // Another tool takes the scene: the measure being drawn is dropped and the tool left.
  useEffect(() => {
    if (suspended) cancel();
  }, [suspended, cancel]);

  // Esc cancels the measure being drawn (and leaves the tool); Enter finishes it.
  useEffect(() => {
    if (!tool && !draft) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') cancel();
      else if (
        e.key === 'Enter' &&
        draftRef.current &&
        !(e.target instanceof HTMLInputElement || e.target instanceof HTMLButtonElement)
      ) {
        finishDraft();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [tool, draft, cancel, finishDraft]);

  // The latest profile line, read again when the corridor width changes.
  const profileMeasure = [...measures].reverse().find((m) => m.tool === 'profile');
  useEffect(() => {
    const c = crsRef.current;
    if (!profileMeasure || !c || !cloudUrl) return;
    const [a, b] = profileMeasure.vertices;
    if (!a || !b) return;
    const controller = new AbortController();
    setProfile({ measureId: profileMeasure.id, width: corridorWidth, status: 'loading' });
    const vu = c.units.vertical;
    const lo =
      project.minElevation !== null ? project.minElevation * vu : Math.min(a.geodetic.height, b.geodetic.height);
    const hi =
      project.maxElevation !== null ? project.maxElevation * vu : Math.max(a.geodetic.height, b.geodetic.height);
    // Generous in height: the box only chooses tiles; the corridor test is made on each point.
    loadProfile(
      cloudUrl,
      c,
      a.project,
      b.project,
      corridorWidth / 2,
      { min: lo - 200, max: hi + 200 },
      {
        signal: controller.signal,
      },
    )
      .then((data) => {
        if (!controller.signal.aborted) {
          setProfile({ measureId: profileMeasure.id, width: corridorWidth, status: 'ready', data });
        }
      })
      .catch((err: Error) => {
        if (!controller.signal.aborted) {
          setProfile({ measureId: profileMeasure.id, width: corridorWidth, status: 'error', error: err.message });
        }
      });
    return () => controller.abort();
  }, [profileMeasure, corridorWidth, cloudUrl, project.minElevation, project.maxElevation]);

  function clearAll() {
    setMeasures([]);
    setDraft(null);
    setProfile(null);
    setMessage(null);
  }

  const copy = async (id: number, text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(id);
      setTimeout(() => setCopied((c) => (c === id ? null : c)), 1500);
    } catch {
      setMessage(t('viewer:measure.messages.copyFailed'));
    }
  };

  const shown = draft ? [...measures, draft] : measures;
  const hint = tool ? t(`viewer:measure.hints.${tool}`, { count: draft?.vertices.length ?? 0 }) : null;

  return (
    <>
      <div
        className="nu-measure__tools"
        role="toolbar"
        aria-label={t('viewer:measure.title')}
        data-measure-tool={tool ?? ''}
      >
        <ButtonGroup vertical>
          {TOOLS.map((name) => {
            const disabled =
              suspended || !crsReady || (name === 'height' && !hasDtm) || (name === 'profile' && !cloudUrl);
            const tip =
              name === 'height' && !hasDtm
                ? t('viewer:measure.tools.heightNeedsDtm')
                : t(`viewer:measure.tools.${name}Help`);
            return (
              <Tooltip key={name} content={tip} placement="left">
                <Button
                  icon={TOOL_ICONS[name]}
                  active={tool === name}
                  disabled={disabled}
                  aria-pressed={tool === name}
                  aria-label={t(`viewer:measure.tools.${name}`)}
                  data-measure-button={name}
                  onClick={() => choose(name)}
                />
              </Tooltip>
            );
          })}
          <Tooltip content={t('viewer:measure.clearAll')} placement="left">
            <Button
              icon="trash"
              disabled={measures.length === 0 && !draft}
              aria-label={t('viewer:measure.clearAll')}
              onClick={clearAll}
            />
          </Tooltip>
        </ButtonGroup>
      </div>
      {(hint || message || shown.length > 0) && (
        <section className="nu-measure__panel" aria-label={t('viewer:measure.results')} data-testid="measure-panel">
          <header className="nu-measure__head">
            <span className="nu-measure__title">{t('viewer:measure.results')}</span>
            {draft && draft.vertices.length >= VERTICES_NEEDED[draft.tool] && (
              <Button size="small" intent={Intent.PRIMARY} text={t('viewer:measure.finish')} onClick={finishDraft} />
            )}
          </header>
          {hint && (
            <p className="nu-measure__hint" role="status">
              {hint}
            </p>
          )}
          {message && (
            <p className="nu-measure__message" role="alert">
              {message}
            </p>
          )}
          {shown.map((m) => (
            <MeasureCard
              key={m.id}
              measure={m}
              crs={crsRef.current}
              draft={m === draft}
              format={format}
              copied={copied === m.id}
              onCopy={(text) => void copy(m.id, text)}
              profile={profile?.measureId === m.id ? profile : undefined}
              corridorWidth={corridorWidth}
              onCorridorWidth={setCorridorWidth}
              onRemove={() => {
                if (m === draft) setDraft(null);
                else setMeasures((list) => list.filter((x) => x.id !== m.id));
              }}
            />
          ))}
        </section>
      )}
    </>
  );
}

interface Row {
  key: string;
  label: string;
  /** Shown text. */
  text: string;
  /** The raw number (metres, m², project units or degrees), for tests and copies. */
  value?: number;
}

interface MeasureCardProps {
  measure: Measure;
  crs: ProjectCrs | null;
  draft: boolean;
  format: MeasureFormat;
  copied: boolean;
  onCopy: (text: string) => void;
  onRemove: () => void;
  profile: ProfileState | undefined;
  corridorWidth: number;
  onCorridorWidth: (width: number) => void;
}

function MeasureCard(props: MeasureCardProps) {
  const { measure: m, crs, draft, format, copied, onCopy, onRemove, profile } = props;
  const { t, i18n } = useTranslation();
  if (!crs) return null;
  const rows = rowsOf(m, crs, format, t, i18n.language);
  const title = t(`viewer:measure.tools.${m.tool}`);
  const text = [title, ...rows.map((r) => `${r.label}\t${r.text}`)].join('\n');
  return (
    <article
      className="nu-measure__card"
      data-measure-kind={m.tool}
      data-draft={draft ? 'true' : 'false'}
      data-pick-source={m.vertices[0]?.source ?? ''}
    >
      <header className="nu-measure__card-head">
        <span className="nu-measure__card-title">
          {title}
          {draft && <span className="nu-muted"> · {t('viewer:measure.drawing')}</span>}
        </span>
        <span>
          <Tooltip content={copied ? t('viewer:measure.copied') : t('viewer:measure.copy')}>
            <Button
              variant="minimal"
              size="small"
              icon={copied ? 'tick' : 'clipboard'}
              aria-label={t('viewer:measure.copy')}
              onClick={() => onCopy(text)}
            />
          </Tooltip>
          <Tooltip content={t('viewer:measure.remove')}>
            <Button
              variant="minimal"
              size="small"
              icon="cross"
              aria-label={t('viewer:measure.remove')}
              onClick={onRemove}
            />
          </Tooltip>
        </span>
      </header>
      {rows.length > 0 && (
        <HTMLTable compact className="nu-measure__table">
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} data-measure-value={r.key} data-value={r.value ?? ''}>
                <th scope="row">{r.label}</th>
                <td>{r.text}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {m.tool === 'profile' && m.vertices.length === 2 && (
        <ProfilePanel profile={profile} width={props.corridorWidth} onWidth={props.onCorridorWidth} format={format} />
      )}
    </article>
  );
}

type T = ReturnType<typeof useTranslation>['t'];

/** The rows of a measure's card. */
function rowsOf(m: Measure, crs: ProjectCrs, f: MeasureFormat, t: T, lang: string): Row[] {
  const pts = m.vertices.map((v) => v.project);
  const signed = (v: number) => (v > 0 ? `+${f.metres(v)}` : f.metres(v));
  switch (m.tool) {
    case 'distance': {
      const p = measurePolyline(pts, crs.units);
      const rows: Row[] = [];
      p.segments.forEach((s, i) => {
        const seg = t('viewer:measure.rows.segment', { from: i + 1, to: i + 2 });
        rows.push({
          key: `segment-${i + 1}`,
          label: seg,
          text: `${f.metres(s.distance3d)} · ↔ ${f.metres(s.horizontal)} · ↕ ${signed(s.vertical)}`,
          value: s.distance3d,
        });
      });
      if (p.segments.length > 0) {
        rows.push({
          key: 'distance3d',
          label: t('viewer:measure.rows.distance3d'),
          text: f.metres(p.distance3d),
          value: p.distance3d,
        });
        rows.push({
          key: 'horizontal',
          label: t('viewer:measure.rows.horizontal'),
          text: f.metres(p.horizontal),
          value: p.horizontal,
        });
        rows.push({
          key: 'vertical',
          label: t('viewer:measure.rows.vertical'),
          text: signed(p.vertical),
          value: p.vertical,
        });
      }
      return rows;
    }
    case 'area': {
      const p = measurePolygon(pts, crs.units);
      if (pts.length < 3) return [];
      return [
        { key: 'area', label: t('viewer:measure.rows.area'), text: f.squareMetres(p.area), value: p.area },
        {
          key: 'hectares',
          label: t('viewer:measure.rows.hectares'),
          text: t('viewer:measure.units.hectares', {
            value: new Intl.NumberFormat(lang, { maximumFractionDigits: 4 }).format(p.area / 10_000),
          }),
          value: p.area / 10_000,
        },
        {
          key: 'perimeter',
          label: t('viewer:measure.rows.perimeter'),
          text: f.metres(p.perimeter),
          value: p.perimeter,
        },
      ];
    }
    case 'height': {
      const v = m.vertices[0]!;
      const rows: Row[] = [
        { key: 'pointZ', label: t('viewer:measure.rows.pointZ'), text: f.coordinate(v.project.z), value: v.project.z },
      ];
      if (m.groundZ === null || m.groundZ === undefined) {
        rows.push({ key: 'groundZ', label: t('viewer:measure.rows.groundZ'), text: t('viewer:measure.rows.offDtm') });
      } else {
        const hag = (v.project.z - m.groundZ) * crs.units.vertical;
        rows.push({
          key: 'groundZ',
          label: t('viewer:measure.rows.groundZ'),
          text: f.coordinate(m.groundZ),
          value: m.groundZ,
        });
        rows.push({
          key: 'heightAboveGround',
          label: t('viewer:measure.rows.heightAboveGround'),
          text: f.metres(hag),
          value: hag,
        });
      }
      return rows;
    }
    case 'coordinates': {
      const v = m.vertices[0]!;
      const deg = new Intl.NumberFormat(lang, { minimumFractionDigits: 7, maximumFractionDigits: 7 });
      const rows: Row[] = [];
      if (crs.isProjectCrs) {
        const name = crs.definition.epsg ? `EPSG:${crs.definition.epsg}` : crs.definition.name;
        rows.push({ key: 'crs', label: t('viewer:measure.rows.projectCrs'), text: name });
        rows.push({ key: 'x', label: 'X', text: f.coordinate(v.project.x), value: v.project.x });
        rows.push({ key: 'y', label: 'Y', text: f.coordinate(v.project.y), value: v.project.y });
        rows.push({ key: 'z', label: 'Z', text: f.coordinate(v.project.z), value: v.project.z });
      } else {
        rows.push({ key: 'crs', label: t('viewer:measure.rows.projectCrs'), text: t('viewer:measure.rows.noCrs') });
      }
      rows.push({
        key: 'lat',
        label: t('viewer:measure.rows.latitude'),
        text: `${deg.format(v.geodetic.lat)}°`,
        value: v.geodetic.lat,
      });
      rows.push({
        key: 'lon',
        label: t('viewer:measure.rows.longitude'),
        text: `${deg.format(v.geodetic.lon)}°`,
        value: v.geodetic.lon,
      });
      return rows;
    }
    case 'profile': {
      if (m.vertices.length < 2) return [];
      const p = measurePolyline(pts, crs.units);
      return [
        { key: 'length', label: t('viewer:measure.rows.length'), text: f.metres(p.horizontal), value: p.horizontal },
      ];
    }
  }
}

/** A profile point: a 3-pixel dot (recharts' default symbols are too big for thousands of points). */
function dot(props: unknown) {
  const { cx, cy, fill } = props as { cx?: number; cy?: number; fill?: string };
  return <circle cx={cx} cy={cy} r={1.5} fill={fill} />;
}

interface ProfilePanelProps {
  profile: ProfileState | undefined;
  width: number;
  onWidth: (width: number) => void;
  format: MeasureFormat;
}

function ProfilePanel({ profile, width, onWidth, format }: ProfilePanelProps) {
  const { t, i18n } = useTranslation();
  const data = profile?.status === 'ready' ? profile.data : undefined;
  const byClass = useMemo(() => {
    const groups = new Map<number, Array<{ along: number; elevation: number }>>();
    for (const s of thinSamples(data?.samples ?? [], CHART_POINTS)) {
      const code = classOf(s.classification).code;
      let list = groups.get(code);
      if (!list) {
        list = [];
        groups.set(code, list);
      }
      list.push({ along: s.along, elevation: s.elevation });
    }
    return [...groups.entries()].sort((a, b) => a[0] - b[0]);
  }, [data]);
  const count = data?.samples.length ?? 0;
  const nf = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  return (
    <div className="nu-measure__profile" data-profile-status={profile?.status ?? 'none'} data-point-count={count}>
      <div className="nu-measure__width">
        <label htmlFor="nu-measure-width">{t('viewer:measure.profile.width')}</label>
        <NumericInput
          size="small"
          min={0.1}
          max={50}
          stepSize={0.5}
          minorStepSize={0.1}
          value={width}
          onValueChange={(v) => {
            if (Number.isFinite(v) && v >= 0.1 && v <= 50) onWidth(v);
          }}
          id="nu-measure-width"
          className="nu-measure__width-input"
        />
      </div>
      {profile?.status === 'loading' && (
        <p className="nu-measure__hint" role="status">
          <Spinner size={12} /> {t('viewer:measure.profile.loading')}
        </p>
      )}
      {profile?.status === 'error' && (
        <p className="nu-measure__message" role="alert">
          {t('viewer:measure.profile.failed', { message: profile.error })}
        </p>
      )}
      {data && (
        <>
          <p className="nu-measure__hint">
            {t('viewer:measure.profile.points', { count, formatted: count.toLocaleString(i18n.language) })}
            {data.truncated && ` · ${t('viewer:measure.profile.truncated')}`}
          </p>
          {count > 0 && (
            <figure className="nu-measure__chart" aria-label={t('viewer:measure.profile.chart')}>
              <ResponsiveContainer width="100%" height={200}>
                <ComposedChart margin={{ top: 6, right: 8, bottom: 14, left: 0 }}>
                  <CartesianGrid stroke="#394048" strokeDasharray="3 3" />
                  <XAxis
                    type="number"
                    dataKey="along"
                    domain={[0, Math.max(data.length, 0.01)]}
                    tickFormatter={(v: number) => nf.format(v)}
                    stroke="#abb3bf"
                    fontSize={11}
                    label={{
                      value: t('viewer:measure.profile.distance'),
                      position: 'insideBottom',
                      offset: -8,
                      fill: '#abb3bf',
                      fontSize: 11,
                    }}
                  />
                  <YAxis
                    type="number"
                    dataKey="elevation"
                    domain={['auto', 'auto']}
                    tickFormatter={(v: number) => nf.format(v)}
                    stroke="#abb3bf"
                    fontSize={11}
                    width={52}
                    label={{
                      value: t('viewer:measure.profile.elevation'),
                      angle: -90,
                      position: 'insideLeft',
                      fill: '#abb3bf',
                      fontSize: 11,
                    }}
                  />
                  <ChartTooltip
                    cursor={false}
                    formatter={(v) => format.metres(Number(v))}
                    labelFormatter={() => ''}
                    contentStyle={{ background: '#1c2127', border: '1px solid #394048', fontSize: 12 }}
                  />
                  {byClass.map(([code, points]) => (
                    <Scatter
                      key={code}
                      name={t(`viewer:classes.${code}`, { defaultValue: String(code) })}
                      data={points}
                      fill={classOf(code).color}
                      shape={dot}
                      isAnimationActive={false}
                    />
                  ))}
                  <Line
                    data={data.bins}
                    dataKey="min"
                    xAxisId={0}
                    type="linear"
                    stroke="#ffd400"
                    dot={false}
                    strokeWidth={1}
                    isAnimationActive={false}
                    name={t('viewer:measure.profile.lowest')}
                  />
                </ComposedChart>
              </ResponsiveContainer>
            </figure>
          )}
        </>
      )}
    </div>
  );
}
