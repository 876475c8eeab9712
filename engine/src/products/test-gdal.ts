import { execFileSync } from 'node:child_process';

/** True when the GDAL command-line tools (the yardstick of terrain tests) are installed. */
export function hasGdal(): boolean {
  try {
    execFileSync('gdalinfo', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Runs a GDAL tool quietly and returns its standard output. */
export function gdal(tool: string, args: string[]): string {
  return execFileSync(tool, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
