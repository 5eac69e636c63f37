// Field definitions changed (a field created or reconfigured, its currency or the organization's
// default currency, an enrichment assigned to it or taken off it): every open table, drawer and
// Enrich popover of the organization re-reads the fields of that type ('Other users'
// changes'). Published on the record type's entities path (spec 002 §7 'Realtime access': the
// catalogue's paths include entities; fields belong to them), superseding older ones of the type.
import type { EntityManager } from '@mikro-orm/postgresql';
import { REALTIME_EVENT_KINDS } from '@dealscout/shared/contracts';
import { realtimePaths, type RecordEntityType } from '@dealscout/shared/domain';
import { publish } from '../realtime/publish';
import { forgetFields } from './field-cache';

export async function publishFieldsChanged(em: EntityManager, organizationId: string, entityTypes: readonly string[]): Promise<void> {
  const types = [...new Set(entityTypes)].filter((t): t is RecordEntityType => t === 'company' || t === 'contact');
  // This process's field cache drops them now (the trigger's announcement drops them everywhere at commit).
  forgetFields(em, organizationId);
  await publish(
    em,
    organizationId,
    types.map((entityType) => ({
      path: realtimePaths.entities(organizationId, entityType),
      kind: REALTIME_EVENT_KINDS.fieldsChanged,
      key: `fields:${entityType}`,
      data: { entityType },
    })),
  );
}
