// Worker thread of the banded TIN rasterizer (see tin-parallel.ts): registers
// tsx so the TypeScript sources run directly, then serves bands.
import { register } from 'tsx/esm/api';

register();
const { rasterizeTinBand } = await import('./tin-band.task.ts');

export default rasterizeTinBand;
