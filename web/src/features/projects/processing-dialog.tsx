import { Button, Callout, Dialog, DialogBody, DialogFooter, FileInput, FormGroup, Intent } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { errorMessage } from '../../shared/i18n/error-message.js';
import { showToast } from '../../shared/ui/toaster.js';
import { ProcessingFields, type WithProcessing } from './processing-fields.js';
import { DEFAULT_PROCESSING_OPTIONS, processingOptionsSchema } from './processing-options.schema.js';
import { getProject, requestOrthophotoUploadUrl, startProcessing, uploadFile } from './projects.api.js';
import { errorCodeOf, SubscribePrompt } from './subscribe-prompt.js';

const schema = z.object({ processing: processingOptionsSchema });

export interface ProcessingDialogProps {
  projectId: string;
  projectName: string;
  isOpen: boolean;
  onClose: () => void;
  /** Called once the processing is queued (the project then shows its progress). */
  onStarted: () => void;
}

/**
 * Runs the processing of a project again with new options (spec §2 processing
 * form, §5 ranges); the API's refusals (processing already running, CRS
 * required, credits, subscription) are shown translated from their codes,
 * with a link to the buy page when a subscription or credits would help.
 * An orthophoto (GeoTIFF) may be chosen: it is uploaded first and the
 * classified cloud takes its colours from it (`orthophotoAssetId`).
 */
export function ProcessingDialog({ projectId, projectName, isOpen, onClose, onStarted }: ProcessingDialogProps) {
  const { t } = useTranslation();
  const [error, setError] = useState<unknown>(null);
  const [orthophoto, setOrthophoto] = useState<File | null>(null);
  const [orthophotoSent, setOrthophotoSent] = useState<number | null>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  // The refusal shows under the long form: bring it into view.
  useEffect(() => {
    if (error) errorRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [error]);
  const form = useForm<WithProcessing>({
    resolver: zodResolver(schema),
    defaultValues: { processing: DEFAULT_PROCESSING_OPTIONS },
    mode: 'onTouched',
  });

  async function submit(values: WithProcessing) {
    setError(null);
    try {
      let orthophotoAssetId: string | undefined;
      if (orthophoto) {
        // Any layer of the project names it; the API files it in the raster layer.
        const layerId = (await getProject(projectId)).layers?.[0]?.id;
        if (!layerId) throw new Error('the project has no layer');
        const signed = await requestOrthophotoUploadUrl(layerId, orthophoto);
        setOrthophotoSent(0);
        await uploadFile(signed.signedUrl, orthophoto, (p) => setOrthophotoSent(p.total > 0 ? p.loaded / p.total : 1));
        orthophotoAssetId = signed.asset.id;
      }
      await startProcessing(projectId, { ...values.processing, ...(orthophotoAssetId ? { orthophotoAssetId } : {}) });
      void showToast({ intent: Intent.SUCCESS, icon: 'play', message: t('projects:processing.started') });
      onStarted();
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setOrthophotoSent(null);
    }
  }

  return (
    <Dialog
      isOpen={isOpen}
      onClose={onClose}
      title={t('projects:processing.dialogTitle', { name: projectName })}
      icon="cog"
      style={{ width: 760 }}
    >
      <form onSubmit={form.handleSubmit(submit)} noValidate>
        <DialogBody>
          <p className="nu-muted">{t('projects:processing.dialogIntro')}</p>
          <ProcessingFields form={form} />
          <FormGroup
            label={t('projects:orthophoto.label')}
            labelFor="field-orthophoto"
            labelInfo={t('projects:orthophoto.optional')}
            helperText={
              orthophotoSent !== null
                ? t('projects:orthophoto.uploading', { percent: Math.round(orthophotoSent * 100) })
                : t('projects:orthophoto.hint')
            }
          >
            <FileInput
              fill
              disabled={form.formState.isSubmitting}
              text={orthophoto?.name ?? t('projects:orthophoto.none')}
              buttonText={t('projects:create.browse')}
              hasSelection={orthophoto !== null}
              inputProps={{ id: 'field-orthophoto', accept: '.tif,.tiff,image/tiff' }}
              onInputChange={(e) => setOrthophoto(e.currentTarget.files?.[0] ?? null)}
            />
            {orthophoto ? (
              <Button
                variant="minimal"
                size="small"
                icon="cross"
                onClick={() => setOrthophoto(null)}
                text={t('projects:orthophoto.remove')}
              />
            ) : null}
          </FormGroup>
          {error ? (
            <div ref={errorRef}>
              <Callout intent={Intent.DANGER} role="alert" className="nu-callout">
                {errorMessage(t, error)}
                <SubscribePrompt code={errorCodeOf(error)} />
              </Callout>
            </div>
          ) : null}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={onClose} text={t('projects:list.cancel')} />
              <Button
                type="submit"
                intent={Intent.PRIMARY}
                icon="play"
                loading={form.formState.isSubmitting}
                text={t('projects:processing.run')}
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
