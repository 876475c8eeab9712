import { Checkbox, Icon, type IconName, Spinner, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { Asset, LayerType, Project } from '../projects/projects.types.js';
import { isDrawable, isListed, isTickable } from './viewer-scene.js';

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
}

/**
 * The layer tree (spec §2, §4): layers in the order point cloud, raster,
 * vector, report; READY and TILING assets listed; TILING ones shown with a
 * spinner and cannot be ticked; reports are listed for download only.
 */
export function LayerTree({ project, ticked, onToggle }: LayerTreeProps) {
  const { t } = useTranslation();
  const layers = (project.layers ?? [])
    .map((layer) => ({ layer, assets: layer.assets.filter(isListed) }))
    .filter((l) => l.assets.length > 0);
  if (layers.length === 0) return <p className="nu-muted">{t('viewer:layers.empty')}</p>;
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
              const tickable = isTickable(asset) && isDrawable(asset);
              const label = t(`viewer:assetTypes.${asset.type}`, { defaultValue: asset.name });
              return (
                <li key={asset.id} className="nu-layer-tree__asset" data-asset-type={asset.type}>
                  {layer.type === 'REPORT' ? (
                    <span className="nu-layer-tree__report">
                      <Icon icon="document" size={12} /> {label}
                    </span>
                  ) : (
                    <Checkbox
                      checked={ticked.has(asset.id)}
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
                </li>
              );
            })}
          </ul>
        </li>
      ))}
    </ul>
  );
}
