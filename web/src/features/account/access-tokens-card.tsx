import {
  Alert,
  Button,
  Callout,
  Card,
  ControlGroup,
  FormGroup,
  H2,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  Intent,
  Tag,
} from '@blueprintjs/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { formatDateTime } from '../../shared/format/format-date.js';
import { errorMessage } from '../../shared/i18n/error-message.js';
import { ErrorCallout } from '../../shared/ui/error-callout.js';
import { showToast } from '../../shared/ui/toaster.js';
import {
  type AccessToken,
  type CreatedAccessToken,
  createAccessToken,
  listAccessTokens,
  ogcApiUrl,
  revokeAccessToken,
} from './access-tokens.api.js';

/** Lifetimes offered when making a token (days; 0: until revoked). */
const EXPIRIES = [0, 30, 90, 365] as const;

/** The token just made, shown once with a copy button. */
function NewToken({ created, onDone }: { created: CreatedAccessToken; onDone: () => void }) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.token);
      void showToast({ intent: Intent.SUCCESS, icon: 'clipboard', message: t('account:tokens.copied') });
    } catch {
      void showToast({ intent: Intent.WARNING, message: t('account:tokens.copyFailed') });
    }
  };
  return (
    <Callout intent={Intent.SUCCESS} icon="key" title={t('account:tokens.createdTitle', { name: created.name })}>
      <p>{t('account:tokens.createdOnce')}</p>
      <ControlGroup fill>
        <InputGroup
          readOnly
          value={created.token}
          aria-label={t('account:tokens.tokenLabel')}
          onFocus={(e) => e.currentTarget.select()}
          data-testid="new-access-token"
        />
        <Button icon="clipboard" onClick={() => void copy()} text={t('account:tokens.copy')} />
      </ControlGroup>
      <Button style={{ marginTop: 8 }} variant="minimal" onClick={onDone} text={t('account:tokens.done')} />
    </Callout>
  );
}

/**
 * Account settings card: personal access tokens for GIS tools (read-only,
 * OGC API only). Make one with a name (and a lifetime), copy it once, see the
 * list (last use, expiry) and revoke.
 */
export function AccessTokensCard() {
  const { t } = useTranslation();
  const { data, error, mutate, isLoading } = useSWR('access-tokens', listAccessTokens);
  const [name, setName] = useState('');
  const [days, setDays] = useState<number>(0);
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<unknown>(null);
  const [created, setCreated] = useState<CreatedAccessToken | null>(null);
  const [toRevoke, setToRevoke] = useState<AccessToken | null>(null);
  const [revoking, setRevoking] = useState(false);

  const onCreate = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    setCreating(true);
    setCreateError(null);
    try {
      setCreated(await createAccessToken({ name: name.trim(), expiresInDays: days || null }));
      setName('');
      await mutate();
    } catch (err) {
      setCreateError(err);
    } finally {
      setCreating(false);
    }
  };

  const confirmRevoke = async () => {
    if (!toRevoke) return;
    setRevoking(true);
    try {
      await revokeAccessToken(toRevoke.id);
      void showToast({
        intent: Intent.SUCCESS,
        icon: 'trash',
        message: t('account:tokens.revoked', { name: toRevoke.name }),
      });
      if (created?.id === toRevoke.id) setCreated(null);
      setToRevoke(null);
      await mutate();
    } catch (err) {
      void showToast({ intent: Intent.DANGER, message: errorMessage(t, err) });
    } finally {
      setRevoking(false);
    }
  };

  return (
    // The whole row of the settings grid: the token and the list need the width.
    <Card className="nu-settings__card" style={{ gridColumn: '1 / -1' }} data-testid="access-tokens">
      <H2>{t('account:tokens.title')}</H2>
      <p>{t('account:tokens.intro')}</p>
      <p className="nu-muted">
        {t('account:tokens.how')} <code>{ogcApiUrl()}</code>
      </p>
      {created ? (
        <NewToken
          created={created}
          onDone={() => {
            setCreated(null);
            void mutate();
          }}
        />
      ) : (
        <form onSubmit={(e) => void onCreate(e)} aria-label={t('account:tokens.create')} style={{ maxWidth: 480 }}>
          <ErrorCallout error={createError} />
          <FormGroup
            label={t('account:tokens.name')}
            labelFor="access-token-name"
            helperText={t('account:tokens.nameHelp')}
          >
            <InputGroup
              id="access-token-name"
              value={name}
              maxLength={100}
              onChange={(e) => setName(e.currentTarget.value)}
              placeholder={t('account:tokens.namePlaceholder')}
            />
          </FormGroup>
          <FormGroup label={t('account:tokens.expiry')} labelFor="access-token-expiry">
            <HTMLSelect
              id="access-token-expiry"
              value={days}
              onChange={(e) => setDays(Number(e.currentTarget.value))}
              options={EXPIRIES.map((d) => ({
                value: d,
                label: d === 0 ? t('account:tokens.never') : t('account:tokens.days', { count: d }),
              }))}
            />
          </FormGroup>
          <Button type="submit" intent={Intent.PRIMARY} icon="key" loading={creating} disabled={!name.trim()}>
            {t('account:tokens.create')}
          </Button>
        </form>
      )}
      <ErrorCallout error={error} />
      {data && data.length > 0 && (
        <div style={{ overflowX: 'auto', marginTop: 16 }}>
          <HTMLTable compact striped style={{ width: '100%' }}>
            <thead>
              <tr>
                <th>{t('account:tokens.name')}</th>
                <th>{t('account:tokens.token')}</th>
                <th>{t('account:tokens.lastUsed')}</th>
                <th>{t('account:tokens.expires')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {data.map((token) => (
                <tr key={token.id}>
                  <td>
                    {token.name}
                    <div className="nu-muted">
                      {t('account:tokens.createdAt', { date: formatDateTime(token.createdAt) })}
                    </div>
                  </td>
                  <td>
                    <code>{token.prefix}</code>
                  </td>
                  <td>{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : t('account:tokens.neverUsed')}</td>
                  <td>
                    {token.expired ? (
                      <Tag intent={Intent.WARNING}>{t('account:tokens.expired')}</Tag>
                    ) : token.expiresAt ? (
                      formatDateTime(token.expiresAt)
                    ) : (
                      t('account:tokens.never')
                    )}
                  </td>
                  <td>
                    <Button
                      size="small"
                      variant="minimal"
                      intent={Intent.DANGER}
                      icon="trash"
                      text={t('account:tokens.revoke')}
                      onClick={() => setToRevoke(token)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
      {data && data.length === 0 && !isLoading && <p className="nu-muted">{t('account:tokens.none')}</p>}
      <Alert
        isOpen={toRevoke !== null}
        intent={Intent.DANGER}
        icon="trash"
        loading={revoking}
        cancelButtonText={t('account:tokens.cancel')}
        confirmButtonText={t('account:tokens.revoke')}
        onCancel={() => setToRevoke(null)}
        onConfirm={() => void confirmRevoke()}
      >
        <p>{t('account:tokens.confirmRevoke', { name: toRevoke?.name ?? '' })}</p>
      </Alert>
    </Card>
  );
}
