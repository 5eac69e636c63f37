import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  GetUserResponse,
  UserSettingsBody,
  UserSettingsResponse,
  UpdateProfileBody,
  UpdateCalendarBody,
} from '@dealscout/shared/contracts';
import { toUserDto } from './user.presenter';
import { setCalendar, setProfile, saveUserSettings } from './users.service';
import { authOf } from '../../plugins/types';

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
      const settings = await saveUserSettings(req.em, authOf(req).user, req.body as Record<string, unknown>);
      return { success: true as const, settings };
    },
  );

  r.put(
    '/user/profile',
    {
      schema: { tags: ['user'], summary: "Change the user's name", body: UpdateProfileBody, response: { 200: GetUserResponse } },
    },
    async (req) => {
      const user = await setProfile(req.em, authOf(req).user, req.body);
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
      const user = await setCalendar(req.em, authOf(req).user, req.body);
      return { success: true as const, user: toUserDto(user) };
    },
  );
}
