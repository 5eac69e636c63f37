// The drawer's chunk (parts.ts: the record drawer, the mini drawer, the one-step create), asked for
// once: by the signed-in pane after its first view (app/App.tsx), and by Pane's lazy parts.
let parts: Promise<typeof import('./parts')> | null = null;
export const preloadPaneParts = () => (parts ??= import('./parts'));
