import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { updateCurrentUser } from '../features/account/account.api.js';
import type { Language } from '../shared/api/types.js';
import { normalizeLanguage, rememberLanguage } from './i18n.js';
import { useSession, useSessionStore } from './session-context.js';
import { applyTheme, useDarkTheme } from './theme.js';

/**
 * Language and theme switches: applied at once, remembered on this browser,
 * and stored on the user (PATCH /users/current) when logged in.
 */
export function usePreferences() {
  const store = useSessionStore();
  const { user } = useSession();
  const { i18n } = useTranslation();
  const loggedIn = user !== null;
  const darkTheme = useDarkTheme();

  const setLanguage = useCallback(
    async (lang: Language) => {
      rememberLanguage(lang);
      await i18n.changeLanguage(lang);
      if (loggedIn) store.setUser(await updateCurrentUser({ preferLanguage: lang }));
    },
    [i18n, loggedIn, store],
  );

  const setDarkTheme = useCallback(
    async (dark: boolean) => {
      applyTheme(dark);
      if (loggedIn) store.setUser(await updateCurrentUser({ preferDarkTheme: dark }));
    },
    [loggedIn, store],
  );

  return {
    language: normalizeLanguage(i18n.resolvedLanguage ?? i18n.language),
    darkTheme,
    setLanguage,
    setDarkTheme,
  };
}

/** After a login, the user's stored language and theme replace the browser's (spec §1). */
export function ApplyUserPreferences() {
  const { user } = useSession();
  const { i18n } = useTranslation();
  const appliedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!user) {
      appliedFor.current = null;
      return;
    }
    if (appliedFor.current === user.id) return;
    appliedFor.current = user.id;
    const lang = normalizeLanguage(user.preferLanguage);
    rememberLanguage(lang);
    if (i18n.language !== lang) void i18n.changeLanguage(lang);
    applyTheme(Boolean(user.preferDarkTheme));
  }, [user, i18n]);
  return null;
}
