import { describe, expect, it } from 'vitest';
import { fileSize } from './project-metadata.js';

describe('point cloud size (spec §3, given in GB)', () => {
  it('reads in the unit that fits, localised', () => {
    expect(fileSize(0.000266595, 'en-US')).toBe('266.6 kB');
    expect(fileSize(0.0266, 'en-US')).toBe('26.6 MB');
    expect(fileSize(1.234, 'en-US')).toBe('1.23 GB');
    // French puts a no-break space between the figure and the unit.
    expect(fileSize(0.9, 'fr').replace(/\s/g, ' ')).toBe('900 Mo');
    expect(fileSize(12.5, 'fr').replace(/\s/g, ' ')).toBe('12,5 Go');
    expect(fileSize(null, 'en-US')).toBe('');
  });
});
