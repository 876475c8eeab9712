import {
  AnchorButton,
  Button,
  Checkbox,
  HTMLSelect,
  InputGroup,
  Intent,
  NumericInput,
  ProgressBar,
  SegmentedControl,
} from '@blueprintjs/core';
import { type RefObject, useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/api.js';
import { isApiError } from '../../shared/api/api-error.js';
import type { GeodeticPosition, MeasureScene, PickedPosition } from '../../viewer/measure/measure.types.js';
import type { Project } from '../projects/projects.types.js';
import './clip-dialog.css';

/**
 * Clip and download (issue 23): draw a polygon, a box (two corners) or a
 * corridor (a line and a width) in the 3D or 2D viewer, see the estimated
 * point count and size, then the server cuts the points inside out of the
 * stored cloud (a job with progress) and offers the file. The drawing goes to
 * the scene through the measure overlay (lines, vertices), clicks come back
 * as the viewer's `measurePick` events while a drawing is under way.
 */

export type ClipKind = 'polygon' | 'box' | 'corridor';
type ClipSource = 'original' | 'classified';
type ClipFormat = 'las' | 'laz';
type Returns = 'all' | 'first' | 'last';
type VectorFormat = 'geojson' | 'dxf' | 'shapefile';
const VECTOR_FORMATS: readonly VectorFormat[] = ['geojson', 'dxf', 'shapefile'];

/** The colour of the clip area in the scene. */
export const CLIP_COLOR = '#ff5ca8';

interface ClipBody {
  source: ClipSource;
  kind: ClipKind;
  area: { type: 'Polygon' | 'LineString'; coordinates: unknown };
  width?: number;
  classes?: number[];
  returns?: Returns;
  format: ClipFormat;
  vectors?: { format: VectorFormat };
}

interface ClipEstimate {
  points: number;
  bytes: number;
  areaSquareMetres: number;
  maxAreaSquareMetres: number;
  formats: ClipFormat[];
}

interface ClipStatus {
  id: string;
  state: 'PENDING' | 'PROGRESS' | 'SUCCESS' | 'FAILURE';
  step: string;
  percentage: number;
  pointCount: number | null;
  bytes: number | null;
  fileName: string;
  url: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  vectors: {
    fileName: string;
    bytes: number | null;
    url: string | null;
    files: Array<{ assetType: string; features: number }>;
  } | null;
}

/** Vertices each kind needs before its area is complete. */
const NEEDED: Record<ClipKind, number> = { polygon: 3, box: 2, corridor: 2 };

/** The GeoJSON geometry (EPSG:4326) of a drawing; null while incomplete. */
export function clipGeometry(kind: ClipKind, vertices: readonly GeodeticPosition[]): ClipBody['area'] | null {
  if (vertices.length < NEEDED[kind]) return null;
  const ll = vertices.map((v) => [v.lon, v.lat]);
  if (kind === 'corridor') return { type: 'LineString', coordinates: ll };
  if (kind === 'box') {
    const [a, b] = ll as [[number, number], [number, number]];
    const ring = [a, [b[0], a[1]], b, [a[0], b[1]], a];
    return { type: 'Polygon', coordinates: [ring] };
  }
  return { type: 'Polygon', coordinates: [[...ll, ll[0]!]] };
}

/** The outline drawn in the scene: the box's four corners, the polygon closed, the corridor's line. */
function outlineOf(kind: ClipKind, vertices: readonly GeodeticPosition[]): GeodeticPosition[] {
  if (kind !== 'box' || vertices.length < 2) return [...vertices];
  const [a, b] = vertices as [GeodeticPosition, GeodeticPosition];
  const h = (a.height + b.height) / 2;
  return [a, { lon: b.lon, lat: a.lat, height: h }, b, { lon: a.lon, lat: b.lat, height: h }];
}

/** Both overlays in one scene (the viewer draws one): the measures and the clip area. */
export function mergeScenes(a: MeasureScene | undefined, b: MeasureScene | undefined): MeasureScene | undefined {
  if (!a) return b;
  if (!b) return a;
  return {
    active: a.active || b.active,
    lines: [...a.lines, ...b.lines],
    vertices: [...a.vertices, ...b.vertices],
    labels: [...a.labels, ...b.labels],
  };
}

/** Parses "2, 6" into class codes; null when it is not such a list. */
export function parseClasses(text: string): number[] | null {
  const parts = text
    .split(/[,;\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (!parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.map(Number);
}

function clipPath(projectId: string, rest: string, shareToken: string | undefined): string {
  const id = encodeURIComponent(projectId);
  if (!shareToken) return `/projects/${id}/clip${rest}`;
  if (rest === '') return `/projects/${id}/clip-from-shared-token`;
  if (rest === '/estimate') return `/projects/${id}/clip/estimate-from-shared-token`;
  return `/projects/${id}/clip${rest}/from-shared-token`;
}

const query = (shareToken: string | undefined) => (shareToken ? { query: { token: shareToken } } : {});

/** The test hook a browser journey draws with (what a click would hand it). */
interface ClipTestHook {
  pick(position: PickedPosition | null): void;
}

declare global {
  interface Window {
    __nuageClip?: ClipTestHook;
  }
}

export interface ClipDialogProps {
  project: Project;
  shareToken?: string | undefined;
  isOpen: boolean;
  onClose: () => void;
  /** Hands the clip area to the scene (undefined: nothing to draw). */
  onSceneChange: (scene: MeasureScene | undefined) => void;
  /** Set while drawing: the page sends the viewer's `measurePick` events here instead of the measure tools. */
  pickRef: RefObject<((position: PickedPosition | null) => void) | null>;
}

/** The clip panel of the viewer (bottom left, the scene stays usable to draw). */
export function ClipDialog({ project, shareToken, isOpen, onClose, onSceneChange, pickRef }: ClipDialogProps) {
  const { t, i18n } = useTranslation();
  const uid = useId();
  const [kind, setKind] = useState<ClipKind>('polygon');
  const [vertices, setVertices] = useState<GeodeticPosition[]>([]);
  const [drawing, setDrawing] = useState(false);
  const [width, setWidth] = useState(20);
  const [source, setSource] = useState<ClipSource>('original');
  const [classesText, setClassesText] = useState('');
  const [returns, setReturns] = useState<Returns>('all');
  const [format, setFormat] = useState<ClipFormat>('las');
  const [withVectors, setWithVectors] = useState(false);
  const [vectorFormat, setVectorFormat] = useState<VectorFormat>('geojson');
  const [estimate, setEstimate] = useState<ClipEstimate | null>(null);
  const [estimating, setEstimating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<ClipStatus | null>(null);
  const [starting, setStarting] = useState(false);

  const hasClassified = Boolean(
    project.layers?.some((l) => l.assets.some((a) => a.type === 'CLASSIFIED_POINT_CLOUD' && a.status === 'READY')),
  );
  const classes = parseClasses(classesText);
  const geometry = clipGeometry(kind, vertices);
  const complete = geometry !== null && !drawing;

  const errorText = useCallback(
    (err: unknown) =>
      isApiError(err)
        ? t(`errors:${err.code}`, { defaultValue: err.message })
        : t('viewer:clip.failed', { message: (err as Error).message }),
    [t],
  );

  const geometryKey = geometry ? JSON.stringify(geometry) : '';
  const body: ClipBody | null = useMemo(() => {
    const area = geometryKey ? (JSON.parse(geometryKey) as ClipBody['area']) : null;
    const codes = parseClasses(classesText);
    if (!area || !codes) return null;
    return {
      source,
      kind,
      area,
      ...(kind === 'corridor' ? { width } : {}),
      ...(codes.length ? { classes: codes } : {}),
      returns,
      format,
      ...(withVectors ? { vectors: { format: vectorFormat } } : {}),
    };
  }, [geometryKey, source, kind, width, classesText, returns, format, withVectors, vectorFormat]);

  // The estimate, asked again when the area or the options change.
  useEffect(() => {
    if (!isOpen || !body || drawing) {
      setEstimate(null);
      return;
    }
    let live = true;
    setEstimating(true);
    setError(null);
    const timer = setTimeout(() => {
      api
        .post<ClipEstimate>(clipPath(project.id, '/estimate', shareToken), { ...query(shareToken), body })
        .then((e) => {
          if (!live) return;
          setEstimate(e);
          if (!e.formats.includes(format)) setFormat('las');
        })
        .catch((err) => {
          if (live) {
            setEstimate(null);
            setError(errorText(err));
          }
        })
        .finally(() => {
          if (live) setEstimating(false);
        });
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [isOpen, body, drawing, project.id, shareToken, errorText, format]);

  // The clip's progress, polled every second until it ends.
  useEffect(() => {
    if (!status || status.state === 'SUCCESS' || status.state === 'FAILURE') return;
    const timer = setTimeout(() => {
      api
        .get<ClipStatus>(clipPath(project.id, `/${encodeURIComponent(status.id)}`, shareToken), query(shareToken))
        .then(setStatus)
        .catch((err) => setError(errorText(err)));
    }, 1000);
    return () => clearTimeout(timer);
  }, [status, project.id, shareToken, errorText]);

  // The drawing in the scene.
  useEffect(() => {
    if (!isOpen || (vertices.length === 0 && !drawing)) {
      onSceneChange(undefined);
      return;
    }
    const outline = outlineOf(kind, vertices);
    onSceneChange({
      active: drawing,
      lines: [
        { positions: outline, closed: kind !== 'corridor' && vertices.length >= NEEDED[kind], color: CLIP_COLOR },
      ],
      vertices,
      labels: [],
    });
  }, [isOpen, vertices, drawing, kind, onSceneChange]);
  useEffect(() => () => onSceneChange(undefined), [onSceneChange]);

  const onPick = useCallback(
    (p: PickedPosition | null) => {
      if (!p) {
        setError(t('viewer:clip.noPosition'));
        return;
      }
      setError(null);
      setVertices((list) => {
        const next = [...list, { lon: p.lon, lat: p.lat, height: p.height ?? 0 }];
        // A box is done with its second corner.
        if (kind === 'box' && next.length >= 2) setDrawing(false);
        return kind === 'box' ? next.slice(-2) : next;
      });
    },
    [kind, t],
  );

  useEffect(() => {
    if (!isOpen || !drawing) return;
    pickRef.current = onPick;
    window.__nuageClip = { pick: onPick };
    return () => {
      pickRef.current = null;
      delete window.__nuageClip;
    };
  }, [isOpen, drawing, onPick, pickRef]);

  // Esc stops drawing, Enter finishes.
  useEffect(() => {
    if (!isOpen || !drawing) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' || (e.key === 'Enter' && !(e.target instanceof HTMLInputElement))) setDrawing(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [isOpen, drawing]);

  function startDrawing() {
    setVertices([]);
    setStatus(null);
    setError(null);
    setDrawing(true);
  }

  function chooseKind(next: ClipKind) {
    setKind(next);
    setVertices([]);
    setStatus(null);
    setDrawing(false);
  }

  async function start() {
    if (!body) return;
    setStarting(true);
    setError(null);
    try {
      setStatus(await api.post<ClipStatus>(clipPath(project.id, '', shareToken), { ...query(shareToken), body }));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setStarting(false);
    }
  }

  const lang = i18n.language;
  const count = (n: number) => new Intl.NumberFormat(lang).format(n);
  const megabytes = (n: number) =>
    t('viewer:clip.megabytes', {
      value: new Intl.NumberFormat(lang, { maximumFractionDigits: n < 10e6 ? 1 : 0 }).format(n / 1e6),
    });
  const squareMetres = (n: number) =>
    n >= 1e6
      ? t('viewer:clip.squareKilometres', {
          value: new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(n / 1e6),
        })
      : t('viewer:clip.squareMetres', { value: new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }).format(n) });

  if (!isOpen) return null;
  const running = status !== null && (status.state === 'PENDING' || status.state === 'PROGRESS');
  const lazOffered = estimate ? estimate.formats.includes('laz') : true;
  const hint = drawing
    ? t(`viewer:clip.hints.${kind}`, { count: vertices.length })
    : geometry
      ? null
      : t('viewer:clip.hints.start');

  return (
    <section className="nu-tool-panel nu-clip__panel" aria-label={t('viewer:clip.title')} data-testid="clip-panel">
      <header className="nu-clip__head">
        <span className="nu-clip__title">{t('viewer:clip.title')}</span>
        <Button size="small" variant="minimal" icon="cross" aria-label={t('viewer:actions.close')} onClick={onClose} />
      </header>
      <SegmentedControl
        size="small"
        fill
        value={kind}
        onValueChange={(v) => chooseKind(v as ClipKind)}
        options={(['polygon', 'box', 'corridor'] as const).map((k) => ({
          value: k,
          label: t(`viewer:clip.kinds.${k}`),
        }))}
      />
      {kind === 'corridor' && (
        <label className="nu-clip__row" htmlFor={`${uid}-width`}>
          <span>{t('viewer:clip.width')}</span>
          <NumericInput
            size="small"
            min={0.5}
            max={1000}
            stepSize={1}
            value={width}
            onValueChange={(v) => Number.isFinite(v) && v > 0 && setWidth(v)}
            id={`${uid}-width`}
            aria-label={t('viewer:clip.width')}
          />
        </label>
      )}
      <div className="nu-clip__draw">
        <Button
          size="small"
          icon={drawing ? 'tick' : 'draw'}
          intent={drawing ? Intent.PRIMARY : Intent.NONE}
          data-clip-action={drawing ? 'finish' : 'draw'}
          disabled={drawing && vertices.length < NEEDED[kind]}
          text={drawing ? t('viewer:clip.finish') : t('viewer:clip.draw')}
          onClick={() => (drawing ? setDrawing(false) : startDrawing())}
        />
        <Button
          size="small"
          icon="eraser"
          disabled={vertices.length === 0}
          text={t('viewer:clip.clear')}
          onClick={() => {
            setVertices([]);
            setDrawing(false);
            setStatus(null);
          }}
        />
      </div>
      {hint && (
        <p className="nu-clip__hint" role="status">
          {hint}
        </p>
      )}
      <label className="nu-clip__row" htmlFor={`${uid}-source`}>
        <span>{t('viewer:clip.source')}</span>
        <HTMLSelect
          id={`${uid}-source`}
          value={source}
          onChange={(e) => setSource(e.currentTarget.value as ClipSource)}
          options={[
            { value: 'original', label: t('viewer:clip.sources.original') },
            ...(hasClassified ? [{ value: 'classified', label: t('viewer:clip.sources.classified') }] : []),
          ]}
        />
      </label>
      <label className="nu-clip__row" htmlFor={`${uid}-classes`}>
        <span>{t('viewer:clip.classes')}</span>
        <InputGroup
          size="small"
          value={classesText}
          placeholder={t('viewer:clip.classesPlaceholder')}
          intent={classes ? Intent.NONE : Intent.DANGER}
          onValueChange={setClassesText}
          id={`${uid}-classes`}
          aria-label={t('viewer:clip.classes')}
        />
      </label>
      {!classes && <p className="nu-clip__message">{t('viewer:clip.classesInvalid')}</p>}
      <label className="nu-clip__row" htmlFor={`${uid}-returns`}>
        <span>{t('viewer:clip.returns')}</span>
        <HTMLSelect
          id={`${uid}-returns`}
          value={returns}
          onChange={(e) => setReturns(e.currentTarget.value as Returns)}
          options={(['all', 'first', 'last'] as const).map((r) => ({
            value: r,
            label: t(`viewer:clip.returnKinds.${r}`),
          }))}
        />
      </label>
      <label className="nu-clip__row" htmlFor={`${uid}-format`}>
        <span>{t('viewer:clip.format')}</span>
        <HTMLSelect
          id={`${uid}-format`}
          value={format}
          onChange={(e) => setFormat(e.currentTarget.value as ClipFormat)}
          options={[
            { value: 'las', label: t('viewer:clip.formats.las') },
            ...(lazOffered ? [{ value: 'laz', label: t('viewer:clip.formats.laz') }] : []),
          ]}
        />
      </label>
      <Checkbox
        className="nu-clip__vectors"
        checked={withVectors}
        data-clip-vectors
        label={t('viewer:clip.vectors.include')}
        onChange={(e) => {
          setWithVectors(e.currentTarget.checked);
          if (status && !running) setStatus(null);
        }}
      />
      {withVectors && (
        <label className="nu-clip__row" htmlFor={`${uid}-vector-format`}>
          <span>{t('viewer:clip.vectors.format')}</span>
          <HTMLSelect
            id={`${uid}-vector-format`}
            value={vectorFormat}
            onChange={(e) => {
              setVectorFormat(e.currentTarget.value as VectorFormat);
              if (status && !running) setStatus(null);
            }}
            options={VECTOR_FORMATS.map((f) => ({ value: f, label: t(`viewer:clip.vectors.formats.${f}`) }))}
          />
        </label>
      )}
      <p className="nu-clip__note">{lazOffered ? t('viewer:clip.lazNote') : t('viewer:clip.lasOnly')}</p>
      {complete && (
        <p className="nu-clip__estimate" data-testid="clip-estimate" data-points={estimate?.points ?? ''}>
          {estimating || !estimate
            ? t('viewer:clip.estimating')
            : t('viewer:clip.estimate', {
                points: count(estimate.points),
                size: megabytes(estimate.bytes),
                area: squareMetres(estimate.areaSquareMetres),
              })}
        </p>
      )}
      {error && (
        <p className="nu-clip__message" role="alert">
          {error}
        </p>
      )}
      {status && running && (
        <div className="nu-clip__progress" role="status" data-clip-state={status.state}>
          <span>{t(`viewer:clip.steps.${status.step}`, { defaultValue: status.step })}</span>
          <ProgressBar value={status.percentage / 100} intent={Intent.PRIMARY} stripes={false} />
        </div>
      )}
      {status?.state === 'FAILURE' && (
        <p className="nu-clip__message" role="alert" data-clip-state="FAILURE">
          {status.errorCode
            ? t(`errors:${status.errorCode}`, { defaultValue: status.errorMessage ?? status.errorCode })
            : status.errorMessage}
        </p>
      )}
      <footer className="nu-clip__foot">
        {status?.state === 'SUCCESS' && status.vectors?.url && (
          <AnchorButton
            icon="download"
            href={status.vectors.url}
            download={status.vectors.fileName}
            data-clip-vectors-download
            text={t('viewer:clip.vectors.download', {
              count: status.vectors.files.length,
              // A zip of a few features weighs kilobytes: two significant digits rather than "0 MB".
              size: t('viewer:clip.megabytes', {
                value: new Intl.NumberFormat(lang, { maximumSignificantDigits: 2 }).format(
                  (status.vectors.bytes ?? 0) / 1e6,
                ),
              }),
            })}
          />
        )}
        {status?.state === 'SUCCESS' && status.url ? (
          <AnchorButton
            intent={Intent.SUCCESS}
            icon="download"
            href={status.url}
            download={status.fileName}
            data-clip-state="SUCCESS"
            data-points={status.pointCount ?? ''}
            text={t('viewer:clip.download', {
              points: count(status.pointCount ?? 0),
              size: megabytes(status.bytes ?? 0),
            })}
          />
        ) : (
          <Button
            intent={Intent.PRIMARY}
            icon="cut"
            loading={starting || running}
            disabled={!complete || !body || !estimate}
            data-clip-action="start"
            text={t('viewer:clip.start')}
            onClick={() => void start()}
          />
        )}
      </footer>
    </section>
  );
}
