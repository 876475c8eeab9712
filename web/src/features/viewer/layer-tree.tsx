import { Checkbox, Icon, type IconName, Intent, Spinner, Tag, Tooltip } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { Asset, LayerType, Project } from '../projects/projects.types.js';
import { failureOf, isDrawable, isListed, isTickable } from './viewer-scene.js';

const LAYER_ICONS: Record<LayerType, IconName> = {
  POINT_CLOUD: 'layout-sorted-clusters',
  RASTER: 'heatmap',
  VECTOR: 'polygon-filter',
  REPORT: 'document',
};

export interface LayerTreeProps {
  project: Project;
  ticked: ReadonlySet<string>;
  onToggle: (asset: Asset, on: boolean) => void;
  /** Layers the viewer could not draw (asset id → translated message): a warning on their row. */
  warnings?: ReadonlyMap<string, string>;
}

/**
 * The layer tree (spec §2, §4): layers in the order point cloud, raster,
 * vector, report; READY and TILING assets listed; TILING ones shown with a
 * spinner and cannot be ticked; reports are listed for download only. Failed
 * products (ERROR) are listed, not tickable, with a warning and their reason;
 * a layer the viewer could not load keeps its tick and shows a warning (spec §8).
 */
export function LayerTree({ project, ticked, onToggle, warnings }: LayerTreeProps) {
  const { t } = useTranslation();
  const layers = (project.layers ?? [])
    .map((layer) => ({ layer, assets: layer.assets.filter(isListed) }))
    .filter((l) => l.assets.length > 0);
  if (layers.length === 0) return <p className="nu-muted">{t('viewer:layers.empty')}</p>;

  const reasonOf = (asset: Asset): string | null => {
    const failure = failureOf(asset);
    if (failure) {
      const fallback = failure.message ?? t('viewer:layers.failed');
      return failure.key ? t(failure.key, { defaultValue: fallback }) : fallback;
    }
    return warnings?.get(asset.id) ?? null;
  };

  return (
    <ul className="nu-layer-tree" aria-label={t('viewer:layers.title')}>
      {layers.map(({ layer, assets }) => (
        <li key={layer.id} className="nu-layer-tree__layer">
          <div className="nu-layer-tree__layer-name">
            <Icon icon={LAYER_ICONS[layer.type] ?? 'layers'} size={14} />
            <span>{t(`viewer:layerTypes.${layer.type}`, { defaultValue: layer.name })}</span>
          </div>
          <ul>
            {assets.map((asset) => {
              const failed = asset.status === 'ERROR';
              const tickable = isTickable(asset) && isDrawable(asset);
              const label = t(`viewer:assetTypes.${asset.type}`, { defaultValue: asset.name });
              const reason = reasonOf(asset);
              return (
                <li
                  key={asset.id}
                  className="nu-layer-tree__asset"
                  data-asset-type={asset.type}
                  data-asset-status={asset.status}
                  data-warning={reason ? 'true' : undefined}
                >
                  <div className="nu-layer-tree__row">
                    {layer.type === 'REPORT' ? (
                      <span className="nu-layer-tree__report">
                        <Icon icon="document" size={12} /> {label}
                      </span>
                    ) : (
                      <Checkbox
                        checked={!failed && ticked.has(asset.id)}
                        disabled={!tickable}
                        onChange={(e) => onToggle(asset, e.currentTarget.checked)}
                        labelElement={<span>{label}</span>}
                        className="nu-layer-tree__check"
                      />
                    )}
                    {asset.status === 'READY' && !tickable && layer.type !== 'REPORT' && (
                      <Tag minimal round className="nu-layer-tree__tag">
                        {t('viewer:layers.downloadOnly')}
                      </Tag>
                    )}
                    {asset.status === 'TILING' && (
                      <Tag minimal round icon={<Spinner size={10} />} className="nu-layer-tree__tag">
                        {t('viewer:layers.tiling')}
                      </Tag>
                    )}
                    {reason && (
                      <Tooltip content={reason} placement="right">
                        <Icon
                          icon="warning-sign"
                          intent={failed ? Intent.DANGER : Intent.WARNING}
                          size={14}
                          aria-label={failed ? t('viewer:layers.failed') : t('viewer:layers.loadFailed')}
                          className="nu-layer-tree__warning"
                        />
                      </Tooltip>
                    )}
                  </div>
                  {reason && <p className="nu-layer-tree__reason">{reason}</p>}
                </li>
              );
            })}
          </ul>
        </li>
      ))}
    </ul>
  );
}
