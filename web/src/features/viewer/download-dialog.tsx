import {
  AnchorButton,
  Button,
  ButtonGroup,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  HTMLTable,
  Intent,
  NonIdealState,
  ProgressBar,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { Fragment, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../app/route-paths.js';
import { useSession } from '../../app/session-context.js';
import { isApiError } from '../../shared/api/api-error.js';
import { errorMessage } from '../../shared/i18n/error-message.js';
import type { Project } from '../projects/projects.types.js';
import { type DownloadAction, type DownloadItem, downloadItems, mayDownloadPremium } from './download-items.js';
import { downloadWithProgress, exportSupplierUrl, type FileSupply, fileSupplierUrl } from './viewer.api.js';
import './download-dialog.css';

/** Human size of a byte count: "812 KB", "3.4 MB". */
export function formatBytes(bytes: number, lang = 'en-US'): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${new Intl.NumberFormat(lang, { maximumFractionDigits: u === 0 ? 0 : 1 }).format(v)} ${units[u]}`;
}

export interface DownloadDialogProps {
  project: Project;
  isOpen: boolean;
  onClose: () => void;
  /** Set when the project was opened from a share link. */
  shareToken?: string | undefined;
}

/** The download under way: asking for the URL (an export may be made first), then fetching the bytes. */
interface Running {
  item: DownloadItem;
  action: DownloadAction;
  phase: 'preparing' | 'downloading';
  loaded: number;
  total: number;
}

/** The outcome of the last download, for the live region. */
type Outcome = { kind: 'done'; fileName: string } | { kind: 'error'; error: unknown } | null;

/** Asks the API for the signed URL of a download button. */
function supplyOf(item: DownloadItem, action: DownloadAction, shareToken?: string): Promise<FileSupply> {
  return action.source.kind === 'export'
    ? exportSupplierUrl(item.asset.id, action.source.format, shareToken)
    : fileSupplierUrl(item.asset.id, action.source.extension, shareToken);
}

/**
 * The download dialog (spec §2, §7): each vector layer as GeoJSON (EPSG:4326),
 * DXF (orthographic CRS) or Shapefile (project CRS), made by the API on the
 * first request; rasters as GeoTIFF; reports (PDF, forest inventory CSV,
 * quality JSON, topographic map DXF); point clouds as LAS/LAZ, the classified
 * one for premium subscriptions only (others see the upgrade prompt). Each
 * file downloads as a blob with a progress bar and can be cancelled; errors
 * are translated. Everything is reachable with the keyboard (Tab, Enter,
 * Escape closes), progress and outcomes are announced by a live region.
 */
export function DownloadDialog({ project, isOpen, onClose, shareToken }: DownloadDialogProps) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const premium = mayDownloadPremium(user, shareToken);
  const items = downloadItems(project);
  const [running, setRunning] = useState<Running | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [upgrade, setUpgrade] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const upgradeRef = useRef<HTMLDivElement | null>(null);

  useEffect(() => {
    if (upgrade) upgradeRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [upgrade]);

  const assetName = (item: DownloadItem) =>
    t(`viewer:assetTypes.${item.asset.type}`, { defaultValue: item.asset.name });

  async function download(item: DownloadItem, action: DownloadAction) {
    if (running) return;
    setOutcome(null);
    if (action.premium && !premium) {
      setUpgrade(true);
      return;
    }
    setUpgrade(false);
    const controller = new AbortController();
    abort.current = controller;
    const mine = () => abort.current === controller;
    setRunning({ item, action, phase: 'preparing', loaded: 0, total: action.size ?? 0 });
    try {
      const supply = await supplyOf(item, action, shareToken);
      if (!mine()) return;
      setRunning({ item, action, phase: 'downloading', loaded: 0, total: supply.totalSize });
      await downloadWithProgress(
        supply,
        (loaded, total) => {
          if (mine()) setRunning({ item, action, phase: 'downloading', loaded, total });
        },
        controller.signal,
      );
      if (mine()) setOutcome({ kind: 'done', fileName: supply.fileName });
    } catch (err) {
      if ((err as Error).name === 'AbortError' || !mine()) return;
      if (isApiError(err) && err.code === 'PREMIUM_REQUIRED') setUpgrade(true);
      else setOutcome({ kind: 'error', error: err });
    } finally {
      if (mine()) {
        abort.current = null;
        setRunning(null);
      }
    }
  }

  /** Stops the download under way (an export being made on the server still finishes and is kept). */
  function cancel() {
    abort.current?.abort();
    abort.current = null;
    setRunning(null);
  }

  const groups = new Map<string, DownloadItem[]>();
  for (const item of items) groups.set(item.layerType, [...(groups.get(item.layerType) ?? []), item]);
  const fraction =
    running && running.phase === 'downloading' && running.total > 0 ? running.loaded / running.total : null;

  return (
    <Dialog
      isOpen={isOpen}
      onClose={() => {
        cancel();
        onClose();
      }}
      title={t('viewer:download.title')}
      icon="download"
      className="nu-download-dialog"
    >
      <DialogBody>
        {items.length === 0 ? (
          <NonIdealState icon="folder-open" title={t('viewer:download.none')} />
        ) : (
          <HTMLTable compact className="nu-download-table" aria-busy={running !== null}>
            <thead>
              <tr>
                <th scope="col">{t('viewer:download.data')}</th>
                <th scope="col">{t('viewer:download.format')}</th>
              </tr>
            </thead>
            <tbody>
              {[...groups].map(([layerType, rows]) => (
                <Fragment key={layerType}>
                  <tr className="nu-download-table__group">
                    <th scope="colgroup" colSpan={2}>
                      {t(`viewer:layerTypes.${layerType}`, { defaultValue: layerType })}
                    </th>
                  </tr>
                  {rows.map((item) => {
                    const name = assetName(item);
                    return (
                      <tr key={item.asset.id} data-asset-type={item.asset.type}>
                        <th scope="row" className="nu-download-table__name">
                          {name}
                          {item.actions.some((a) => a.premium) && (
                            <Tag minimal intent={Intent.WARNING} className="nu-ml-4">
                              {t('viewer:download.premium')}
                            </Tag>
                          )}
                        </th>
                        <td>
                          <ButtonGroup className="nu-download-table__formats">
                            {item.actions.map((action) => {
                              const mine = running?.action.id === action.id;
                              const locked = action.premium && !premium;
                              const size = action.size !== null ? formatBytes(action.size, i18n.language) : null;
                              return (
                                <Button
                                  key={action.id}
                                  size="small"
                                  variant="outlined"
                                  icon={mine ? <Spinner size={12} /> : locked ? 'lock' : 'download'}
                                  aria-disabled={running !== null && !mine}
                                  onClick={() => void download(item, action)}
                                  text={
                                    <>
                                      {action.label}
                                      {size && <span className="nu-download-table__size">{size}</span>}
                                    </>
                                  }
                                  aria-label={t('viewer:download.actionLabel', {
                                    data: name,
                                    format: action.label,
                                  })}
                                  data-download={action.id}
                                />
                              );
                            })}
                          </ButtonGroup>
                        </td>
                      </tr>
                    );
                  })}
                </Fragment>
              ))}
            </tbody>
          </HTMLTable>
        )}
        {groups.has('VECTOR') && (
          <p className="nu-muted nu-small nu-download-hints">
            GeoJSON: {t('viewer:download.hints.GeoJSON')} · DXF: {t('viewer:download.hints.DXF')} · Shapefile:{' '}
            {t('viewer:download.hints.Shapefile')}
          </p>
        )}
        <div className="nu-download-status" aria-live="polite">
          {running && (
            <div className="nu-download-progress">
              <div className="nu-download-progress__text">
                {running.phase === 'preparing'
                  ? t('viewer:download.preparing', { data: assetName(running.item), format: running.action.label })
                  : t('viewer:download.downloading', {
                      data: assetName(running.item),
                      format: running.action.label,
                      loaded: formatBytes(running.loaded, i18n.language),
                      total: formatBytes(Math.max(running.total, running.loaded), i18n.language),
                    })}
              </div>
              <ProgressBar
                intent={Intent.PRIMARY}
                value={fraction ?? undefined}
                animate={fraction === null}
                stripes={fraction === null}
                aria-label={t('viewer:download.progressLabel')}
              />
              <Button size="small" variant="minimal" icon="cross" onClick={cancel} text={t('viewer:download.cancel')} />
            </div>
          )}
          {outcome?.kind === 'done' && (
            <p className="nu-download-done">{t('viewer:download.done', { file: outcome.fileName })}</p>
          )}
        </div>
        {upgrade && (
          <div ref={upgradeRef}>
            <Callout
              intent={Intent.WARNING}
              title={t('viewer:download.upgradeTitle')}
              className="nu-callout"
              role="alert"
              data-testid="upgrade-prompt"
            >
              <p>{t('viewer:download.upgradeText')}</p>
              {!shareToken && (
                <AnchorButton
                  role="link"
                  intent={Intent.PRIMARY}
                  icon="credit-card"
                  href={`#${ROUTES.user_subscription_buy}`}
                  text={t('viewer:download.upgrade')}
                />
              )}
            </Callout>
          </div>
        )}
        {outcome?.kind === 'error' ? (
          <Callout intent={Intent.DANGER} role="alert" className="nu-callout">
            {errorMessage(t, outcome.error)}
          </Callout>
        ) : null}
      </DialogBody>
      <DialogFooter
        actions={
          <Button
            onClick={() => {
              cancel();
              onClose();
            }}
            text={t('viewer:actions.close')}
          />
        }
      />
    </Dialog>
  );
}
