import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// shared/src is plain modules (components, hooks, schemas; top-level makeStyles() only builds
// hooks): telling the bundler so lets it leave out what the pane does not import through the
// '@dealscout/shared/ui' barrel and keep the lazy parts (pane/parts.ts, ComposeDraft) out of the
// first chunk. Without it every module behind the barrel lands in the entry chunk.
const SHARED_SRC = /[\\/]shared[\\/]src[\\/]/;

export default defineConfig({
  plugins: [react()],
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: { treeshake: { moduleSideEffects: [{ test: SHARED_SRC, sideEffects: false }] } },
  },
});
