import { useTranslation } from 'react-i18next';
import type { Project } from '../projects/projects.types.js';
import { BUFFER_ZONE_COLORS, POWER_LINE_COLOR, RISK_COLORS, TREE_FALL_COLORS } from './viewer-scene.js';

/** A legend's rows by the asset type that shows them: colour and translation key (viewer:powerLines.*). */
const ROWS: ReadonlyArray<{ type: string; title: string; items: ReadonlyArray<[string, string]> }> = [
  {
    type: 'POWER_LINE',
    title: 'powerLines.lines',
    items: [[POWER_LINE_COLOR, 'powerLines.conductors']],
  },
  {
    type: 'POWER_LINE_BUFFERS',
    title: 'powerLines.buffers',
    items: Object.entries(BUFFER_ZONE_COLORS).map(([zone, color]) => [color, `powerLines.zone${zone}`]),
  },
  {
    type: 'VEGETATION_RISK',
    title: 'powerLines.vegetationRisk',
    items: Object.entries(RISK_COLORS).map(([severity, color]) => [color, `powerLines.severity.${severity}`]),
  },
  {
    type: 'TREE_FALL_RISK',
    title: 'powerLines.treeFall',
    items: [
      [TREE_FALL_COLORS.true!, 'powerLines.fallReaches'],
      [TREE_FALL_COLORS.false!, 'powerLines.fallWithin'],
    ],
  },
];

/**
 * The colours of the power-line layers on screen: conductors, buffer zones,
 * vegetation risk by severity and trees at fall risk; only for the layers
 * ticked.
 */
export function PowerLineLegend({ project, ticked }: { project: Project; ticked: ReadonlySet<string> }) {
  const { t } = useTranslation();
  const shown = new Set(
    (project.layers ?? [])
      .flatMap((l) => l.assets)
      .filter((a) => ticked.has(a.id))
      .map((a) => a.type),
  );
  const rows = ROWS.filter((r) => shown.has(r.type));
  if (rows.length === 0) return null;
  return (
    <fieldset className="nu-power-legend" aria-label={t('viewer:powerLines.legend')}>
      {rows.map((r) => (
        <div key={r.type} className="nu-power-legend__group" data-legend={r.type}>
          <div className="nu-power-legend__title">{t(`viewer:${r.title}`)}</div>
          <ul>
            {r.items.map(([color, key]) => (
              <li key={key}>
                <span className="nu-power-legend__swatch" style={{ background: color }} aria-hidden="true" />
                {t(`viewer:${key}`)}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </fieldset>
  );
}
