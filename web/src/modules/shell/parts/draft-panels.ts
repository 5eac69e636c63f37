// The floating draft panels: a chunk of their own, loaded once a draft is docked (lazy-parts.tsx).
export { DraftPanels } from '@dealscout/shared/ui';
