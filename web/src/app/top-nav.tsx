import {
  Alignment,
  AnchorButton,
  Button,
  HTMLSelect,
  Menu,
  MenuDivider,
  MenuItem,
  Navbar,
  NavbarDivider,
  NavbarGroup,
  NavbarHeading,
  Popover,
} from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import type { Language } from '../shared/api/types.js';
import { errorMessage } from '../shared/i18n/error-message.js';
import { showToast } from '../shared/ui/toaster.js';
import { LANGUAGES } from './i18n.js';
import { usePreferences } from './preferences.js';
import { ROUTES } from './route-paths.js';
import { useSession, useSessionStore } from './session-context.js';

/** Names of the languages in their own language (never translated). */
const LANGUAGE_NAMES: Record<Language, string> = { 'en-US': 'English', fr: 'Français' };

function NavItem({
  to,
  icon,
  children,
}: {
  to: string;
  icon: 'projects' | 'credit-card' | 'shield';
  children: string;
}) {
  const { pathname } = useLocation();
  const active = to === ROUTES.user ? pathname === to : pathname.startsWith(to);
  return (
    <AnchorButton
      role="link"
      variant="minimal"
      icon={icon}
      href={`#${to}`}
      active={active}
      aria-current={active ? 'page' : undefined}
    >
      {children}
    </AnchorButton>
  );
}

/** Language and theme switches; shown in the top bar on every screen. */
export function PreferenceSwitches() {
  const { t } = useTranslation();
  const { language, darkTheme, setLanguage, setDarkTheme } = usePreferences();
  const fail = (err: unknown) => void showToast({ intent: 'danger', message: errorMessage(t, err) });
  return (
    <>
      <HTMLSelect
        aria-label={t('common:nav.language')}
        value={language}
        onChange={(e) => setLanguage(e.currentTarget.value as Language).catch(fail)}
        options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
        minimal
        data-testid="language-select"
      />
      <Button
        variant="minimal"
        icon={darkTheme ? 'flash' : 'moon'}
        aria-label={darkTheme ? t('common:nav.lightTheme') : t('common:nav.darkTheme')}
        title={darkTheme ? t('common:nav.lightTheme') : t('common:nav.darkTheme')}
        onClick={() => setDarkTheme(!darkTheme).catch(fail)}
        data-testid="theme-toggle"
      />
    </>
  );
}

/**
 * The top navigation bar: brand, the user's sections, language and theme
 * switches, and the user menu (account settings, admin area, logout).
 */
export function TopNav() {
  const { t } = useTranslation();
  const { user } = useSession();
  const store = useSessionStore();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const isAdmin = user?.roles.includes('admin') ?? false;
  const displayName = user ? [user.firstname, user.lastname].filter(Boolean).join(' ') || user.email : '';

  return (
    <Navbar className="nu-topnav" fixedToTop>
      <NavbarGroup align={Alignment.START}>
        <NavbarHeading>
          <Link to={user ? ROUTES.user : ROUTES.auth_login} className="nu-brand" aria-label={t('common:nav.home')}>
            <span className="nu-brand__mark" aria-hidden="true" />
            Nuage
          </Link>
        </NavbarHeading>
        {user && (
          <>
            <NavbarDivider />
            <NavItem to={ROUTES.user} icon="projects">
              {t('common:nav.projects')}
            </NavItem>
            <NavItem to={ROUTES.user_subscription} icon="credit-card">
              {t('common:nav.subscription')}
            </NavItem>
            {isAdmin && (
              <NavItem to={ROUTES.admin} icon="shield">
                {t('common:nav.admin')}
              </NavItem>
            )}
          </>
        )}
      </NavbarGroup>
      <NavbarGroup align={Alignment.END}>
        <PreferenceSwitches />
        {(user || pathname !== ROUTES.auth_login) && <NavbarDivider />}
        {user ? (
          <Popover
            placement="bottom-end"
            content={
              <Menu aria-label={t('common:nav.userMenu')}>
                <MenuDivider title={user.email} />
                <MenuItem
                  icon="cog"
                  text={t('common:nav.accountSettings')}
                  onClick={() => navigate(ROUTES.user_settings)}
                />
                {isAdmin && (
                  <MenuItem icon="shield" text={t('common:nav.adminArea')} onClick={() => navigate(ROUTES.admin)} />
                )}
                <MenuDivider />
                <MenuItem icon="log-out" text={t('common:nav.logout')} onClick={() => void store.logout()} />
              </Menu>
            }
          >
            <Button variant="minimal" icon="user" endIcon="caret-down" data-testid="user-menu">
              {displayName}
            </Button>
          </Popover>
        ) : pathname === ROUTES.auth_login ? null : (
          <AnchorButton role="link" variant="minimal" icon="log-in" href={`#${ROUTES.auth_login}`}>
            {t('common:nav.login')}
          </AnchorButton>
        )}
      </NavbarGroup>
    </Navbar>
  );
}
