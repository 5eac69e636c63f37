// The API client for shared components: each client (web, add-in, extension) provides its own
// instance (cookie session in the web app, bearer token in the add-in and the extension).
import { createContext, useContext, type ReactNode } from 'react';
import type { Api } from '../client';

const ApiContext = createContext<Api | null>(null);

export function ApiProvider({ api, children }: { api: Api; children: ReactNode }) {
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi() outside <ApiProvider>');
  return api;
}

/**
 * TanStack Query keys shared by every component, so that a save in one place refreshes the others:
 * invalidate ['companies'] after any company write, ['company', id] for its drawer, and so on.
 */
export const queryKeys = {
  companies: ['companies'] as const,
  companiesPage: (query: unknown) => ['companies', 'page', query] as const,
  /** The exact total of a search and filters (follows an estimated one). */
  companiesTotal: (query: unknown) => ['companies', 'total', query] as const,
  company: (id: string) => ['company', id] as const,
  contacts: ['contacts'] as const,
  contactsPage: (query: unknown) => ['contacts', 'page', query] as const,
  contactsTotal: (query: unknown) => ['contacts', 'total', query] as const,
  contact: (id: string) => ['contact', id] as const,
  fields: (entityType: 'company' | 'contact') => ['fields', entityType] as const,
  filterFields: (entityType: 'company' | 'contact') => ['filter-fields', entityType] as const,
  owners: ['owners'] as const,
  tableLayouts: (entityType: 'company' | 'contact') => ['table-layouts', entityType] as const,
  // Activities of a record (every filter of it lives under this prefix), notifications, executions:
  // the realtime provider (shared/src/ui/realtime) updates or invalidates these from events.
  activities: (entityType: 'company' | 'contact', id: string) => ['activities', entityType, id] as const,
  activitiesFiltered: (entityType: 'company' | 'contact', id: string, types: readonly string[]) =>
    ['activities', entityType, id, [...types]] as const,
  activityParticipant: (id: string) => ['activity-participant', id] as const,
  notifications: ['notifications'] as const,
  notificationList: ['notifications', 'list'] as const,
  unreadCount: ['notifications', 'unread-count'] as const,
  lists: ['lists'] as const,
  listsPage: (query: unknown) => ['lists', 'page', query] as const,
  list: (id: string) => ['lists', 'one', id] as const,
  ideas: (listId: string) => ['ideas', listId] as const,
  ideasPage: (listId: string, query: unknown) => ['ideas', listId, 'page', query] as const,
  executions: ['executions'] as const,
  execution: (id: string) => ['executions', id] as const,
};
