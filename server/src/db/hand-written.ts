// Schema objects MikroORM's entity metadata cannot express (expression, partial and trigram
// indexes). They are created by migrations; the schema-diff test expects exactly these as the only
// difference between the entities and the database.
export const HAND_WRITTEN_INDEXES = [
  'app_user_email_live_unique',
  'invitation_org_email_index',
  'company_org_domain_unique',
  'company_org_name_index',
  'company_org_created_index',
  'company_search_trgm',
  'contact_org_email_unique',
  'contact_org_name_index',
  'contact_org_created_index',
  'contact_search_trgm',
  'company_contact_org_company_index',
  'company_contact_one_key',
  'company_contact_one_primary',
  'field_value_org_num_index',
  'field_value_org_text_index',
  'field_value_org_bool_index',
  'field_value_text_trgm',
  'execution_org_idempotency_active_unique',
  'field_value_org_entity_index',
] as const;

// Triggers written by migrations (MikroORM would drop triggers its entities do not declare): the
// realtime fan-out (NOTIFY per event) and the announcements that close the sockets of a session
// that ended or a user who was disabled or deleted.
export const HAND_WRITTEN_TRIGGERS = [
  { table: 'realtime_event', name: 'realtime_event_notify' },
  { table: 'session', name: 'session_revoked_notify' },
  { table: 'session', name: 'session_deleted_notify' },
  { table: 'app_user', name: 'app_user_disabled_notify' },
  // record_count, the maintained totals of the companies and contacts tables (Migration20261122050000).
  // Their `{table}_count_truncate` triggers exist too, but MikroORM does not see TRUNCATE triggers.
  ...(['company', 'contact'] as const).flatMap((table) => (['insert', 'delete', 'update'] as const).map((t) => ({ table, name: `${table}_count_${t}` }))),
] as const;
