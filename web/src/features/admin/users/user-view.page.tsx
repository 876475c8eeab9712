import { Alert, Button, Callout, Card, H2, Intent, NonIdealState, Radio, RadioGroup } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useSWRConfig } from 'swr';
import { PageSpinner } from '../../../app/root-layout.js';
import { ROUTES } from '../../../app/route-paths.js';
import { useSession } from '../../../app/session-context.js';
import type { Role, User } from '../../../shared/api/types.js';
import { errorMessage } from '../../../shared/i18n/error-message.js';
import { PageFrame } from '../../../shared/ui/page-frame.js';
import { showToast } from '../../../shared/ui/toaster.js';
import { UserSubscriptions } from '../subscriptions/user-subscriptions.js';
import { UserDetails } from './user-details.js';
import { setUserEnabled, setUserRole, useEnabledAdminCount, useUser } from './users.api.js';
import { UserTags } from './users-list.page.js';

function currentRole(user: User): Role {
  return user.roles.includes('admin') ? 'admin' : 'user';
}

/** Role editor with the last-admin warning (spec §6) and the messages of spec §8. */
function RoleEditor({ user, onSaved }: { user: User; onSaved: (u: User) => void }) {
  const { t } = useTranslation();
  const me = useSession().user;
  const [role, setRole] = useState<Role>(currentRole(user));
  const [confirming, setConfirming] = useState(false);
  const [saving, setSaving] = useState(false);
  const isAdmin = currentRole(user) === 'admin';
  const admins = useEnabledAdminCount(isAdmin && user.enabled);
  const lastAdmin = isAdmin && user.enabled && admins.data === 1;
  const changed = role !== currentRole(user);

  const save = async () => {
    setConfirming(false);
    setSaving(true);
    try {
      const updated = await setUserRole(user.id, role);
      onSaved(updated);
      void showToast({ intent: Intent.SUCCESS, icon: 'tick', message: t('admin:users.roleUpdated') });
    } catch (err) {
      setRole(currentRole(user));
      void showToast({
        intent: Intent.DANGER,
        icon: 'error',
        message: `${t('admin:users.roleUpdateFailed')}: ${errorMessage(t, err)}`,
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      {lastAdmin && (
        <Callout intent={Intent.WARNING} icon="warning-sign" className="nu-callout" role="status">
          {t('admin:users.lastAdminWarning')}
        </Callout>
      )}
      <RadioGroup
        label={t('admin:users.role')}
        name="role"
        selectedValue={role}
        onChange={(e) => setRole(e.currentTarget.value as Role)}
      >
        <Radio value="user" label={t('admin:users.roles.user')} disabled={lastAdmin} />
        <Radio value="admin" label={t('admin:users.roles.admin')} />
      </RadioGroup>
      <Button
        intent={Intent.PRIMARY}
        disabled={!changed}
        loading={saving}
        onClick={() => (isAdmin || user.id === me?.id ? setConfirming(true) : void save())}
      >
        {t('admin:users.saveRole')}
      </Button>
      <Alert
        isOpen={confirming}
        intent={Intent.WARNING}
        icon="warning-sign"
        confirmButtonText={t('admin:users.saveRole')}
        cancelButtonText={t('common:actions.cancel')}
        onConfirm={() => void save()}
        onCancel={() => setConfirming(false)}
      >
        <p>{t('admin:users.confirmDemote', { email: user.email })}</p>
      </Alert>
    </>
  );
}

/** Admin: one user (route admin/users/view/{id}): details, role, account state and subscriptions. */
export function AdminUserViewPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data: user, error, mutate } = useUser(id);
  const { mutate: mutateAll } = useSWRConfig();
  const [toggling, setToggling] = useState(false);

  const saved = (u: User) => {
    void mutate(u, { revalidate: false });
    void mutateAll((key) => Array.isArray(key) && (key[0] === 'table' || key[0] === 'admin-count'));
  };

  const toggleEnabled = async (u: User) => {
    setToggling(true);
    try {
      const updated = await setUserEnabled(u.id, !u.enabled);
      saved(updated);
      void showToast({
        intent: Intent.SUCCESS,
        message: updated.enabled
          ? t('admin:users.enabledCount', { count: 1 })
          : t('admin:users.disabledCount', { count: 1 }),
      });
    } catch (err) {
      void showToast({ intent: Intent.DANGER, message: errorMessage(t, err) });
    } finally {
      setToggling(false);
    }
  };

  const crumbs = [
    { text: t('admin:title'), to: ROUTES.admin },
    { text: t('admin:users.listTitle'), to: ROUTES.admin_users_list },
  ];
  if (error) {
    return (
      <PageFrame title={t('admin:users.viewTitle')} breadcrumbs={[...crumbs, { text: id }]}>
        <NonIdealState icon="error" title={errorMessage(t, error)} />
      </PageFrame>
    );
  }
  if (!user) return <PageSpinner />;

  return (
    <PageFrame title={user.email} breadcrumbs={[...crumbs, { text: user.email }]} actions={<UserTags user={user} />}>
      <div className="nu-settings">
        <Card className="nu-settings__card">
          <H2>{t('admin:users.detailsTitle')}</H2>
          <UserDetails user={user} />
        </Card>
        <div className="nu-stack">
          <Card className="nu-settings__card">
            <H2>{t('admin:users.roleTitle')}</H2>
            <RoleEditor key={user.roles.join()} user={user} onSaved={saved} />
          </Card>

          <Card className="nu-settings__card">
            <H2>{t('admin:users.accountTitle')}</H2>
            <p className="nu-muted">{user.enabled ? t('admin:users.enabledHelp') : t('admin:users.disabledHelp')}</p>
            <Button
              icon={user.enabled ? 'disable' : 'tick-circle'}
              intent={user.enabled ? Intent.DANGER : Intent.SUCCESS}
              variant="outlined"
              loading={toggling}
              onClick={() => void toggleEnabled(user)}
            >
              {user.enabled ? t('admin:users.disable') : t('admin:users.enable')}
            </Button>
          </Card>
        </div>
      </div>
      <Card className="nu-settings__card nu-billing__section">
        <H2>{t('billing:userSubscriptions.title')}</H2>
        <UserSubscriptions userId={user.id} />
      </Card>
    </PageFrame>
  );
}
