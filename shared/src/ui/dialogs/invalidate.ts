// After a save, every view of the records it touched refreshes: tables (['companies'],
// ['contacts']), drawers (['company', id], ['contact', id]), pickers (['search', ...]).
import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../ApiContext';

export async function invalidateRecords(
  queryClient: QueryClient,
  what: {
    companies?: boolean;
    contacts?: boolean;
    companyIds?: readonly string[];
    contactIds?: readonly string[];
  },
): Promise<void> {
  const companyIds = what.companyIds ?? [];
  const contactIds = what.contactIds ?? [];
  const jobs: Promise<void>[] = [];
  if (what.companies !== false && (what.companies || companyIds.length > 0))
    jobs.push(queryClient.invalidateQueries({ queryKey: queryKeys.companies }));
  if (what.contacts || contactIds.length > 0) jobs.push(queryClient.invalidateQueries({ queryKey: queryKeys.contacts }));
  for (const id of companyIds) jobs.push(queryClient.invalidateQueries({ queryKey: queryKeys.company(id) }));
  for (const id of contactIds) jobs.push(queryClient.invalidateQueries({ queryKey: queryKeys.contact(id) }));
  jobs.push(queryClient.invalidateQueries({ queryKey: ['search'] }));
  await Promise.all(jobs);
}
