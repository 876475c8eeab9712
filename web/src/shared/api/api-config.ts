/** Runtime configuration a deployment may inject before the bundle (`window.NUAGE_CONFIG`). */
interface RuntimeConfig {
  apiBaseUrl?: string;
}

/**
 * Base address of the API: runtime config first, then the build-time
 * environment (`VITE_API_BASE_URL`), then `/api` on the origin that served the app.
 */
export function apiBaseUrl(): string {
  const runtime = (globalThis as { NUAGE_CONFIG?: RuntimeConfig }).NUAGE_CONFIG?.apiBaseUrl;
  const env = (import.meta as { env?: Record<string, string | undefined> }).env?.VITE_API_BASE_URL;
  return runtime || env || '/api';
}
