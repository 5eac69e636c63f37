import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  GetUserResponse,
  UserSettingsBody,
  UserSettingsResponse,
  UpdateProfileBody,
  UpdateCalendarBody,
} from '@dealscout/shared/contracts';
import { migrateUserConfig, USER_CONFIG_VERSION } from '@dealscout/shared/domain';
import { User } from './user.entity';
import { toUserDto } from './user.presenter';
import { authOf } from '../../plugins/types';
import { forgetUser } from '../../lib/session-cache';

/** Deep merge of plain objects: a settings PUT changes the keys it names and keeps the rest. */
function merge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    const cur = out[k];
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && cur && typeof cur === 'object' && !Array.isArray(cur)
        ? merge(cur as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

export async function userRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/user',
    {
      schema: { tags: ['user'], summary: 'The signed-in user (401 when signed out)', response: { 200: GetUserResponse } },
    },
    async (req) => ({ success: true as const, user: toUserDto(authOf(req).user) }),
  );

  r.put(
    '/user/settings',
    {
      schema: {
        tags: ['user'],
        summary: "Save part of the user's config (navigation, drawer state; version 4)",
        body: UserSettingsBody,
        response: { 200: UserSettingsResponse },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const current = migrateUserConfig(user.settings) as unknown as Record<string, unknown>;
      const next = { ...merge(current, req.body as Record<string, unknown>), version: USER_CONFIG_VERSION };
      await req.em.nativeUpdate(User, { id: user.id }, { settings: next });
      forgetUser(user.id);
      return { success: true as const, settings: next };
    },
  );

  r.put(
    '/user/profile',
    {
      schema: { tags: ['user'], summary: "Change the user's name", body: UpdateProfileBody, response: { 200: GetUserResponse } },
    },
    async (req) => {
      const { user } = authOf(req);
      user.firstName = req.body.firstName;
      user.lastName = req.body.lastName;
      await req.em.flush();
      forgetUser(user.id);
      return { success: true as const, user: toUserDto(user) };
    },
  );

  r.put(
    '/user/calendar',
    {
      schema: {
        tags: ['user'],
        summary: "The user's calendar: time zone, meeting length (30 by default) and weekly hours",
        body: UpdateCalendarBody,
        response: { 200: GetUserResponse },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      // Replaces the three keys; other calendar keys (set by other modules) stay.
      user.calendar = {
        ...(user.calendar ?? {}),
        timezone: req.body.timezone,
        meetingLength: req.body.meetingLength,
        weeklyHours: req.body.weeklyHours,
      };
      await req.em.flush();
      forgetUser(user.id);
      return { success: true as const, user: toUserDto(user) };
    },
  );
}
