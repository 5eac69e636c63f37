import type { SortState } from '@dealscout/shared/ui';

/** Spec 002 §9: the company table sorts by name, ascending, by default. */
export const COMPANY_DEFAULT_SORT: SortState = { key: 'name', order: 'asc' };
/** The contact table opens unsorted (the server's order). */
export const CONTACT_DEFAULT_SORT: SortState | null = null;
