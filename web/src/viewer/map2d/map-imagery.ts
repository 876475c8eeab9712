import type { ImageryOptions, ImageryProblem, WorldImagery } from '../scene.types.js';

/** IGN Géoplateforme orthophotos as XYZ tiles (Web Mercator "PM" matrix set), open without a key. */
export const IGN_TILES =
  'https://data.geopf.fr/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=ORTHOIMAGERY.ORTHOPHOTOS&STYLE=normal&TILEMATRIXSET=PM&FORMAT=image/jpeg&TILEMATRIX={z}&TILEROW={y}&TILECOL={x}';

/** A raster source of world imagery for MapLibre. */
export interface WorldSource {
  tiles: string[];
  attribution: string;
  maxzoom: number;
}

/** A world imagery that cannot be shown on the map, with its reason. */
export class MapImageryUnavailable extends Error {
  constructor(
    readonly problem: ImageryProblem,
    message: string,
  ) {
    super(message);
  }
}

/** What Bing Maps' imagery metadata answers (the parts used here). */
interface BingMetadata {
  resourceSets?: Array<{
    resources?: Array<{ imageUrl?: string; imageUrlSubdomains?: string[]; zoomMax?: number }>;
  }>;
}

/**
 * The tile URLs of a Bing Maps imagery metadata answer: its `imageUrl`
 * template once per subdomain, with MapLibre's `{quadkey}`.
 *
 * @example
 * bingTiles({ resourceSets: [{ resources: [{ imageUrl: 'https://ecn.{subdomain}.t/a{quadkey}.jpeg', imageUrlSubdomains: ['t0'] }] }] })
 * // { tiles: ['https://ecn.t0.t/a{quadkey}.jpeg'], attribution: '© Microsoft', maxzoom: 19 }
 */
export function bingTiles(metadata: BingMetadata): WorldSource {
  const resource = metadata.resourceSets?.[0]?.resources?.[0];
  const template = resource?.imageUrl;
  if (!template) throw new MapImageryUnavailable('unreachable', 'Bing Maps answered without an imagery URL');
  const subdomains = resource.imageUrlSubdomains?.length ? resource.imageUrlSubdomains : [''];
  const https = template.replace(/^http:/, 'https:');
  return {
    tiles: subdomains.map((s) => https.replace('{subdomain}', s).replace('{culture}', '')),
    attribution: '© Microsoft',
    maxzoom: resource.zoomMax ?? 19,
  };
}

async function fetchJson(url: string, fetcher: typeof fetch): Promise<unknown> {
  let res: Response;
  try {
    res = await fetcher(url);
  } catch (err) {
    throw new MapImageryUnavailable('unreachable', (err as Error).message);
  }
  if (!res.ok) throw new MapImageryUnavailable('unreachable', `${new URL(url).host}: HTTP ${res.status}`);
  return res.json();
}

async function bingSource(key: string, fetcher: typeof fetch): Promise<WorldSource> {
  const url = `https://dev.virtualearth.net/REST/v1/Imagery/Metadata/Aerial?uriScheme=https&include=ImageryProviders&key=${encodeURIComponent(key)}`;
  return bingTiles((await fetchJson(url, fetcher)) as BingMetadata);
}

/**
 * The map's source of a world imagery choice, null for "none" (the plain
 * background). Bing reads its tile template from its metadata service;
 * Cesium world imagery (ion asset 2) is Bing aerial behind an ion endpoint.
 * Throws {@link MapImageryUnavailable} without a key or without an answer.
 */
export async function worldSource(
  choice: WorldImagery,
  keys: Pick<ImageryOptions, 'cesiumIonToken' | 'bingMapsKey'>,
  fetcher: typeof fetch = (input, init) => fetch(input, init),
): Promise<WorldSource | null> {
  switch (choice) {
    case 'none':
      return null;
    case 'ign':
      return { tiles: [IGN_TILES], attribution: 'IGN-F/Géoportail', maxzoom: 19 };
    case 'bing':
      if (!keys.bingMapsKey) throw new MapImageryUnavailable('missingKey', 'no Bing Maps key is configured');
      return bingSource(keys.bingMapsKey, fetcher);
    case 'cesium': {
      if (!keys.cesiumIonToken) throw new MapImageryUnavailable('missingKey', 'no Cesium ion token is configured');
      const endpoint = (await fetchJson(
        `https://api.cesium.com/v1/assets/2/endpoint?access_token=${encodeURIComponent(keys.cesiumIonToken)}`,
        fetcher,
      )) as { externalType?: string; options?: { key?: string } };
      if (endpoint.externalType !== 'BING' || !endpoint.options?.key) {
        throw new MapImageryUnavailable('unsupported', `Cesium ion asset 2 is ${endpoint.externalType ?? 'unknown'}`);
      }
      return bingSource(endpoint.options.key, fetcher);
    }
  }
}
