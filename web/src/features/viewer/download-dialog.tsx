import {
  AnchorButton,
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  HTMLTable,
  Intent,
  NonIdealState,
  ProgressBar,
  Tag,
} from '@blueprintjs/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../app/route-paths.js';
import { isApiError } from '../../shared/api/api-error.js';
import { errorMessage } from '../../shared/i18n/error-message.js';
import type { Project } from '../projects/projects.types.js';
import { downloadWithProgress, fileSupplierUrl } from './viewer.api.js';
import { type DownloadChoice, downloadChoices } from './viewer-scene.js';

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

interface Running {
  key: string;
  loaded: number;
  total: number;
}

/**
 * The download dialog (spec §2): vector data as GeoJSON (EPSG:4326), DXF
 * (orthographic CRS) and Shapefile (project CRS) when those files exist,
 * reports and point clouds. Each file downloads with a progress bar; a
 * classified point cloud without a premium subscription shows the upgrade prompt.
 */
export function DownloadDialog({ project, isOpen, onClose, shareToken }: DownloadDialogProps) {
  const { t, i18n } = useTranslation();
  const choices = downloadChoices(project);
  const [running, setRunning] = useState<Running | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [upgrade, setUpgrade] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const keyOf = (c: DownloadChoice) => `${c.asset.id}.${c.extension}`;

  async function download(c: DownloadChoice) {
    const key = keyOf(c);
    setError(null);
    setUpgrade(false);
    const controller = new AbortController();
    abort.current = controller;
    setRunning({ key, loaded: 0, total: c.size ?? 0 });
    try {
      const supply = await fileSupplierUrl(c.asset.id, c.extension, shareToken);
      await downloadWithProgress(supply, (loaded, total) => setRunning({ key, loaded, total }), controller.signal);
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
      if (isApiError(err) && err.code === 'PREMIUM_REQUIRED') setUpgrade(true);
      else setError(err);
    } finally {
      abort.current = null;
      setRunning(null);
    }
  }

  const hint = (format: string) => t(`viewer:download.hints.${format}`, { defaultValue: '' });

  return (
    <Dialog
      isOpen={isOpen}
      onClose={() => {
        abort.current?.abort();
        onClose();
      }}
      title={t('viewer:download.title')}
      icon="download"
      style={{ width: 640 }}
    >
      <DialogBody>
        {choices.length === 0 ? (
          <NonIdealState icon="folder-open" title={t('viewer:download.none')} />
        ) : (
          <HTMLTable compact striped className="nu-download-table">
            <thead>
              <tr>
                <th>{t('viewer:download.data')}</th>
                <th>{t('viewer:download.format')}</th>
                <th>{t('viewer:download.size')}</th>
                <th>
                  <span className="nu-visually-hidden">{t('viewer:download.action')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {choices.map((c) => {
                const key = keyOf(c);
                const mine = running?.key === key;
                return (
                  <tr key={key}>
                    <td>{t(`viewer:assetTypes.${c.asset.type}`, { defaultValue: c.asset.name })}</td>
                    <td>
                      <Tag minimal>{c.format}</Tag> <span className="nu-muted nu-small">{hint(c.format)}</span>
                      {c.premium && (
                        <Tag minimal intent={Intent.WARNING} className="nu-ml-4">
                          {t('viewer:download.premium')}
                        </Tag>
                      )}
                    </td>
                    <td className="nu-nowrap">{c.size !== null ? formatBytes(c.size, i18n.language) : '—'}</td>
                    <td className="nu-download-table__action">
                      {mine ? (
                        <ProgressBar
                          intent={Intent.PRIMARY}
                          value={running.total > 0 ? running.loaded / running.total : undefined}
                        />
                      ) : (
                        <Button
                          size="small"
                          icon="download"
                          disabled={running !== null}
                          onClick={() => void download(c)}
                          text={t('viewer:download.action')}
                          aria-label={`${t('viewer:download.action')} ${c.asset.name} ${c.format}`}
                        />
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </HTMLTable>
        )}
        {upgrade && (
          <Callout
            intent={Intent.WARNING}
            title={t('viewer:download.upgradeTitle')}
            className="nu-callout"
            role="alert"
          >
            <p>{t('viewer:download.upgradeText')}</p>
            {!shareToken && (
              <AnchorButton
                intent={Intent.PRIMARY}
                href={`#${ROUTES.user_subscription_buy}`}
                text={t('viewer:download.upgrade')}
              />
            )}
          </Callout>
        )}
        {error ? (
          <Callout intent={Intent.DANGER} role="alert" className="nu-callout">
            {errorMessage(t, error)}
          </Callout>
        ) : null}
      </DialogBody>
      <DialogFooter actions={<Button onClick={onClose} text={t('viewer:actions.close')} />} />
    </Dialog>
  );
}
