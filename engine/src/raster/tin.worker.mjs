// Worker thread of the banded TIN rasterizer (see tin-parallel.ts): loads the
// TypeScript sources as plain JavaScript (core/worker-bundle.mjs, tsx when no
// bundle can be built), then serves bands (exact ones when the task holds shared coordinates).
import { importCompiled } from '../core/worker-bundle.mjs';

const {
  modules: [{ rasterizeTinBand, rasterizeTinBandExact }],
} = await importCompiled(import.meta.url, ['./tin-band.task.ts']);

export default (task) => ('coords' in task ? rasterizeTinBandExact(task) : rasterizeTinBand(task));
