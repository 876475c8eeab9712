import { Button, HTMLTable } from '@blueprintjs/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { PickedFeature } from '../../viewer/scene.types.js';
import { attributeRows } from './feature-attributes.js';

export interface FeatureInspectorProps {
  feature: PickedFeature;
  /** Name of the feature's layer (its asset type, translated). */
  layerName: string;
  onClose: () => void;
}

/**
 * The attributes of the feature the user clicked in the scene (tree top,
 * crown, building, contour...): known properties under their translated
 * names, others under their own. Esc or the close button hides it.
 */
export function FeatureInspector({ feature, layerName, onClose }: FeatureInspectorProps) {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  const rows = attributeRows(feature.properties, i18n.language);
  return (
    <section className="nu-inspector" aria-label={t('viewer:inspector.title')} data-testid="feature-inspector">
      <header className="nu-inspector__head">
        <span className="nu-inspector__title">{layerName}</span>
        <Button variant="minimal" size="small" icon="cross" aria-label={t('viewer:actions.close')} onClick={onClose} />
      </header>
      {rows.length === 0 ? (
        <p className="nu-muted nu-inspector__empty">{t('viewer:inspector.empty')}</p>
      ) : (
        <HTMLTable compact className="nu-inspector__table">
          <tbody>
            {rows.map((r) => (
              <tr key={r.name} data-attribute={r.name}>
                <th scope="row">{r.known ? t(`viewer:attributes.${r.name}`) : r.name}</th>
                <td>{r.word ? t(`viewer:attributeValues.${r.name}.${r.word}`, { defaultValue: r.word }) : r.value}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </section>
  );
}
