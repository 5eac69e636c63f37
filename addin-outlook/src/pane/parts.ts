// The pane's parts that are not needed for its first paint — the shared record drawer (its tabs,
// sections, dialogs, pickers and enrichment editors), the mini drawer (Log Activity, Run Play) and
// the one-step create — in a chunk of their own (see Pane.tsx's lazy() and vite.config.ts). The
// chunk starts loading once the signed-in pane's first view has shown (parts-loader.ts), beside
// the connected chunk.
export { MiniDrawer, RecordDrawer } from '@dealscout/shared/ui';
export { NewContactFromEmail } from './NewContactFromEmail';
