import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from '../shared/src/build/precompress';
import { griffelExtract } from '../shared/src/build/griffelExtract';

const API = process.env.DEALSCOUT_API_URL ?? 'http://localhost:3000';
// shared/src is plain modules (components, hooks, schemas; top-level makeStyles() only builds hooks):
// telling the bundler so lets each page's chunk take only what it imports through the
// '@dealscout/shared/ui' barrel, instead of every module behind the barrel landing in the entry chunk.
const SHARED_SRC = /[\\/]shared[\\/]src[\\/]/;
const modules = (dir: string, names: string) => `${dir.replaceAll('/', '[\\\\/]')}[\\\\/](?:${names})\\.tsx?$`;
const SHELL_FIRST_VIEW = new RegExp(
  [
    modules('web/src/modules/shell', 'components/(?:AppShell|NavMenu|HeaderActions)|navigation|lazy-parts'),
    modules('shared/src/ui', 'notifications/NotificationBell|drafts/DraftsContext|server-message|realtime/[^/\\\\]+|DrawerContext'),
    modules('shared/src/ui', 'activities/MiniDrawerContext|crm/CrmSyncButton|crm/state|progress/RunProgress'),
    modules('shared/src/client', 'realtime'),
  ].join('|'),
);
const TABLE_FIRST_VIEW = new RegExp(
  [
    modules('shared/src/ui/table', 'EntityTable|RecordTable|layout|filterLabel|FilterEditor|FilterBar|ColumnsMenu|useTableLayout'),
    modules('shared/src/ui/table', 'columnSizing'),
    modules('shared/src/ui/enrichments', 'EnrichPopover|FieldResultCell|liveResults'),
    modules('web/src/modules/records', 'columns'),
  ].join('|'),
);

// The API server serves the built app same-origin; `vite dev` proxies the API to it.
export default defineConfig({
  // Fluent's compiled styles go into index.html's <head> at build time instead of being inserted rule by rule on first render.
  plugins: [react(), griffelExtract(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API, changeOrigin: false, ws: true },
      '/health': { target: API, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      treeshake: { moduleSideEffects: [{ test: SHARED_SRC, sideEffects: false }] },
      output: {
        // Pages are split by route (React.lazy); the framework code gets stable vendor chunks that
        // stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack)[\\/]/, priority: 3 },
            // Only Fluent's core (theme, styling engine, focus management) is shared by every page;
            // the components stay with the pages that use them.
            {
              name: 'fluent-core',
              test: new RegExp(
                'node_modules[\\\\/](@griffel|tabster|keyborg|stylis|rtl-css-js|@fluentui[\\\\/](tokens|react-theme|react-provider|' +
                  'react-utilities|react-shared-contexts|react-jsx-runtime|react-tabster|react-portal|react-positioning|react-motion|' +
                  'react-context-selector|keyboard-keys)|@floating-ui)[\\\\/]',
              ),
              priority: 2,
            },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 2 },
            // Fluent's components and the shared rules and contracts each in one chunk: split per page, they were
            // some 40 chunks of 1–15 kB that a first load fetched six at a time (HTTP/1.1), delaying the page's
            // data requests behind them; as two chunks a first load transfers less and its LCP comes 0.2–0.4 s sooner.
            { name: 'fluent', test: /node_modules[\\/]@fluentui[\\/]/, priority: 1 },
            { name: 'domain', test: /[\\/]shared[\\/]src[\\/]domain[\\/]/, priority: 1 },
            // The zod contracts load with the API client once the first view has shown (app/api.ts).
            { name: 'contracts', test: /[\\/]shared[\\/]src[\\/]contracts[\\/]/, priority: 1 },
            // What every signed-in page's first view loads beside its own chunk, as two chunks instead of some 25 of
            // 0.2–35 kB, which a first load (HTTP/1.1, six at a time) fetched in waves: the shell (frame, navigation,
            // header and the providers it renders), and the record tables (companies, contacts, a list's ideas). Named
            // module by module, their dependencies left where they were: a module the entry imports (areas.ts,
            // table/firstPage.ts, the API client) must stay out of them.
            { name: 'shell', test: SHELL_FIRST_VIEW, priority: 1, includeDependenciesRecursively: false },
            { name: 'table', test: TABLE_FIRST_VIEW, priority: 1, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
});
