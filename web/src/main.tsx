import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/icons/lib/css/blueprint-icons.css';
import '@blueprintjs/table/lib/css/table.css';
import './app/app.css';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { createI18n, initialLanguage } from './app/i18n.js';
import { SessionStore } from './app/session-store.js';
import { applyTheme, initialDarkTheme } from './app/theme.js';
import { api } from './shared/api/api.js';

applyTheme(initialDarkTheme());
const store = new SessionStore(api);
// The renewal runs while the translations load; guards wait for its answer.
void store.start();
const i18n = await createI18n(initialLanguage());
createRoot(document.getElementById('root')!).render(<App store={store} i18n={i18n} />);
