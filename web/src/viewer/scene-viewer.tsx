import { type Ref, useEffect, useImperativeHandle, useRef } from 'react';
import type { CreateViewer, SceneDescription, SceneMode, ViewerEvent, ViewerHandle } from './scene.types.js';

/**
 * Loads the module of a scene mode on first use (dynamic import), so the
 * login page and the lists never download Cesium, deck.gl or MapLibre.
 */
const loaders: Partial<Record<SceneMode, () => Promise<CreateViewer>>> = {
  '3d': () => import('./globe3d/globe-viewer.js').then((m) => m.createGlobeViewer),
  '2d': () => import('./map2d/map-viewer.js').then((m) => m.createMapViewer),
};

/** The scene modes this build can show. */
export const AVAILABLE_SCENE_MODES = Object.keys(loaders) as SceneMode[];

/** What a page can ask of the viewer it shows. */
export interface SceneViewerApi {
  flyHome(): void;
}

export interface SceneViewerProps {
  mode: SceneMode;
  scene: SceneDescription;
  onEvent: (event: ViewerEvent) => void;
  /** Called with the module's loading failure (chunk not found, offline). */
  onLoadError?: (err: Error) => void;
  className?: string;
  ref?: Ref<SceneViewerApi>;
}

/**
 * The viewer as a React element: features describe layers and settings, this
 * component loads the right viewer module and keeps it in step.
 *
 * @example
 * <SceneViewer mode="3d" scene={{ layers, pointMode: 'CLASS', pointSize: 2, imagery: 'none' }} onEvent={log} />
 */
export function SceneViewer({ mode, scene, onEvent, onLoadError, className, ref }: SceneViewerProps) {
  const container = useRef<HTMLDivElement>(null);
  const handle = useRef<ViewerHandle | null>(null);
  const latestScene = useRef(scene);
  latestScene.current = scene;
  const latestOnEvent = useRef(onEvent);
  latestOnEvent.current = onEvent;
  const latestOnLoadError = useRef(onLoadError);
  latestOnLoadError.current = onLoadError;

  useImperativeHandle(ref, () => ({ flyHome: () => handle.current?.flyHome() }), []);

  useEffect(() => {
    const el = container.current;
    if (!el) return;
    let cancelled = false;
    let created: ViewerHandle | null = null;
    const host = document.createElement('div');
    host.className = 'nu-scene__host';
    el.appendChild(host);
    const load = loaders[mode] ?? loaders['3d']!;
    load()
      .then((create) => {
        if (cancelled) return null;
        return create(host, latestScene.current, (e) => latestOnEvent.current(e));
      })
      .then((h) => {
        if (!h) return;
        if (cancelled) {
          h.destroy();
          return;
        }
        created = h;
        handle.current = h;
        // Settings may have changed while the module loaded.
        h.update(latestScene.current);
      })
      .catch((err: Error) => {
        if (!cancelled) latestOnLoadError.current?.(err);
      });
    return () => {
      cancelled = true;
      created?.destroy();
      handle.current = null;
      host.remove();
    };
  }, [mode]);

  useEffect(() => {
    handle.current?.update(scene);
  }, [scene]);

  return <div ref={container} className={className ?? 'nu-scene'} data-scene-mode={mode} />;
}
