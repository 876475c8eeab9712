// Worker thread entry of the tiler: registers the TypeScript loader (tsx), then runs tiler.worker.ts.
import { register } from 'tsx/esm/api';

register();
await import('./tiler.worker.ts');
