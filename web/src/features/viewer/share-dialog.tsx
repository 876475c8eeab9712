import { Button, Callout, ControlGroup, Dialog, DialogBody, DialogFooter, InputGroup, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../shared/i18n/error-message.js';
import { showToast } from '../../shared/ui/toaster.js';
import { createShareToken, revokeShareToken, shareLink } from './viewer.api.js';

export interface ShareDialogProps {
  projectId: string;
  projectName: string;
  /** The current token, null when the project is not shared. */
  token: string | null;
  isOpen: boolean;
  onClose: () => void;
  /** Called with the new token (null after a revocation). */
  onChange: (token: string | null) => void;
}

/** Copies text to the clipboard; falls back to a selected hidden field on browsers without the Clipboard API. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/**
 * Share link of a project (spec §2): create it, copy it, or revoke it. Anyone
 * holding the link sees the project read-only, without an account.
 */
export function ShareDialog({ projectId, projectName, token, isOpen, onClose, onChange }: ShareDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const link = token ? shareLink(token) : '';

  async function run(action: () => Promise<string | null>) {
    setBusy(true);
    setError(null);
    try {
      onChange(await action());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function copy() {
    const ok = await copyText(link);
    await showToast({
      message: ok ? t('viewer:share.copied') : t('viewer:share.copyFailed'),
      intent: ok ? Intent.SUCCESS : Intent.WARNING,
      icon: ok ? 'tick' : 'warning-sign',
    });
  }

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('viewer:share.title', { name: projectName })} icon="share">
      <DialogBody>
        <p>{t('viewer:share.intro')}</p>
        {token ? (
          <ControlGroup>
            <InputGroup
              fill
              className="nu-share__link"
              readOnly
              value={link}
              aria-label={t('viewer:share.link')}
              data-testid="share-link"
              onFocus={(e) => e.currentTarget.select()}
            />
            <Button
              icon="clipboard"
              intent={Intent.PRIMARY}
              onClick={() => void copy()}
              text={t('viewer:share.copy')}
            />
          </ControlGroup>
        ) : (
          <Callout icon="lock">{t('viewer:share.notShared')}</Callout>
        )}
        {error ? (
          <Callout intent={Intent.DANGER} role="alert" className="nu-callout">
            {errorMessage(t, error)}
          </Callout>
        ) : null}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            {token && (
              <Button
                intent={Intent.DANGER}
                variant="minimal"
                loading={busy}
                onClick={() =>
                  void run(async () => {
                    await revokeShareToken(projectId);
                    return null;
                  })
                }
                text={t('viewer:share.revoke')}
              />
            )}
            <Button
              intent={token ? Intent.NONE : Intent.PRIMARY}
              loading={busy}
              icon="link"
              onClick={() => void run(async () => (await createShareToken(projectId)).token)}
              text={token ? t('viewer:share.renew') : t('viewer:share.create')}
            />
            <Button onClick={onClose} text={t('viewer:actions.close')} />
          </>
        }
      />
    </Dialog>
  );
}
