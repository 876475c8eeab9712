import {
  Button,
  ButtonGroup,
  Callout,
  FormGroup,
  HTMLSelect,
  Intent,
  SegmentedControl,
  Slider,
  Spinner,
  Switch,
  Tooltip,
} from '@blueprintjs/core';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR, { useSWRConfig } from 'swr';
import { apiBaseUrl } from '../../shared/api/api-config.js';
import { showToast } from '../../shared/ui/toaster.js';
import type { EditScene, ScreenPixel, ScreenRegion } from '../../viewer/edit/edit.types.js';
import type { MeasureScene, PickedPosition } from '../../viewer/measure/measure.types.js';
import { OTHER_CLASSES, POINT_CLASSES } from '../../viewer/point-styles.js';
import {
  type ImageryProblem,
  type PickedFeature,
  POINT_MODES,
  type PointMode,
  type SceneCamera,
  type SceneDescription,
  type SceneMode,
  type ViewerEvent,
  WORLD_IMAGERIES,
  type WorldImagery,
} from '../../viewer/scene.types.js';
import { AVAILABLE_SCENE_MODES, SceneViewer, type SceneViewerApi } from '../../viewer/scene-viewer.js';
import { VIEWER_CONSTANTS } from '../../viewer/viewer-constants.js';
import { ProcessingDialog } from '../projects/processing-dialog.js';
import { ProjectProgress, StatusBadge } from '../projects/project-status.js';
import { type Asset, isInProgress, type Project } from '../projects/projects.types.js';
import { ClassEditPanel } from './class-edit-panel.js';
import { ClipDialog, mergeScenes } from './clip-dialog.js';
import {
  type DisplaySettings,
  EDL_RADIUS,
  EDL_STRENGTH,
  loadDisplaySettings,
  saveDisplaySettings,
} from './display-settings.js';
import { DownloadDialog } from './download-dialog.js';
import { FeatureInspector } from './feature-inspector.js';
import { LayerTree } from './layer-tree.js';
import { MeasureToolbar } from './measure-toolbar.js';
import { PointLegend } from './point-legend.js';
import { PowerLineLegend } from './power-line-legend.js';
import { ProjectInfoButton } from './project-info.js';
import { ShareDialog } from './share-dialog.js';
import { fetchViewerParameters } from './viewer.api.js';
import { defaultTicked, sceneLayers } from './viewer-scene.js';
import './viewer.css';

export interface ProjectViewerProps {
  project: Project;
  /** Opened from a share link: no share dialog, files through the token. */
  shareToken?: string | undefined;
  /** Called after the share token changed (owner only). */
  onShareTokenChange?: (token: string | null) => void;
  /** Called after the processing was started again (owner only): the page refreshes the project. */
  onProcessingStarted?: () => void;
}

/** What the page knows of the scene while it loads. */
interface LoadState {
  pendingTiles: number;
  tilesLoaded: boolean;
}

/** What a loaded cloud told about itself. */
interface CloudFacts {
  hasColor: boolean;
  classCodes: Set<number> | undefined;
}

const KNOWN_CODES = new Set(POINT_CLASSES.map((c) => c.code));

/**
 * The project viewer (spec §2): a side panel with the layer tree, point mode,
 * point size, world imagery and legend, and the 3D scene with camera home,
 * share and download actions. Features hand layer descriptions to the viewer
 * module; Cesium is loaded only here, on demand.
 */
export function ProjectViewer({ project, shareToken, onShareTokenChange, onProcessingStarted }: ProjectViewerProps) {
  const { t, i18n } = useTranslation();
  const { data: params } = useSWR('viewer-parameters', fetchViewerParameters, { shouldRetryOnError: false });
  const [pointMode, setPointMode] = useState<PointMode>('RGB');
  const [pointSize, setPointSize] = useState<number | null>(null);
  // World imagery and eye-dome lighting: kept in this browser between visits.
  const [display, setDisplay] = useState<DisplaySettings>(() => loadDisplaySettings());
  const updateDisplay = useCallback((patch: Partial<DisplaySettings>) => {
    setDisplay((d) => {
      const next = { ...d, ...patch };
      saveDisplaySettings(next);
      return next;
    });
  }, []);
  const imagery = display.imagery;
  const setImagery = (v: WorldImagery) => updateDisplay({ imagery: v });
  /** Imagery choices that cannot be shown here (no key, no network), with their reason: a callout under the choice. */
  const [imageryProblems, setImageryProblems] = useState<ReadonlyMap<WorldImagery, ImageryProblem>>(new Map());
  /** Problems already toasted: each choice says so once per visit, whichever mode. */
  const imageryToasted = useRef(new Set<string>());
  /** Where the camera looked last, and where the viewer of the other mode opens after a switch. */
  const [lastCamera, setLastCamera] = useState<SceneCamera | undefined>(undefined);
  const [openCamera, setOpenCamera] = useState<SceneCamera | undefined>(undefined);
  const [sceneMode, setSceneMode] = useState<SceneMode>('3d');
  const [ticked, setTicked] = useState<Set<string>>(() => defaultTicked(project));
  const [hiddenClasses, setHiddenClasses] = useState<number[]>([]);
  const [load, setLoad] = useState<LoadState>({ pendingTiles: 0, tilesLoaded: false });
  const [facts, setFacts] = useState<Map<string, CloudFacts>>(new Map());
  const [fatal, setFatal] = useState<string | null>(null);
  const [shareOpen, setShareOpen] = useState(false);
  const [downloadOpen, setDownloadOpen] = useState(false);
  const [processingOpen, setProcessingOpen] = useState(false);
  const [picked, setPicked] = useState<PickedFeature | null>(null);
  /** Layers the viewer could not load (asset id → message), shown on their rows. */
  const [warnings, setWarnings] = useState<ReadonlyMap<string, string>>(new Map());
  const viewerApi = useRef<SceneViewerApi>(null);
  const [measureScene, setMeasureScene] = useState<MeasureScene | undefined>(undefined);
  const measurePick = useRef<((position: PickedPosition | null) => void) | null>(null);
  // Clip and download: its area is drawn with the measure overlay; its picks win while it draws.
  const [clipOpen, setClipOpen] = useState(false);
  const [clipScene, setClipScene] = useState<MeasureScene | undefined>(undefined);
  const clipPick = useRef<((position: PickedPosition | null) => void) | null>(null);
  // Classification editing (owner or admin; never on a share link): its picks win while it draws, and
  // neither the measure tools nor the clip panel are active with it.
  const [editOpen, setEditOpen] = useState(false);
  const [editScene, setEditScene] = useState<EditScene | undefined>(undefined);
  const [editMapScene, setEditMapScene] = useState<MeasureScene | undefined>(undefined);
  const editPick = useRef<((position: PickedPosition | null) => void) | null>(null);
  const editRegion = useRef<((region: ScreenRegion, outline: ScreenPixel[]) => void) | null>(null);
  const { mutate: mutateCache } = useSWRConfig();
  const reloadProject = useCallback(() => void mutateCache(['project', project.id]), [mutateCache, project.id]);
  const closeInspector = useCallback(() => setPicked(null), []);

  const size = pointSize ?? params?.pointSize ?? VIEWER_CONSTANTS.defaultPointSize;
  const { minElevation, maxElevation } = project;
  const elevation = useMemo(
    () => (minElevation !== null && maxElevation !== null ? { min: minElevation, max: maxElevation } : undefined),
    [minElevation, maxElevation],
  );

  const scene: SceneDescription = useMemo(
    () => ({
      layers: sceneLayers(project, ticked, apiBaseUrl(), shareToken),
      pointMode,
      pointSize: size,
      imagery,
      elevation,
      hiddenClasses,
      locale: i18n.language,
      measure: mergeScenes(mergeScenes(measureScene, clipScene), editMapScene),
      edit: editScene,
      shading: display.shading,
      camera: openCamera,
      imageryOptions: params
        ? {
            cesiumIonToken: params.cesiumIonToken,
            bingMapsKey: params.bingMapsKey,
            globeOpacity: params.globeOpacity,
          }
        : undefined,
    }),
    [
      project,
      ticked,
      shareToken,
      pointMode,
      size,
      imagery,
      elevation,
      hiddenClasses,
      i18n.language,
      measureScene,
      clipScene,
      editMapScene,
      editScene,
      display.shading,
      params,
      openCamera,
    ],
  );

  const onEvent = useCallback(
    (e: ViewerEvent) => {
      switch (e.type) {
        case 'loading':
          setLoad((s) => ({ ...s, pendingTiles: e.pendingTiles, tilesLoaded: e.pendingTiles === 0 && s.tilesLoaded }));
          break;
        case 'tilesLoaded':
          setLoad((s) => ({ ...s, pendingTiles: 0, tilesLoaded: true }));
          break;
        case 'cloudInfo': {
          const codes = e.classCodes
            ? new Set(e.classCodes.map((c) => (KNOWN_CODES.has(c) ? c : OTHER_CLASSES)))
            : undefined;
          setFacts((m) => new Map(m).set(e.layerId, { hasColor: e.hasColor, classCodes: codes }));
          break;
        }
        case 'measurePick':
          (editPick.current ?? clipPick.current ?? measurePick.current)?.(e.position);
          break;
        case 'editRegion':
          editRegion.current?.(e.region, e.outline);
          break;
        case 'pick':
          setPicked(e.feature);
          break;
        case 'camera':
          setLastCamera(e.camera);
          break;
        case 'imagery': {
          const { imagery: choice, problem } = e;
          setImageryProblems((m) => new Map(m).set(choice, problem));
          const key = `${choice}:${problem}`;
          if (!imageryToasted.current.has(key)) {
            imageryToasted.current.add(key);
            void showToast({
              intent: Intent.WARNING,
              icon: 'globe',
              message: t(`viewer:imagery.problems.${problem}`, { name: t(`viewer:imagery.${choice}`) }),
            });
          }
          break;
        }
        case 'error':
          if (e.code === 'VECTOR_LOAD_FAILED' && e.layerId) {
            // The layer's row says so; the rest of the scene goes on (spec §8).
            const layerId = e.layerId;
            setWarnings((m) => new Map(m).set(layerId, t('viewer:layers.loadFailed')));
          }
          if (e.code === 'WEBGL_UNAVAILABLE' || e.code === 'TILESET_LOAD_FAILED') {
            setFatal(t(`viewer:events.${e.code}`, { message: e.message }));
          } else {
            void showToast({
              intent: Intent.WARNING,
              icon: 'warning-sign',
              message: t(`viewer:events.${e.code}`, { message: e.message }),
            });
          }
          break;
        case 'ready':
          break;
      }
    },
    [t],
  );

  function toggle(asset: Asset, on: boolean) {
    // Ticked again: its load is tried again, its warning goes until it fails again.
    if (on && warnings.has(asset.id)) {
      setWarnings((m) => {
        const next = new Map(m);
        next.delete(asset.id);
        return next;
      });
    }
    if (!on && picked?.layerId === asset.id) setPicked(null);
    setTicked((current) => {
      const next = new Set(current);
      if (on) next.add(asset.id);
      else next.delete(asset.id);
      return next;
    });
  }

  /**
   * Opens or closes the edit tool; opening it shows the cloud it edits (the
   * classified one, alone among the clouds) in class colours.
   */
  function toggleEdit() {
    setClipOpen(false);
    if (editOpen) {
      setEditOpen(false);
      return;
    }
    const assets = project.layers?.flatMap((l) => l.assets) ?? [];
    const classified = assets.find((a) => a.type === 'CLASSIFIED_POINT_CLOUD' && a.status === 'READY');
    if (classified) {
      const clouds = new Set(assets.filter((a) => a.display === 'pointCloud').map((a) => a.id));
      setTicked((current) => new Set([...[...current].filter((id) => !clouds.has(id)), classified.id]));
      setPointMode('CLASS');
    }
    setEditOpen(true);
  }

  function switchMode(mode: SceneMode) {
    if (mode === sceneMode) return;
    setFatal(null);
    setPicked(null);
    setLoad((l) => ({ ...l, pendingTiles: 0, tilesLoaded: false }));
    // The other mode opens on the place this one looked at.
    setOpenCamera(lastCamera);
    setSceneMode(mode);
  }

  // The legend describes the clouds on screen: their classes, and whether all have colour.
  const shown = [...facts].filter(([id]) => ticked.has(id)).map(([, f]) => f);
  const presentClasses = shown.every((f) => f.classCodes)
    ? new Set(shown.flatMap((f) => [...f.classCodes!]))
    : undefined;
  const hasColor = shown.every((f) => f.hasColor);

  const layerNameOf = (p: Project, assetId: string) => {
    const asset = p.layers?.flatMap((l) => l.assets).find((a) => a.id === assetId);
    return asset ? t(`viewer:assetTypes.${asset.type}`, { defaultValue: asset.name }) : '';
  };

  const pointCount = project.lidarPointCount;
  const hasClassified = Boolean(
    project.layers?.some((l) => l.assets.some((a) => a.type === 'CLASSIFIED_POINT_CLOUD' && a.status === 'READY')),
  );
  const stageState = fatal ? 'error' : load.tilesLoaded && load.pendingTiles === 0 ? 'tiles-loaded' : 'loading';

  return (
    <div className="nu-viewer">
      <aside className="nu-viewer__panel" aria-label={t('viewer:panel')}>
        <header className="nu-viewer__head">
          <h1 className="nu-viewer__title" title={project.name}>
            {project.name}
          </h1>
          <div className="nu-viewer__facts">
            <StatusBadge status={project.status} />
            {pointCount !== null && (
              <span className="nu-muted">
                {t('viewer:facts.points', { count: pointCount, formatted: pointCount.toLocaleString(i18n.language) })}
              </span>
            )}
            {project.area !== null && (
              <span className="nu-muted">
                {t('viewer:facts.area', {
                  value: project.area.toLocaleString(i18n.language, { maximumFractionDigits: 2 }),
                })}
              </span>
            )}
          </div>
          <ProjectProgress project={project} />
          {!shareToken && onProcessingStarted && !isInProgress(project) && (
            <Button
              className="nu-viewer__process"
              size="small"
              variant="outlined"
              icon="cog"
              onClick={() => setProcessingOpen(true)}
              text={t('projects:processing.again')}
            />
          )}
          {shareToken && (
            <Callout icon="eye-open" className="nu-viewer__readonly" compact>
              {t('viewer:readOnly')}
            </Callout>
          )}
        </header>

        <section className="nu-viewer__section">
          <h2 className="nu-viewer__section-title">{t('viewer:layers.title')}</h2>
          <LayerTree project={project} ticked={ticked} onToggle={toggle} warnings={warnings} />
          <PowerLineLegend project={project} ticked={ticked} />
        </section>

        <section className="nu-viewer__section">
          <h2 className="nu-viewer__section-title">{t('viewer:display.title')}</h2>
          <FormGroup label={t('viewer:display.pointMode')}>
            <SegmentedControl
              fill
              size="small"
              value={pointMode}
              onValueChange={(v) => setPointMode(v as PointMode)}
              options={POINT_MODES.map((m) => ({ value: m, label: t(`viewer:pointModes.${m}`) }))}
              data-testid="point-mode"
            />
          </FormGroup>
          <PointLegend
            mode={pointMode}
            elevation={elevation}
            presentClasses={shown.length > 0 ? presentClasses : undefined}
            hiddenClasses={hiddenClasses}
            onHiddenClassesChange={setHiddenClasses}
            hasColor={hasColor}
          />
          <FormGroup label={t('viewer:display.pointSize')} className="nu-viewer__slider">
            <Slider
              min={1}
              max={10}
              stepSize={1}
              labelStepSize={3}
              value={size}
              onChange={setPointSize}
              handleHtmlProps={{ 'aria-label': t('viewer:display.pointSize') }}
            />
          </FormGroup>
          <FormGroup label={t('viewer:display.imagery')} labelFor="nu-imagery">
            <HTMLSelect
              id="nu-imagery"
              fill
              value={imagery}
              onChange={(e) => setImagery(e.currentTarget.value as WorldImagery)}
              options={WORLD_IMAGERIES.map((w) => ({ value: w, label: t(`viewer:imagery.${w}`) }))}
            />
          </FormGroup>
          {imageryProblems.has(imagery) && (
            <Callout
              compact
              intent={Intent.WARNING}
              icon="globe"
              className="nu-viewer__imagery-problem"
              data-imagery-problem={imageryProblems.get(imagery)}
            >
              {t(`viewer:imagery.problems.${imageryProblems.get(imagery)}`, { name: t(`viewer:imagery.${imagery}`) })}
            </Callout>
          )}
          <Switch
            checked={display.shading.eyeDomeLighting}
            onChange={(e) =>
              updateDisplay({ shading: { ...display.shading, eyeDomeLighting: e.currentTarget.checked } })
            }
            label={t('viewer:display.edl.label')}
            data-testid="edl-toggle"
          />
          {display.shading.eyeDomeLighting && (
            <div className="nu-viewer__edl">
              <FormGroup label={t('viewer:display.edl.strength')} className="nu-viewer__slider">
                <Slider
                  min={EDL_STRENGTH.min}
                  max={EDL_STRENGTH.max}
                  stepSize={EDL_STRENGTH.step}
                  labelStepSize={1}
                  labelPrecision={1}
                  value={display.shading.strength}
                  onChange={(v) => updateDisplay({ shading: { ...display.shading, strength: v } })}
                  handleHtmlProps={{ 'aria-label': t('viewer:display.edl.strength') }}
                />
              </FormGroup>
              <FormGroup label={t('viewer:display.edl.radius')} className="nu-viewer__slider">
                <Slider
                  min={EDL_RADIUS.min}
                  max={EDL_RADIUS.max}
                  stepSize={EDL_RADIUS.step}
                  labelStepSize={1}
                  labelPrecision={1}
                  value={display.shading.radius}
                  onChange={(v) => updateDisplay({ shading: { ...display.shading, radius: v } })}
                  handleHtmlProps={{ 'aria-label': t('viewer:display.edl.radius') }}
                />
              </FormGroup>
            </div>
          )}
        </section>
      </aside>

      <section
        className="nu-viewer__stage"
        data-viewer-state={stageState}
        data-scene-mode={sceneMode}
        data-camera={
          lastCamera
            ? `${lastCamera.lon.toFixed(6)},${lastCamera.lat.toFixed(6)},${lastCamera.distance.toFixed(1)}`
            : undefined
        }
        aria-label={t('viewer:scene')}
      >
        {fatal ? (
          <div className="nu-viewer__overlay">
            <Callout intent={Intent.DANGER} title={t('viewer:events.title')} role="alert">
              {fatal}
            </Callout>
          </div>
        ) : (
          <SceneViewer
            ref={viewerApi}
            mode={sceneMode}
            scene={scene}
            onEvent={onEvent}
            onLoadError={(err) => setFatal(t('viewer:events.MODULE_LOAD_FAILED', { message: err.message }))}
          />
        )}
        <div className="nu-viewer__toolbar">
          {AVAILABLE_SCENE_MODES.length > 1 && (
            <SegmentedControl
              className="nu-viewer__modes"
              value={sceneMode}
              onValueChange={(v) => switchMode(v as SceneMode)}
              options={AVAILABLE_SCENE_MODES.map((m) => ({ value: m, label: t(`viewer:sceneModes.${m}`) }))}
            />
          )}
          <ButtonGroup>
            <Tooltip content={t('viewer:actions.home')}>
              <Button icon="home" onClick={() => viewerApi.current?.flyHome()} aria-label={t('viewer:actions.home')} />
            </Tooltip>
            <ProjectInfoButton project={project} />
            <Button icon="download" onClick={() => setDownloadOpen(true)} text={t('viewer:actions.download')} />
            <Button
              icon="cut"
              active={clipOpen}
              onClick={() => {
                setEditOpen(false);
                setClipOpen((o) => !o);
              }}
              text={t('viewer:clip.open')}
            />
            {!shareToken && (
              <Tooltip content={hasClassified ? t('viewer:classEdit.openHelp') : t('viewer:classEdit.needsClassified')}>
                <Button
                  icon="edit"
                  active={editOpen}
                  disabled={!hasClassified}
                  aria-pressed={editOpen}
                  data-edit-open={editOpen ? 'true' : 'false'}
                  onClick={toggleEdit}
                  text={t('viewer:classEdit.open')}
                />
              </Tooltip>
            )}
            {!shareToken && onShareTokenChange && (
              <Button
                icon="share"
                intent={Intent.PRIMARY}
                onClick={() => setShareOpen(true)}
                text={t('viewer:actions.share')}
              />
            )}
          </ButtonGroup>
        </div>
        {!fatal && (
          <MeasureToolbar
            project={project}
            shareToken={shareToken}
            cloudUrl={profileCloudUrl(project, scene)}
            onSceneChange={setMeasureScene}
            pickRef={measurePick}
            suspended={editOpen}
          />
        )}
        <ClipDialog
          project={project}
          shareToken={shareToken}
          isOpen={clipOpen && !fatal}
          onClose={() => setClipOpen(false)}
          onSceneChange={setClipScene}
          pickRef={clipPick}
        />
        {!shareToken && hasClassified && (
          <ClassEditPanel
            project={project}
            sceneMode={sceneMode}
            isOpen={editOpen && !fatal}
            onClose={() => setEditOpen(false)}
            presentClasses={shown.length > 0 ? presentClasses : undefined}
            onEditSceneChange={setEditScene}
            onMapSceneChange={setEditMapScene}
            pickRef={editPick}
            regionRef={editRegion}
            onApplied={reloadProject}
          />
        )}
        {picked && !fatal && (
          <FeatureInspector
            feature={picked}
            layerName={layerNameOf(project, picked.layerId)}
            onClose={closeInspector}
          />
        )}
        {stageState === 'loading' && !fatal && (
          <div className="nu-viewer__loading" role="status">
            <Spinner size={14} />
            <span>
              {load.pendingTiles > 0
                ? t('viewer:loadingTiles', { count: load.pendingTiles })
                : t('viewer:loadingScene')}
            </span>
          </div>
        )}
      </section>

      {!shareToken && onShareTokenChange && (
        <ShareDialog
          projectId={project.id}
          projectName={project.name}
          token={project.shareToken ?? null}
          isOpen={shareOpen}
          onClose={() => setShareOpen(false)}
          onChange={onShareTokenChange}
        />
      )}
      {!shareToken && onProcessingStarted && (
        <ProcessingDialog
          projectId={project.id}
          projectName={project.name}
          isOpen={processingOpen}
          onClose={() => setProcessingOpen(false)}
          onStarted={onProcessingStarted}
        />
      )}
      <DownloadDialog
        project={project}
        isOpen={downloadOpen}
        onClose={() => setDownloadOpen(false)}
        shareToken={shareToken}
      />
    </div>
  );
}

/** The cloud a profile reads: the classified cloud when shown (its classes colour the chart), else the first cloud shown. */
function profileCloudUrl(project: Project, scene: SceneDescription): string | undefined {
  const clouds = scene.layers.filter((l) => l.kind === 'pointCloud' && l.visible);
  const typeOf = (id: string) => project.layers?.flatMap((l) => l.assets).find((a) => a.id === id)?.type;
  const cloud = clouds.find((l) => typeOf(l.id) === 'CLASSIFIED_POINT_CLOUD') ?? clouds[0];
  return cloud?.kind === 'pointCloud' ? cloud.tilesetUrl : undefined;
}
