import { createApiClient } from './api-client.js';
import { apiBaseUrl } from './api-config.js';

/** The app's API client; the session store attaches itself at start-up. */
export const api = createApiClient({ baseUrl: apiBaseUrl() });
