import type { ActivityDto } from '@dealscout/shared/contracts';
import { activityGroup, canEditActivity, type ActivityType, type ActivitySource, type ActivityStatus } from '@dealscout/shared/domain';
import type { IActivity } from './activity.entity';

/** `today` (YYYY-MM-DD) decides the group: 'Upcoming', 'Recent' or the month. */
export function toActivityDto(a: IActivity, today: string): ActivityDto {
  return {
    id: a.id,
    type: a.type as ActivityType,
    group: activityGroup({ date: a.date, status: a.status }, today),
    title: a.title ?? null,
    date: a.date,
    dueDate: a.dueDate ? a.dueDate.toISOString() : null,
    status: (a.status ?? null) as ActivityStatus | null,
    source: a.source as ActivitySource,
    sourceId: a.sourceId ?? null,
    content: a.content,
    subject: a.subject ?? null,
    to: a.to ?? null,
    others: a.others ?? [],
    by: a.by ?? null,
    followUp: a.followUp,
    errorMessage: a.errorMessage ?? null,
    repliedAt: a.repliedAt ? a.repliedAt.toISOString() : null,
    companyId: a.company?.id ?? null,
    contactId: a.contact?.id ?? null,
    createdById: a.createdBy?.id ?? null,
    editable: canEditActivity(a),
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}
