import {
  Button,
  Callout,
  Card,
  Collapse,
  FileInput,
  FormGroup,
  H2,
  InputGroup,
  Intent,
  ProgressBar,
} from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { routePath } from '../../app/route-paths.js';
import { isApiError } from '../../shared/api/api-error.js';
import { errorMessage } from '../../shared/i18n/error-message.js';
import { PageFrame } from '../../shared/ui/page-frame.js';
import { TextField } from '../../shared/ui/text-field.js';
import { formatBytes } from '../viewer/download-dialog.js';
import { type LasHeaderData, LasHeaderError, readLasHeaderFromFile } from './las-file-header.js';
import { ProcessingFields } from './processing-fields.js';
import { DEFAULT_PROCESSING_OPTIONS, processingOptionsSchema } from './processing-options.schema.js';
import { projectNameRule } from './project-name.schema.js';
import { createProject, requestUploadUrl, startTiling, type UploadProgress, uploadFile } from './projects.api.js';
import type { Project } from './projects.types.js';
import { errorCodeOf, SubscribePrompt } from './subscribe-prompt.js';
import './projects.css';

const formSchema = z.object({
  name: projectNameRule,
  epsgCode: z
    .string()
    .trim()
    .refine((v) => v === '' || (/^\d{4,6}$/.test(v) && Number(v) >= 1024), 'projects:create.errors.epsg'),
  processing: processingOptionsSchema,
});
type FormValues = z.infer<typeof formSchema>;

/** Where the creation stands. */
type Phase =
  | { step: 'form' }
  | { step: 'creating' }
  | { step: 'uploading'; progress: UploadProgress }
  | { step: 'starting' }
  | { step: 'failed'; error: unknown; project: Project | null };

/** The file chosen and what its header says, or why it was refused. */
type Chosen = { file: File; header: LasHeaderData } | { file: File; error: LasHeaderError | Error } | null;

/** "12.3 MB/s", "850 KB/s". */
function formatSpeed(bytesPerSecond: number, lang: string): string {
  return `${formatBytes(bytesPerSecond, lang)}/s`;
}

/** Seconds left as "1 min 20 s" / "45 s". */
function formatEta(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

/**
 * Create project (spec §2): a name and a LAS/LAZ file whose header the
 * browser checks before anything is sent, the processing form, then the
 * upload with progress, speed and cancel, tiling and processing start. Every
 * upload and processing error of spec §8 is shown translated from its code.
 */
export function CreateProjectPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<Chosen>(null);
  const [fileTouched, setFileTouched] = useState(false);
  const [phase, setPhase] = useState<Phase>({ step: 'form' });
  const [showOptions, setShowOptions] = useState(true);
  const abort = useRef<AbortController | null>(null);
  const created = useRef<Project | null>(null);
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { name: '', epsgCode: '', processing: DEFAULT_PROCESSING_OPTIONS },
    mode: 'onTouched',
  });

  async function choose(file: File | undefined) {
    setFileTouched(true);
    if (!file) {
      setChosen(null);
      return;
    }
    try {
      const header = await readLasHeaderFromFile(file);
      setChosen({ file, header });
      if (!form.getValues('name')) form.setValue('name', file.name.replace(/\.(las|laz)$/i, '').replace(/\//g, '-'));
      if (header.epsgCode) form.setValue('epsgCode', String(header.epsgCode));
    } catch (err) {
      setChosen({ file, error: err as Error });
    }
  }

  async function submit(values: FormValues) {
    if (!chosen || !('header' in chosen)) {
      setFileTouched(true);
      return;
    }
    const { file, header } = chosen;
    const controller = new AbortController();
    abort.current = controller;
    try {
      let project = created.current;
      if (!project || project.name !== values.name.trim()) {
        setPhase({ step: 'creating' });
        project = await createProject(values.name.trim());
        created.current = project;
      }
      const layer = project.layers?.find((l) => l.type === 'POINT_CLOUD');
      if (!layer) throw new Error(t('viewer:problems.NO_LAS_LAYER'));
      const epsgCode = values.epsgCode ? Number(values.epsgCode) : header.epsgCode;
      const signed = await requestUploadUrl({
        layerId: layer.id,
        type: 'POINT_CLOUD',
        // The API takes file names URL-encoded (spec §7).
        filename: encodeURIComponent(file.name),
        fileSize: file.size,
        epsgCode,
        lasHeaderData: header,
      });
      setPhase({ step: 'uploading', progress: { loaded: 0, total: file.size, bytesPerSecond: 0 } });
      await uploadFile(
        signed.signedUrl,
        file,
        (progress) => setPhase({ step: 'uploading', progress }),
        controller.signal,
      );
      setPhase({ step: 'starting' });
      await startTiling({
        assetId: signed.asset.id,
        filename: signed.filename,
        fileSize: file.size,
        originalFilename: file.name,
        processingOptions: values.processing,
      });
      navigate(routePath('user_project_view', { id: project.id }));
    } catch (err) {
      setPhase({
        step: 'failed',
        error: (err as Error).name === 'AbortError' ? new Error(t('projects:create.cancelled')) : err,
        project: created.current,
      });
    } finally {
      abort.current = null;
    }
  }

  const busy = phase.step === 'creating' || phase.step === 'uploading' || phase.step === 'starting';
  const fileError =
    chosen && 'error' in chosen
      ? chosen.error instanceof LasHeaderError
        ? `${t(`projects:create.errors.${chosen.error.code}`)} (${chosen.error.message})`
        : chosen.error.message
      : fileTouched && !chosen
        ? t('projects:create.errors.fileRequired')
        : undefined;
  const header = chosen && 'header' in chosen ? chosen.header : null;
  const needsCrs = header !== null && header.epsgCode === null && !header.hasWkt;

  return (
    <PageFrame
      title={t('projects:create.title')}
      breadcrumbs={[{ text: t('projects:list.title'), to: '/user' }, { text: t('projects:create.title') }]}
    >
      <form className="nu-create" onSubmit={form.handleSubmit(submit)} noValidate>
        <Card className="nu-create__card">
          <H2 className="nu-create__heading">{t('projects:create.dataTitle')}</H2>
          <TextField
            label={t('projects:fields.name')}
            registration={form.register('name')}
            error={form.formState.errors.name?.message}
            required
            disabled={busy}
            maxLength={254}
          />
          <FormGroup
            label={t('projects:create.file')}
            labelFor="field-file"
            labelInfo={t('common:form.required')}
            helperText={fileError ?? t('projects:create.fileHint')}
            intent={fileError ? Intent.DANGER : Intent.NONE}
          >
            <FileInput
              fill
              disabled={busy}
              text={chosen?.file.name ?? t('projects:create.chooseFile')}
              buttonText={t('projects:create.browse')}
              hasSelection={chosen !== null}
              inputProps={{ id: 'field-file', accept: '.las,.laz', 'aria-invalid': fileError ? true : undefined }}
              onInputChange={(e) => void choose(e.currentTarget.files?.[0])}
            />
          </FormGroup>
          {header && (
            <dl className="nu-las-summary" data-testid="las-summary">
              <dt>{t('projects:create.header.version')}</dt>
              <dd>
                LAS {header.version} · {t('projects:create.header.format', { format: header.pointFormat })}
                {header.compressed ? ' · LAZ' : ''}
              </dd>
              <dt>{t('projects:create.header.points')}</dt>
              <dd>{header.pointCount.toLocaleString(i18n.language)}</dd>
              <dt>{t('projects:create.header.size')}</dt>
              <dd>{formatBytes(chosen!.file.size, i18n.language)}</dd>
              <dt>{t('projects:create.header.extent')}</dt>
              <dd>
                {(header.max[0] - header.min[0]).toLocaleString(i18n.language, { maximumFractionDigits: 1 })} ×{' '}
                {(header.max[1] - header.min[1]).toLocaleString(i18n.language, { maximumFractionDigits: 1 })} ·{' '}
                {t('projects:create.header.heights', {
                  min: header.min[2].toLocaleString(i18n.language, { maximumFractionDigits: 2 }),
                  max: header.max[2].toLocaleString(i18n.language, { maximumFractionDigits: 2 }),
                })}
              </dd>
              <dt>{t('projects:create.header.crs')}</dt>
              <dd>
                {header.epsgCode
                  ? `EPSG:${header.epsgCode}`
                  : header.hasWkt
                    ? t('projects:create.header.wkt')
                    : t('projects:create.header.noCrs')}
              </dd>
              {header.generatingSoftware && (
                <>
                  <dt>{t('projects:create.header.software')}</dt>
                  <dd>{header.generatingSoftware}</dd>
                </>
              )}
            </dl>
          )}
          {header && (
            <FormGroup
              label={t('projects:create.epsg')}
              labelFor="field-epsg"
              helperText={
                form.formState.errors.epsgCode?.message
                  ? t(form.formState.errors.epsgCode.message)
                  : needsCrs
                    ? t('projects:create.epsgNeeded')
                    : t('projects:create.epsgHint')
              }
              intent={form.formState.errors.epsgCode || needsCrs ? Intent.WARNING : Intent.NONE}
            >
              <InputGroup
                id="field-epsg"
                leftElement={<span className="nu-unit nu-unit--left">EPSG:</span>}
                inputMode="numeric"
                disabled={busy}
                {...(() => {
                  const { ref, ...rest } = form.register('epsgCode');
                  return { inputRef: ref, ...rest };
                })()}
              />
            </FormGroup>
          )}
        </Card>

        <Card className="nu-create__card">
          <div className="nu-create__heading-row">
            <H2 className="nu-create__heading">{t('projects:processing.title')}</H2>
            <Button
              variant="minimal"
              icon={showOptions ? 'chevron-up' : 'chevron-down'}
              onClick={() => setShowOptions(!showOptions)}
              text={showOptions ? t('projects:processing.hide') : t('projects:processing.show')}
            />
          </div>
          <p className="nu-muted">{t('projects:processing.intro')}</p>
          <Collapse isOpen={showOptions} keepChildrenMounted>
            <fieldset disabled={busy} className="nu-create__fieldset">
              <ProcessingFields form={form as never} />
            </fieldset>
          </Collapse>
        </Card>

        {phase.step === 'uploading' && (
          <Card className="nu-create__card" data-testid="upload-progress">
            <H2 className="nu-create__heading">{t('projects:create.uploading')}</H2>
            <ProgressBar
              intent={Intent.PRIMARY}
              value={phase.progress.total ? phase.progress.loaded / phase.progress.total : 0}
            />
            <div className="nu-upload-stats">
              <span>
                {formatBytes(phase.progress.loaded, i18n.language)} / {formatBytes(phase.progress.total, i18n.language)}{' '}
                ({Math.floor((phase.progress.loaded / Math.max(1, phase.progress.total)) * 100)} %)
              </span>
              {phase.progress.bytesPerSecond > 0 && (
                <span>
                  {formatSpeed(phase.progress.bytesPerSecond, i18n.language)} ·{' '}
                  {t('projects:create.eta', {
                    time: formatEta((phase.progress.total - phase.progress.loaded) / phase.progress.bytesPerSecond),
                  })}
                </span>
              )}
              <Button
                intent={Intent.DANGER}
                variant="outlined"
                icon="cross"
                onClick={() => abort.current?.abort()}
                text={t('projects:create.cancel')}
              />
            </div>
          </Card>
        )}

        {phase.step === 'failed' && (
          <Callout intent={Intent.DANGER} role="alert" title={t('projects:create.failed')} className="nu-callout">
            <p>{errorMessage(t, phase.error)}</p>
            <SubscribePrompt code={errorCodeOf(phase.error)} />
            {isApiError(phase.error) && phase.error.code === 'CRS_REQUIRED' && <p>{t('projects:create.epsgNeeded')}</p>}
            {phase.project && (
              <p className="nu-muted">{t('projects:create.retryHint', { name: phase.project.name })}</p>
            )}
          </Callout>
        )}

        <div className="nu-create__actions">
          <Button
            type="submit"
            intent={Intent.PRIMARY}
            size="large"
            icon="cloud-upload"
            loading={busy}
            disabled={busy}
            text={phase.step === 'failed' ? t('projects:create.retry') : t('projects:create.submit')}
            data-testid="create-submit"
          />
          {phase.step === 'creating' && <span className="nu-muted">{t('projects:create.creating')}</span>}
          {phase.step === 'starting' && <span className="nu-muted">{t('projects:create.starting')}</span>}
        </div>
      </form>
    </PageFrame>
  );
}
