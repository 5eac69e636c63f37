// The detail drawer: a chunk of its own, loaded once a page shows it (lazy-parts.tsx).
export { RecordDrawer } from '@dealscout/shared/ui';
