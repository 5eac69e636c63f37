// @vitest-environment happy-dom
import '../../../../../shared/src/ui/test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { MemberDto } from '@dealscout/shared/contracts';
import { UserActionDialogs } from './UserActionDialogs';

afterEach(cleanup);

const ADMIN: MemberDto = {
  id: 'u1',
  email: 'ada@acme.test',
  firstName: 'Ada',
  lastName: 'King',
  role: 'Admin',
  status: 'active',
  invitationAccepted: true,
  createdAt: '2026-01-01T00:00:00Z',
};
const ROLES = [
  { id: 'User' as const, name: 'User' },
  { id: 'Admin' as const, name: 'Admin' },
];

function renderDialog(roles: typeof ROLES) {
  return render(
    <FluentProvider theme={webLightTheme}>
      <QueryClientProvider client={new QueryClient()}>
        <UserActionDialogs action={{ kind: 'role', user: ADMIN }} onClose={vi.fn()} roles={roles} rolesError={null} />
      </QueryClientProvider>
    </FluentProvider>,
  );
}

describe('Change role dialog', () => {
  it("preselects the user's current role", () => {
    renderDialog(ROLES);
    const select = screen.getByTestId('change-role-select') as HTMLSelectElement;
    expect(select.value).toBe('Admin');
  });

  it('shows the current role even before the role list has loaded', () => {
    renderDialog([]);
    expect((screen.getByTestId('change-role-select') as HTMLSelectElement).value).toBe('Admin');
  });
});
