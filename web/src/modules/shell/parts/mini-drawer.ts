// The mini drawer (Log Activity / Run Play): a chunk of its own, loaded once opened (lazy-parts.tsx).
export { MiniDrawer } from '@dealscout/shared/ui';
