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
  Tooltip,
} from '@blueprintjs/core';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { apiBaseUrl } from '../../shared/api/api-config.js';
import { showToast } from '../../shared/ui/toaster.js';
import { OTHER_CLASSES, POINT_CLASSES } from '../../viewer/point-styles.js';
import {
  type PickedFeature,
  POINT_MODES,
  type PointMode,
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
import { DownloadDialog } from './download-dialog.js';
import { FeatureInspector } from './feature-inspector.js';
import { LayerTree } from './layer-tree.js';
import { PointLegend } from './point-legend.js';
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
  const [imagery, setImagery] = useState<WorldImagery>('none');
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
    }),
    [project, ticked, shareToken, pointMode, size, imagery, elevation, hiddenClasses, i18n.language],
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
        case 'pick':
          setPicked(e.feature);
          break;
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

  function switchMode(mode: SceneMode) {
    if (mode === sceneMode) return;
    setFatal(null);
    setPicked(null);
    setLoad((l) => ({ ...l, pendingTiles: 0, tilesLoaded: false }));
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
        </section>
      </aside>

      <section
        className="nu-viewer__stage"
        data-viewer-state={stageState}
        data-scene-mode={sceneMode}
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
            <Button icon="download" onClick={() => setDownloadOpen(true)} text={t('viewer:actions.download')} />
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
