// System roles (spec 000 §6): User is the default, Admin is the other.
export const ROLES = ['User', 'Admin'] as const;
export type Role = (typeof ROLES)[number];
export const DEFAULT_ROLE: Role = 'User';
export const USER_STATUSES = ['active', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
export const PRODUCT_NAME = 'Dealscout';
export const PUBLIC_TITLE = 'Intelligent M&A Decisions';
