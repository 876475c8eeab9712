import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';
import type { SessionState, SessionStore } from './session-store.js';

const SessionContext = createContext<SessionStore | null>(null);

/** Makes the session store available to the tree. */
export function SessionProvider({ store, children }: { store: SessionStore; children: ReactNode }) {
  return <SessionContext.Provider value={store}>{children}</SessionContext.Provider>;
}

/** The session store (login, logout, setUser). */
export function useSessionStore(): SessionStore {
  const store = useContext(SessionContext);
  if (!store) throw new Error('useSessionStore outside SessionProvider');
  return store;
}

/** The session state; re-renders when it changes. */
export function useSession(): SessionState {
  const store = useSessionStore();
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}
