// WXT builds the MV3 extension into .output/chrome-mv3 (and a zip beside it with `wxt zip`).
// Everything is bundled: no remote code. Auto-imports are off so every module says what it uses.
import { defineConfig } from 'wxt';
import extensionKey from './extension-key.json' with { type: 'json' };

// shared/src is plain modules (components, hooks, schemas; top-level makeStyles() only builds hooks):
// telling the bundler so lets the side panel's first chunk take only what it imports through the
// '@dealscout/shared/ui' barrel, and its lazy parts (the record view, the sign-in form, the mini
// drawer) split off. Without it every module behind the barrel lands in the first chunk.
const SHARED_SRC = /[\\/]shared[\\/]src[\\/]/;

export default defineConfig({
  srcDir: 'src',
  outDir: '.output',
  modules: ['@wxt-dev/module-react'],
  imports: false,
  vite: () => ({
    build: { rolldownOptions: { treeshake: { moduleSideEffects: [{ test: SHARED_SRC, sideEffects: false }] } } },
  }),
  // `wxt zip` builds .output/chrome-mv3 (load it unpacked) and zips it for the store.
  zip: { artifactTemplate: 'dealscout-{{version}}-{{browser}}.zip' },
  manifest: {
    name: 'Dealscout',
    description: 'Research and enrich the company on the CRM or LinkedIn page in front of you.',
    // A fixed public key keeps the unpacked extension's id stable (see extension-key.json and
    // docs/ARCHITECTURE.md 'Chrome side panel'): the server's CORS admits exactly this id.
    key: extensionKey.key,
    permissions: ['storage', 'sidePanel'],
    // No host permissions: the content scripts' own matches (src/extract/sites.ts) are the only
    // pages read, and the Dealscout server is reached through its CORS.
    action: { default_title: 'Open Dealscout' },
  },
});
