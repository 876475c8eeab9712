import {
  Button,
  ButtonGroup,
  Checkbox,
  Classes,
  HTMLSelect,
  InputGroup,
  Intent,
  ProgressBar,
  SegmentedControl,
} from '@blueprintjs/core';
import { type RefObject, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { isApiError } from '../../shared/api/api-error.js';
import {
  EDIT_COLOR,
  type EditDrawTool,
  type EditRegion,
  type EditScene,
  type ScreenPixel,
  type ScreenRegion,
} from '../../viewer/edit/edit.types.js';
import { mapRegionOf } from '../../viewer/edit/edit-region.js';
import { byClassEntries, editRequestOf, parseBound, stepKey } from '../../viewer/edit/edit-request.js';
import type { GeodeticPosition, MeasureScene, PickedPosition } from '../../viewer/measure/measure.types.js';
import { classOf, OTHER_CLASSES, POINT_CLASSES } from '../../viewer/point-styles.js';
import type { SceneMode } from '../../viewer/scene.types.js';
import type { Project } from '../projects/projects.types.js';
import {
  applyEdit,
  type ClassEdit,
  type EditCounts,
  type EditHistory,
  type EditRequest,
  fetchEdits,
  previewEdit,
  revertRestore,
  undoRedo,
} from './class-edit.api.js';
import './class-edit-panel.css';

/**
 * Classification editing in the viewer (issue 23): select points by a lasso
 * or a box drawn on the 3D view (every point whose pixel falls inside, at any
 * depth) or by a polygon on the 2D map, optionally only some classes and a Z
 * range; see the exact number of points that will change, by class; apply
 * (a job rewrites the classified cloud, its tiles and the products that
 * depend on the classes changed, then the viewer reloads them); undo, redo
 * and a history where any edit can be reverted or restored.
 */

/** Classes an edit can give or filter on: spec §3's list (codes 0 to 28, 8 and 12 not listed). */
export const EDIT_CLASSES = POINT_CLASSES.filter((c) => c.code !== OTHER_CLASSES);

/** What is drawn: the region sent to the server and how it shows on screen. */
interface Selection {
  region: EditRegion;
  /** 3D: the outline on screen (CSS pixels). */
  outline?: ScreenPixel[];
  /** 2D: the polygon's corners. */
  vertices?: GeodeticPosition[];
}

const isRunning = (h: EditHistory | undefined) => h?.job?.state === 'PENDING' || h?.job?.state === 'PROGRESS';

/** The test hook a browser journey draws 2D polygons with (what a click would hand it). */
interface EditTestHook {
  pick(position: PickedPosition | null): void;
}

declare global {
  interface Window {
    __nuageEdit?: EditTestHook;
  }
}

export interface ClassEditPanelProps {
  project: Project;
  sceneMode: SceneMode;
  isOpen: boolean;
  onClose: () => void;
  /** Class codes present in the clouds shown (listed first as filters), when known. */
  presentClasses?: ReadonlySet<number> | undefined;
  /** Hands the 3D overlay to the scene (undefined: nothing armed or drawn). */
  onEditSceneChange: (scene: EditScene | undefined) => void;
  /** Hands the 2D polygon to the scene (drawn with the measure overlay). */
  onMapSceneChange: (scene: MeasureScene | undefined) => void;
  /** Set while drawing on the 2D map: the page sends the viewer's `measurePick` events here. */
  pickRef: RefObject<((position: PickedPosition | null) => void) | null>;
  /** The page sends the 3D viewer's `editRegion` events here. */
  regionRef: RefObject<((region: ScreenRegion, outline: ScreenPixel[]) => void) | null>;
  /** An apply job ended: the project's assets are read again, so the viewer reloads what changed. */
  onApplied: () => void;
}

/** The classification-edit panel of the viewer (bottom left; the scene stays usable to draw). */
export function ClassEditPanel({
  project,
  sceneMode,
  isOpen,
  onClose,
  presentClasses,
  onEditSceneChange,
  onMapSceneChange,
  pickRef,
  regionRef,
  onApplied,
}: ClassEditPanelProps) {
  const { t, i18n } = useTranslation();
  const uid = useId();
  const [tool3d, setTool3d] = useState<EditDrawTool>('lasso');
  const [drawing, setDrawing] = useState(false);
  const [vertices, setVertices] = useState<GeodeticPosition[]>([]);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [toClass, setToClass] = useState(6);
  const [fromClasses, setFromClasses] = useState<number[]>([]);
  const [minZText, setMinZText] = useState('');
  const [maxZText, setMaxZText] = useState('');
  /** The last count and the request it was made for (a count is shown only for the request on screen). */
  const [counted, setCounted] = useState<{ key: string; counts: EditCounts } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<string | null>(null);
  /** Jobs started from this panel, by id, with what they did (for the message once they end). */
  const watched = useRef(new Map<string, { action: string; editId: string; before: EditCounts | null }>());

  const errorText = useCallback(
    (err: unknown) =>
      isApiError(err)
        ? t(`errors:${err.code}`, { defaultValue: err.message })
        : t('viewer:classEdit.failed', { message: (err as Error).message }),
    [t],
  );

  const { data: history, mutate: refreshHistory } = useSWR(
    isOpen ? ['classification-edits', project.id] : null,
    () => fetchEdits(project.id),
    {
      refreshInterval: (h) => (isRunning(h) || watched.current.size > 0 ? 1000 : 0),
      revalidateOnFocus: false,
      onError: (err) => setError(errorText(err)),
    },
  );

  const lang = i18n.language;
  const count = useCallback((n: number) => new Intl.NumberFormat(lang).format(n), [lang]);
  /** A class's name inside a sentence ("1,200 high vegetation"). */
  const className = useCallback(
    (code: number) =>
      t(classOf(code).code === OTHER_CLASSES ? 'viewer:classEdit.classCode' : classOf(code).labelKey, {
        code,
      }).toLocaleLowerCase(lang),
    [t, lang],
  );
  const countsText = useCallback(
    (counts: EditCounts) =>
      byClassEntries(counts)
        .map(([c, n]) => t('viewer:classEdit.countOfClass', { count: n, formatted: count(n), name: className(c) }))
        .join(', '),
    [t, count, className],
  );

  const minZ = parseBound(minZText);
  const maxZ = parseBound(maxZText);
  const zInvalid = minZ === 'invalid' || maxZ === 'invalid' || (minZ !== null && maxZ !== null && minZ > maxZ);
  const request = useMemo(
    () => editRequestOf(selection?.region ?? null, toClass, fromClasses, minZ, maxZ),
    [selection, toClass, fromClasses, minZ, maxZ],
  );
  const requestKey = request ? JSON.stringify(request) : '';
  const preview = counted && counted.key === requestKey ? counted.counts : null;

  // A selection belongs to the mode it was drawn in (a 3D region is tied to its view).
  const clearSelection = useCallback(() => {
    setSelection(null);
    setVertices([]);
    setDrawing(false);
    setCounted(null);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared when the mode changes
  useEffect(() => clearSelection(), [sceneMode, clearSelection]);
  useEffect(() => {
    if (!isOpen) clearSelection();
  }, [isOpen, clearSelection]);

  // The exact count, asked again when the selection or the options change.
  useEffect(() => {
    if (!isOpen || !requestKey) return;
    let live = true;
    const timer = setTimeout(() => {
      previewEdit(project.id, JSON.parse(requestKey) as EditRequest)
        .then((p) => {
          if (live) {
            setCounted({ key: requestKey, counts: p });
            setError(null);
          }
        })
        .catch((err) => {
          if (live) {
            setCounted(null);
            setError(errorText(err));
          }
        });
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [isOpen, requestKey, project.id, errorText]);

  // The jobs this panel started: once the latest has ended, the viewer reloads and the panel says what changed.
  useEffect(() => {
    const job = history?.job;
    if (!job || !watched.current.has(job.id)) return;
    if (job.state === 'SUCCESS') {
      const { action, editId, before } = watched.current.get(job.id)!;
      watched.current.clear();
      const edit = history.edits.find((e) => e.id === editId);
      // Undone or reverted: the points it had changed are back (a reverted edit changes nothing now).
      const changed = action === 'undo' || action === 'revert' ? before : edit?.changed;
      setOutcome(
        t(`viewer:classEdit.outcome.${action}`, {
          count: changed?.total ?? 0,
          formatted: count(changed?.total ?? 0),
          to: className(edit?.toClass ?? 0),
          details: changed ? countsText(changed) : '',
        }),
      );
      onApplied();
    } else if (job.state === 'ERROR') {
      watched.current.clear();
      setError(
        job.errorCode
          ? t(`errors:${job.errorCode}`, { defaultValue: t('viewer:classEdit.jobFailed') })
          : t('viewer:classEdit.jobFailed'),
      );
    }
  }, [history, t, count, className, countsText, onApplied]);

  // The 3D overlay: armed while drawing, the outline kept (and the camera held) while selected.
  const outline = selection?.outline ?? null;
  useEffect(() => {
    if (!isOpen || sceneMode !== '3d' || (!drawing && !outline)) {
      onEditSceneChange(undefined);
      return;
    }
    onEditSceneChange({ tool: drawing ? tool3d : null, outline, freeze: outline !== null });
  }, [isOpen, sceneMode, drawing, tool3d, outline, onEditSceneChange]);
  useEffect(() => () => onEditSceneChange(undefined), [onEditSceneChange]);

  // The 2D polygon, drawn with the measure overlay.
  const shownVertices = selection?.vertices ?? vertices;
  useEffect(() => {
    if (!isOpen || sceneMode !== '2d' || (shownVertices.length === 0 && !drawing)) {
      onMapSceneChange(undefined);
      return;
    }
    onMapSceneChange({
      active: drawing,
      lines: [{ positions: shownVertices, closed: shownVertices.length >= 3, color: EDIT_COLOR }],
      vertices: shownVertices,
      labels: [],
    });
  }, [isOpen, sceneMode, shownVertices, drawing, onMapSceneChange]);
  useEffect(() => () => onMapSceneChange(undefined), [onMapSceneChange]);

  const onRegion = useCallback((region: ScreenRegion, drawn: ScreenPixel[]) => {
    setSelection({ region, outline: drawn });
    setDrawing(false);
    setOutcome(null);
  }, []);
  useEffect(() => {
    if (!isOpen) return;
    regionRef.current = onRegion;
    return () => {
      regionRef.current = null;
    };
  }, [isOpen, onRegion, regionRef]);

  const onPick = useCallback(
    (p: PickedPosition | null) => {
      if (!p) {
        setError(t('viewer:classEdit.noPosition'));
        return;
      }
      setError(null);
      setVertices((list) => [...list, { lon: p.lon, lat: p.lat, height: p.height ?? 0 }]);
    },
    [t],
  );
  useEffect(() => {
    if (!isOpen || !drawing || sceneMode !== '2d') return;
    pickRef.current = onPick;
    window.__nuageEdit = { pick: onPick };
    return () => {
      pickRef.current = null;
      delete window.__nuageEdit;
    };
  }, [isOpen, drawing, sceneMode, onPick, pickRef]);

  const finishPolygon = useCallback(() => {
    const region = mapRegionOf(vertices);
    if (!region) return;
    setSelection({ region, vertices });
    setVertices([]);
    setDrawing(false);
    setOutcome(null);
  }, [vertices]);

  function startDrawing() {
    setSelection(null);
    setVertices([]);
    setCounted(null);
    setError(null);
    setOutcome(null);
    setDrawing(true);
  }

  /** Starts a change of the history (apply, undo, redo, revert, restore) and follows its job. */
  const run = useCallback(
    async (action: string, call: () => Promise<{ edit: ClassEdit; jobId: string }>) => {
      setBusy(true);
      setError(null);
      setOutcome(null);
      try {
        const { edit, jobId } = await call();
        const before = history?.edits.find((e) => e.id === edit.id)?.changed ?? null;
        watched.current.set(jobId, { action, editId: edit.id, before });
        await refreshHistory();
        return true;
      } catch (err) {
        setError(errorText(err));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [errorText, refreshHistory, history],
  );

  async function apply() {
    if (!request) return;
    if (await run('apply', () => applyEdit(project.id, request))) clearSelection();
  }

  const canUndo = history?.canUndo ?? false;
  const canRedo = history?.canRedo ?? false;
  const undo = useCallback(() => {
    if (!busy && canUndo) void run('undo', () => undoRedo(project.id, 'undo'));
  }, [busy, canUndo, project.id, run]);
  const redo = useCallback(() => {
    if (!busy && canRedo) void run('redo', () => undoRedo(project.id, 'redo'));
  }, [busy, canRedo, project.id, run]);

  // Esc cancels the drawing (or drops the selection), Enter finishes a 2D polygon,
  // Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo (not while typing in a field).
  useEffect(() => {
    if (!isOpen) return;
    const onKey = (e: KeyboardEvent) => {
      const typing =
        e.target instanceof HTMLInputElement ||
        e.target instanceof HTMLTextAreaElement ||
        e.target instanceof HTMLSelectElement;
      if (e.key === 'Escape') {
        if (drawing || selection) {
          e.preventDefault();
          clearSelection();
        }
        return;
      }
      if (e.key === 'Enter' && drawing && sceneMode === '2d' && !typing && !(e.target instanceof HTMLButtonElement)) {
        finishPolygon();
        return;
      }
      if (typing || !(e.ctrlKey || e.metaKey) || e.altKey) return;
      const key = e.key.toLowerCase();
      if (key === 'z' && !e.shiftKey) {
        e.preventDefault();
        undo();
      } else if ((key === 'z' && e.shiftKey) || key === 'y') {
        e.preventDefault();
        redo();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [isOpen, drawing, selection, sceneMode, clearSelection, finishPolygon, undo, redo]);

  if (!isOpen) return null;

  const job = history?.job ?? null;
  const running = isRunning(history);
  const filterClasses = EDIT_CLASSES.filter(
    (c) => !presentClasses || presentClasses.has(c.code) || fromClasses.includes(c.code),
  );
  const hint = drawing
    ? sceneMode === '2d'
      ? t('viewer:classEdit.hints.polygon', { count: vertices.length })
      : t(`viewer:classEdit.hints.${tool3d}`)
    : selection
      ? sceneMode === '3d'
        ? t('viewer:classEdit.hints.held')
        : null
      : t('viewer:classEdit.hints.start');
  const dateFormat = new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'short' });
  const edits = [...(history?.edits ?? [])].reverse();

  return (
    <section
      className={`nu-tool-panel nu-edit__panel ${Classes.DARK}`}
      aria-label={t('viewer:classEdit.title')}
      data-testid="class-edit-panel"
      data-drawing={drawing ? 'true' : 'false'}
      data-selection={selection ? selection.region.kind : ''}
    >
      <header className="nu-edit__head">
        <span className="nu-edit__title">{t('viewer:classEdit.title')}</span>
        <ButtonGroup>
          <Button
            size="small"
            variant="minimal"
            icon="undo"
            disabled={!canUndo || busy}
            aria-label={t('viewer:classEdit.undo')}
            title={t('viewer:classEdit.undoShortcut')}
            data-edit-action="undo"
            onClick={undo}
          />
          <Button
            size="small"
            variant="minimal"
            icon="redo"
            disabled={!canRedo || busy}
            aria-label={t('viewer:classEdit.redo')}
            title={t('viewer:classEdit.redoShortcut')}
            data-edit-action="redo"
            onClick={redo}
          />
          <Button
            size="small"
            variant="minimal"
            icon="cross"
            aria-label={t('viewer:actions.close')}
            onClick={onClose}
          />
        </ButtonGroup>
      </header>

      {sceneMode === '3d' ? (
        <SegmentedControl
          size="small"
          fill
          value={tool3d}
          onValueChange={(v) => setTool3d(v as EditDrawTool)}
          options={(['lasso', 'box'] as const).map((k) => ({ value: k, label: t(`viewer:classEdit.tools.${k}`) }))}
        />
      ) : (
        <p className="nu-edit__note">{t('viewer:classEdit.tools.polygon')}</p>
      )}
      <div className="nu-edit__draw">
        {drawing && sceneMode === '2d' ? (
          <Button
            size="small"
            icon="tick"
            intent={Intent.PRIMARY}
            disabled={vertices.length < 3}
            data-edit-action="finish"
            text={t('viewer:classEdit.finish')}
            onClick={finishPolygon}
          />
        ) : (
          <Button
            size="small"
            icon="draw"
            intent={drawing ? Intent.PRIMARY : Intent.NONE}
            active={drawing}
            data-edit-action="draw"
            text={selection ? t('viewer:classEdit.drawAgain') : t('viewer:classEdit.draw')}
            onClick={startDrawing}
          />
        )}
        <Button
          size="small"
          icon="eraser"
          disabled={!selection && !drawing && vertices.length === 0}
          data-edit-action="clear"
          text={t('viewer:classEdit.clear')}
          onClick={clearSelection}
        />
      </div>
      {hint && (
        <p className="nu-edit__hint" role="status">
          {hint}
        </p>
      )}

      <label className="nu-edit__row" htmlFor={`${uid}-to`}>
        <span>{t('viewer:classEdit.toClass')}</span>
        <span className="nu-edit__target">
          <span className="nu-edit__swatch" style={{ background: classOf(toClass).color }} aria-hidden="true" />
          <HTMLSelect
            id={`${uid}-to`}
            value={String(toClass)}
            onChange={(e) => setToClass(Number(e.currentTarget.value))}
            options={EDIT_CLASSES.map((c) => ({ value: String(c.code), label: `${c.code} · ${t(c.labelKey)}` }))}
          />
        </span>
      </label>

      <fieldset className="nu-edit__fieldset">
        <legend>{t('viewer:classEdit.fromClasses')}</legend>
        <p className="nu-edit__note">
          {fromClasses.length ? t('viewer:classEdit.fromSome') : t('viewer:classEdit.fromAll')}
        </p>
        <ul className="nu-edit__classes">
          {filterClasses.map((c) => (
            <li key={c.code}>
              <Checkbox
                checked={fromClasses.includes(c.code)}
                data-from-class={c.code}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  setFromClasses((list) => (on ? [...list, c.code] : list.filter((x) => x !== c.code)));
                }}
                labelElement={
                  <span className="nu-edit__class">
                    <span className="nu-edit__swatch" style={{ background: c.color }} />
                    <span className="nu-edit__code">{c.code}</span>
                    {t(c.labelKey)}
                  </span>
                }
              />
            </li>
          ))}
        </ul>
      </fieldset>

      <div className="nu-edit__z">
        <label htmlFor={`${uid}-minz`}>{t('viewer:classEdit.minZ')}</label>
        <InputGroup
          size="small"
          id={`${uid}-minz`}
          inputMode="decimal"
          value={minZText}
          intent={minZ === 'invalid' ? Intent.DANGER : Intent.NONE}
          placeholder={t('viewer:classEdit.zAny')}
          onValueChange={setMinZText}
        />
        <label htmlFor={`${uid}-maxz`}>{t('viewer:classEdit.maxZ')}</label>
        <InputGroup
          size="small"
          id={`${uid}-maxz`}
          inputMode="decimal"
          value={maxZText}
          intent={maxZ === 'invalid' ? Intent.DANGER : Intent.NONE}
          placeholder={t('viewer:classEdit.zAny')}
          onValueChange={setMaxZText}
        />
      </div>
      <p className="nu-edit__note">{t('viewer:classEdit.zNote')}</p>
      {zInvalid && (
        <p className="nu-edit__message" role="alert">
          {t('viewer:classEdit.zInvalid')}
        </p>
      )}

      {selection && request && (
        <p
          className="nu-edit__preview"
          data-testid="edit-preview"
          data-total={preview ? preview.total : ''}
          aria-live="polite"
        >
          {!preview
            ? t('viewer:classEdit.counting')
            : preview.total === 0
              ? t('viewer:classEdit.previewNone')
              : t('viewer:classEdit.preview', {
                  count: preview.total,
                  formatted: count(preview.total),
                  details: countsText(preview),
                })}
        </p>
      )}
      {error && (
        <p className="nu-edit__message" role="alert">
          {error}
        </p>
      )}
      {running && job && (
        <div className="nu-edit__progress" role="status" data-edit-job={job.state}>
          <span>{job.step ? t(stepKey(job.step).key, stepKey(job.step).values) : t('viewer:classEdit.queued')}</span>
          <ProgressBar value={Math.max(0.02, job.percentage / 100)} intent={Intent.PRIMARY} stripes={false} />
        </div>
      )}
      {outcome && !running && (
        <p className="nu-edit__outcome" role="status" data-testid="edit-outcome">
          {outcome}
        </p>
      )}
      <footer className="nu-edit__foot">
        <Button
          intent={Intent.PRIMARY}
          icon="tick"
          loading={busy}
          disabled={!request || !preview || preview.total === 0}
          data-edit-action="apply"
          text={t('viewer:classEdit.apply')}
          onClick={() => void apply()}
        />
      </footer>

      <section className="nu-edit__history" aria-label={t('viewer:classEdit.history.title')}>
        <h3 className="nu-edit__subtitle">{t('viewer:classEdit.history.title')}</h3>
        {edits.length === 0 ? (
          <p className="nu-edit__note">{t('viewer:classEdit.history.empty')}</p>
        ) : (
          <ol className="nu-edit__list">
            {edits.map((e) => (
              <li key={e.id} data-edit-id={e.id} data-edit-status={e.status} data-changed={e.changed?.total ?? ''}>
                <div className="nu-edit__item">
                  <span className={e.status === 'REVERTED' ? 'nu-edit__what nu-edit__what--reverted' : 'nu-edit__what'}>
                    {t('viewer:classEdit.history.what', {
                      to: className(e.toClass),
                      from: e.fromClasses.length
                        ? e.fromClasses.map(className).join(', ')
                        : t('viewer:classEdit.history.anyClass'),
                    })}
                  </span>
                  <Button
                    size="small"
                    variant="minimal"
                    icon={e.status === 'ACTIVE' ? 'undo' : 'redo'}
                    disabled={busy}
                    data-edit-action={e.status === 'ACTIVE' ? 'revert' : 'restore'}
                    text={
                      e.status === 'ACTIVE'
                        ? t('viewer:classEdit.history.revert')
                        : t('viewer:classEdit.history.restore')
                    }
                    onClick={() =>
                      void run(e.status === 'ACTIVE' ? 'revert' : 'restore', () =>
                        revertRestore(project.id, e.id, e.status === 'ACTIVE' ? 'revert' : 'restore'),
                      )
                    }
                  />
                </div>
                <div className="nu-edit__meta">
                  {t('viewer:classEdit.history.meta', {
                    who: e.userEmail,
                    when: dateFormat.format(new Date(e.createdAt)),
                  })}
                  {' · '}
                  {e.status === 'REVERTED'
                    ? t('viewer:classEdit.history.reverted')
                    : e.changed
                      ? t('viewer:classEdit.history.changed', {
                          count: e.changed.total,
                          formatted: count(e.changed.total),
                        })
                      : t('viewer:classEdit.history.pending')}
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>
    </section>
  );
}
