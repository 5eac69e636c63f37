import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../app/api';

export const ORG_KEY = ['organization'] as const;

export function useOrganization(enabled: boolean) {
  return useQuery({ queryKey: [...ORG_KEY, 'details'], queryFn: async () => (await api.organization.get()).organization, enabled });
}

export function useOrganizationUsers(enabled: boolean) {
  return useQuery({ queryKey: [...ORG_KEY, 'users'], queryFn: () => api.organization.users(), enabled });
}

export function useSystemRoles(enabled: boolean) {
  return useQuery({
    queryKey: [...ORG_KEY, 'roles'],
    queryFn: async () => (await api.organization.systemRoles()).roles,
    enabled,
    staleTime: 5 * 60_000,
  });
}

/** After any change to users or invitations: the table and the seat counter reload. */
export function useInvalidateOrganization() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ORG_KEY });
}
