import { describe, it, expect } from 'vitest';
import { ROLES, DEFAULT_ROLE, USER_STATUSES } from './roles';

describe('system roles (spec 000 §6)', () => {
  it('are User (the default) and Admin', () => {
    expect([...ROLES]).toEqual(['User', 'Admin']);
    expect(DEFAULT_ROLE).toBe('User');
  });

  it('user statuses are active and disabled', () => {
    expect([...USER_STATUSES]).toEqual(['active', 'disabled']);
  });
});
