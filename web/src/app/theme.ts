import { Classes } from '@blueprintjs/core';
import { useSyncExternalStore } from 'react';

/** Browser storage key of the theme used before logging in. */
const STORAGE_KEY = 'nuage.darkTheme';

let dark = false;
const listeners = new Set<() => void>();

/** Applies Blueprint's dark theme to the whole page (portals included) and remembers it on this browser. */
export function applyTheme(next: boolean): void {
  dark = next;
  document.body.classList.toggle(Classes.DARK, next);
  document.documentElement.style.colorScheme = next ? 'dark' : 'light';
  try {
    localStorage.setItem(STORAGE_KEY, next ? '1' : '0');
  } catch {
    // Not remembered on this browser: the user's preference still applies after login.
  }
  for (const l of listeners) l();
}

/** The theme of this browser before login: the last one used, else the system preference. */
export function initialDarkTheme(): boolean {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored === '1' || stored === '0') return stored === '1';
  } catch {
    // Fall through to the system preference.
  }
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

/** Whether the dark theme is on; re-renders when it changes. */
export function useDarkTheme(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => dark,
  );
}
