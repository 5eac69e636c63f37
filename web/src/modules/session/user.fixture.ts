// The signed-in user the session tests answer with.
import type { UserDto } from '@dealscout/shared/contracts';

export const USER: UserDto = {
  id: 'u1',
  organizationId: 'o1',
  email: 'ada@acme.test',
  firstName: 'Ada',
  lastName: 'Admin',
  role: 'Admin',
  isAdmin: true,
  status: 'active',
  settings: {},
  calendar: {},
};
