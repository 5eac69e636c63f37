// The drawer's chunk (parts.ts: the record drawer, the mini drawer, the one-step create), asked for
// once: by the signed-in pane after its first view (app/App.tsx), and by Pane's lazy parts.
import { chunk } from '../app/chunk';

export const paneParts = chunk(() => import('./parts'));
export const preloadPaneParts = () => paneParts.load();
