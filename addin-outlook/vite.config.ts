import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from '../shared/src/build/precompress';

// shared/src is plain modules (components, hooks, schemas; top-level makeStyles() only builds
// hooks): telling the bundler so lets it leave out what the pane does not import through the
// '@dealscout/shared/ui' barrel and keep the lazy parts (pane/parts.ts, ComposeDraft) out of the
// first chunk. Without it every module behind the barrel lands in the entry chunk.
const SHARED_SRC = /[\\/]shared[\\/]src[\\/]/;

export default defineConfig({
  plugins: [react(), precompress()],
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      treeshake: { moduleSideEffects: [{ test: SHARED_SRC, sideEffects: false }] },
      // Named chunks for what every load runs and no lazy part changes (react-dom is most of the
      // first chunk; zod is the API client's response schemas), so a new build of the pane's own
      // code leaves them cached. The rest is split automatically along the lazy imports.
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ },
          ],
        },
      },
    },
  },
});
