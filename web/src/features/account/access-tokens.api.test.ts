import { describe, expect, it } from 'vitest';
import { ogcApiUrl } from './access-tokens.api.js';

describe('the OGC API address shown for GIS tools', () => {
  it('sits next to the API, absolute', () => {
    expect(ogcApiUrl('/api', 'https://nuage.example')).toBe('https://nuage.example/ogc');
    expect(ogcApiUrl('/api/', 'http://localhost:8080')).toBe('http://localhost:8080/ogc');
    expect(ogcApiUrl('https://api.nuage.example/api', 'https://app.nuage.example')).toBe(
      'https://api.nuage.example/ogc',
    );
  });
});
