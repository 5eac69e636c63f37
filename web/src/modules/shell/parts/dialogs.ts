// The New dialogs (company, contact, field): a chunk of their own, loaded once one opens (lazy-parts.tsx).
export { CompanyDialog, ContactDialog, NewFieldDialog } from '@dealscout/shared/ui';
