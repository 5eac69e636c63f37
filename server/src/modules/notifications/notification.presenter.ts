import type { NotificationDto } from '@dealscout/shared/contracts';
import type { NotificationLevel } from '@dealscout/shared/domain';

/** A notification row as raw SQL returns it. */
export interface NotificationRow {
  id: string;
  organization_id: string;
  user_id: string;
  level: string;
  unique_key: string | null;
  read: boolean;
  href: string | null;
  message: string;
  created_at: Date | string;
}

export function toNotificationDto(r: NotificationRow): NotificationDto {
  return {
    id: r.id,
    level: r.level as NotificationLevel,
    uniqueKey: r.unique_key,
    read: r.read,
    href: r.href,
    message: r.message,
    createdAt: new Date(r.created_at).toISOString(),
  };
}
