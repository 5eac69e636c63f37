import { z } from 'zod';
import { ROLES, USER_STATUSES } from '../domain/roles';

export const RoleSchema = z.enum(ROLES, { message: 'Role must be selected' });
export const UserStatusSchema = z.enum(USER_STATUSES);

export const UserDto = z.object({
  id: z.string(),
  organizationId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: RoleSchema,
  isAdmin: z.boolean(),
  status: UserStatusSchema,
  settings: z.record(z.string(), z.unknown()),
  calendar: z.record(z.string(), z.unknown()),
});
export type UserDto = z.infer<typeof UserDto>;

// GET /api/v1/user
export const GetUserResponse = z.object({ success: z.literal(true), user: UserDto });
export type GetUserResponse = z.infer<typeof GetUserResponse>;

// PUT /api/v1/user/settings — the user's config (spec 000 §3 'Local drawer config', version 4).
const DetailsGroups = z.object({
  contacts: z.boolean().optional(),
  companies: z.boolean().optional(),
  companyFields: z.boolean().optional(),
  contactFields: z.boolean().optional(),
  unassignedEnrichments: z.boolean().optional(),
}).strict();
// Unknown keys are refused at every level (not silently dropped).
const DrawerDetails = z.object({ details: z.object({ showGroups: DetailsGroups }).strict() }).strict();
export const UserSettingsBody = z.object({
  version: z.literal(4).optional(),
  navigationExpanded: z.boolean().optional(),
  drawer: z.object({
    visibility: z.enum(['NoDrawer', 'Collapsed', 'Visible']).optional(),
    tab: z.enum(['Activities', 'Details']).optional(),
    company: DrawerDetails.optional(),
    contact: DrawerDetails.optional(),
    idea: DrawerDetails.optional(),
  }).strict().optional(),
}).strict();
export type UserSettingsBody = z.infer<typeof UserSettingsBody>;
export const UserSettingsResponse = z.object({ success: z.literal(true), settings: z.record(z.string(), z.unknown()) });

// PUT /api/v1/user/profile
export const UpdateProfileBody = z.object({
  firstName: z.string().trim().min(1, 'First name is required').max(100),
  lastName: z.string().trim().min(1, 'Last name is required').max(100),
});
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;
