import { Checkbox } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { ELEVATION_RAMP, OTHER_CLASSES, POINT_CLASSES } from '../../viewer/point-styles.js';
import type { ElevationRange, PointMode } from '../../viewer/scene.types.js';

export interface PointLegendProps {
  mode: PointMode;
  elevation?: ElevationRange | undefined;
  /** Class codes present in the cloud, when known (others are listed dimmed). */
  presentClasses?: ReadonlySet<number> | undefined;
  hiddenClasses: readonly number[];
  onHiddenClassesChange: (codes: number[]) => void;
  hasColor: boolean;
}

/** An elevation as the LAS file states it (its vertical unit: metres or feet). */
function formatElevation(v: number, lang: string): string {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(v);
}

/**
 * The legend of the point mode: ASPRS classes with their colours (each can be
 * hidden), the elevation ramp between the project's lowest and highest point,
 * the intensity grey scale, or a note for clouds without colour.
 */
export function PointLegend({
  mode,
  elevation,
  presentClasses,
  hiddenClasses,
  onHiddenClassesChange,
  hasColor,
}: PointLegendProps) {
  const { t, i18n } = useTranslation();
  if (mode === 'CLASS') {
    const classes = presentClasses
      ? POINT_CLASSES.filter((c) => presentClasses.has(c.code) || c.code === OTHER_CLASSES)
      : POINT_CLASSES;
    return (
      <ul className="nu-legend nu-legend--classes" aria-label={t('viewer:legend.classes')}>
        {classes.map((c) => (
          <li key={c.code}>
            <Checkbox
              checked={!hiddenClasses.includes(c.code)}
              onChange={(e) =>
                onHiddenClassesChange(
                  e.currentTarget.checked ? hiddenClasses.filter((h) => h !== c.code) : [...hiddenClasses, c.code],
                )
              }
              labelElement={
                <span className="nu-legend__class">
                  <span className="nu-legend__swatch" style={{ background: c.color }} />
                  {c.code === OTHER_CLASSES ? '' : <span className="nu-legend__code">{c.code}</span>}
                  {t(c.labelKey)}
                </span>
              }
            />
          </li>
        ))}
      </ul>
    );
  }
  if (mode === 'ELEVATION') {
    const gradient = `linear-gradient(to right, ${ELEVATION_RAMP.join(', ')})`;
    return (
      <figure className="nu-legend" aria-label={t('viewer:legend.elevation')}>
        <div className="nu-legend__ramp" style={{ background: gradient }} />
        {elevation && (
          <>
            <div className="nu-legend__ends">
              <span>{formatElevation(elevation.min, i18n.language)}</span>
              <span>{formatElevation(elevation.max, i18n.language)}</span>
            </div>
            <p className="nu-legend__note nu-muted">{t('viewer:legend.elevationUnit')}</p>
          </>
        )}
      </figure>
    );
  }
  if (mode === 'INTENSITY') {
    return (
      <figure className="nu-legend" aria-label={t('viewer:legend.intensity')}>
        <div className="nu-legend__ramp" style={{ background: 'linear-gradient(to right, #000, #fff)' }} />
        <div className="nu-legend__ends">
          <span>{t('viewer:legend.low')}</span>
          <span>{t('viewer:legend.high')}</span>
        </div>
      </figure>
    );
  }
  return hasColor ? null : <p className="nu-muted nu-legend__note">{t('viewer:legend.noColor')}</p>;
}
