// The signed-in user's own changes: settings, name, calendar. Each one drops the user from the
// session cache (lib/session-cache.ts) so every process reads the change at once.
import type { EntityManager } from '@mikro-orm/postgresql';
import { migrateUserConfig, USER_CONFIG_VERSION } from '@dealscout/shared/domain';
import type { UpdateCalendarBody, UpdateProfileBody } from '@dealscout/shared/contracts';
import { User, type IUser } from './user.entity';
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

/** Saves part of the user's config over the rest (migrated to the current version); answers the whole config. */
export async function saveUserSettings(em: EntityManager, user: IUser, patch: Record<string, unknown>): Promise<Record<string, unknown>> {
  const current = migrateUserConfig(user.settings) as unknown as Record<string, unknown>;
  const next = { ...merge(current, patch), version: USER_CONFIG_VERSION };
  await em.nativeUpdate(User, { id: user.id }, { settings: next });
  forgetUser(user.id);
  return next;
}

export async function setProfile(em: EntityManager, user: IUser, body: UpdateProfileBody): Promise<IUser> {
  user.firstName = body.firstName;
  user.lastName = body.lastName;
  await em.flush();
  forgetUser(user.id);
  return user;
}

/** Replaces the three calendar keys; other calendar keys (set by other modules) stay. */
export async function setCalendar(em: EntityManager, user: IUser, body: UpdateCalendarBody): Promise<IUser> {
  user.calendar = { ...(user.calendar ?? {}), timezone: body.timezone, meetingLength: body.meetingLength, weeklyHours: body.weeklyHours };
  await em.flush();
  forgetUser(user.id);
  return user;
}
