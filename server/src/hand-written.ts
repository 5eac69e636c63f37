import { NUM_SLOTS, TEXT_SLOTS } from './modules/fields/projection';

const SLOT_COLUMNS = [
  ...Array.from({ length: NUM_SLOTS }, (_, i) => `num_${i + 1}`),
  ...Array.from({ length: TEXT_SLOTS }, (_, i) => `txt_${i + 1}`),
];

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
  'company_contact_one_key',
  'company_contact_one_primary',
  'field_value_org_num_index',
  'field_value_org_text_index',
  'field_value_org_bool_index',
  'field_value_text_trgm',
  'execution_org_idempotency_active_unique',
  'field_value_org_entity_index',
  // The typed slots of custom values (Migration20261122172000, fields/projection.ts): one partial index per slot.
  'field_definition_org_slot_unique',
  ...(['company', 'contact'] as const).flatMap((table) => SLOT_COLUMNS.map((c) => `${table}_${c}_index`)),
  // The key contact / primary company sorts (Migration20261122220100).
  'company_org_key_contact_sort_index',
  'contact_org_primary_company_sort_index',
  // The Website (companies) and First name (contacts) sorts (Migration20261122233000).
  'company_org_website_index',
  'contact_org_first_name_index',
  // The owner sorts (Migration20261122234000).
  'company_org_owner_index',
  'contact_org_owner_index',
  // Lists of ideas (Migration20261126210000): the search and the paging walks of one list.
  'idea_org_list_created_index',
  'idea_org_list_name_index',
  // An idea's company, for the ideas that have one (Migration20261129150000, partial).
  'idea_org_company_linked_index',
  // One active send per email (Migration20261126180000, partial).
  'email_outbox_org_email_active_unique',
  // One active or sent row per send slot of a mailbox (Migration20261127100000, partial).
  'email_outbox_org_owner_slot_unique',
  // The unfinished executions by type and state, for GET /metrics (Migration20261129073000, partial).
  'execution_active_type_status_index',
] as const;

/**
 * Columns MikroORM's entities do not declare: the slot columns of company and contact and their
 * generated filled_mask (read and written only through SQL: fields/projection.ts, field-values.ts),
 * the generated search_text the table search matches (Migration20261122210000, records/table-query.ts),
 * and the trigger-kept sort texts of the key contact and the primary company (Migration20261122220100).
 */
export const HAND_WRITTEN_COLUMNS = [
  ...(['company', 'contact'] as const).flatMap((table) =>
    [...SLOT_COLUMNS, 'filled_mask', 'search_text'].map((column) => ({ table, column })),
  ),
  { table: 'company', column: 'key_contact_sort' },
  { table: 'contact', column: 'primary_company_sort' },
  { table: 'idea', column: 'search_text' },
] as const;

// Triggers written by migrations (MikroORM would drop triggers its entities do not declare): the
// realtime fan-out (NOTIFY per event) and the announcements that close the sockets of a session
// that ended or a user who was disabled or deleted.
export const HAND_WRITTEN_TRIGGERS = [
  { table: 'realtime_event', name: 'realtime_event_notify' },
  // Numbers a publish()'s events as its transaction commits (Migration20261129170000, a constraint trigger).
  { table: 'realtime_pending', name: 'realtime_pending_sequence' },
  { table: 'session', name: 'session_revoked_notify' },
  { table: 'session', name: 'session_deleted_notify' },
  { table: 'app_user', name: 'app_user_disabled_notify' },
  // A user's row changed: the session caches drop it (Migration20261129120000).
  { table: 'app_user', name: 'app_user_changed_notify' },
  // A field definition changed: the field caches drop the organization's fields (Migration20261129180000).
  { table: 'field_definition', name: 'field_definition_changed' },
  // Deleted ideas take their scoring results with them (Migration20261130060000: idea_score has no foreign key to idea).
  { table: 'idea', name: 'idea_score_cascade' },
  // Deleted models take their scoring results with them (Migration20261130090000: idea_score has no foreign key to scoring_model).
  { table: 'scoring_model', name: 'idea_score_cascade' },
  // record_count, the maintained totals of the companies and contacts tables (Migration20261122050000).
  // Their `{table}_count_truncate` triggers exist too, but MikroORM does not see TRUNCATE triggers.
  ...(['company', 'contact'] as const).flatMap((table) =>
    (['insert', 'delete', 'update'] as const).map((t) => ({ table, name: `${table}_count_${t}` })),
  ),
  // record_count rows per filled slot (Migration20261122172000).
  ...(['company', 'contact'] as const).flatMap((table) =>
    (['insert', 'delete', 'update'] as const).map((t) => ({ table, name: `${table}_slots_${t}` })),
  ),
  // The key contact / primary company sort texts (Migration20261122220100; on company_contact one
  // statement trigger per event since Migration20261128100000).
  ...(['insert', 'delete', 'update'] as const).map((t) => ({ table: 'company_contact', name: `company_contact_sort_${t}` })),
  { table: 'contact', name: 'contact_key_sort' },
  { table: 'company', name: 'company_primary_sort' },
  // Their filled counts in record_count, slot 0 (Migration20261122220200).
  ...(['company', 'contact'] as const).flatMap((table) =>
    (['insert', 'delete', 'update'] as const).map((t) => ({ table, name: `${table}_link_count_${t}` })),
  ),
  // The number of records per owner in record_count, slot -1 (Migration20261122234000).
  ...(['company', 'contact'] as const).flatMap((table) =>
    (['insert', 'delete', 'update'] as const).map((t) => ({ table, name: `${table}_owner_count_${t}` })),
  ),
] as const;

/**
 * References between tenant tables as (organization_id, column) → target (organization_id, id)
 * (Migration20261125230500): a row can only point at a row of its own organization. MikroORM's
 * entities declare them on the column alone; the schema-diff test expects exactly the statements
 * that would turn each back into that.
 */
export const HAND_WRITTEN_FOREIGN_KEYS: readonly {
  table: string;
  column: string;
  target: string;
  onDelete: 'no action' | 'cascade' | 'set null';
}[] = [
  { table: 'session', column: 'user_id', target: 'app_user', onDelete: 'no action' },
  { table: 'password_reset', column: 'user_id', target: 'app_user', onDelete: 'no action' },
  { table: 'invitation', column: 'invited_by_id', target: 'app_user', onDelete: 'set null' },
  { table: 'table_layout', column: 'user_id', target: 'app_user', onDelete: 'cascade' },
  { table: 'field_definition', column: 'created_by_id', target: 'app_user', onDelete: 'set null' },
  { table: 'field_value', column: 'field_id', target: 'field_definition', onDelete: 'cascade' },
  { table: 'contact', column: 'created_by_id', target: 'app_user', onDelete: 'set null' },
  { table: 'contact', column: 'owner_id', target: 'app_user', onDelete: 'set null' },
  { table: 'company', column: 'created_by_id', target: 'app_user', onDelete: 'set null' },
  { table: 'company', column: 'owner_id', target: 'app_user', onDelete: 'set null' },
  { table: 'company_contact', column: 'company_id', target: 'company', onDelete: 'cascade' },
  { table: 'company_contact', column: 'contact_id', target: 'contact', onDelete: 'cascade' },
  { table: 'notification', column: 'user_id', target: 'app_user', onDelete: 'cascade' },
  { table: 'execution', column: 'created_by_id', target: 'app_user', onDelete: 'set null' },
  { table: 'activity', column: 'company_id', target: 'company', onDelete: 'set null' },
  { table: 'activity', column: 'contact_id', target: 'contact', onDelete: 'set null' },
  { table: 'activity', column: 'created_by_id', target: 'app_user', onDelete: 'set null' },
  // Migration20261126000000: the side panel's and the plays' tables.
  { table: 'crm_link', column: 'company_id', target: 'company', onDelete: 'cascade' },
  { table: 'crm_link', column: 'contact_id', target: 'contact', onDelete: 'cascade' },
  { table: 'play_draft', column: 'user_id', target: 'app_user', onDelete: 'cascade' },
  { table: 'play', column: 'created_by_id', target: 'app_user', onDelete: 'set null' },
  { table: 'channel_email', column: 'owner_id', target: 'app_user', onDelete: 'cascade' },
  // Migration20261126230000: a user's CRM user.
  { table: 'crm_user_link', column: 'user_id', target: 'app_user', onDelete: 'cascade' },
  { table: 'integration', column: 'created_by_id', target: 'app_user', onDelete: 'set null' },
  { table: 'integration', column: 'user_id', target: 'app_user', onDelete: 'cascade' },
  { table: 'enrichment', column: 'created_by_id', target: 'app_user', onDelete: 'set null' },
  { table: 'enrichment', column: 'field_id', target: 'field_definition', onDelete: 'set null' },
  { table: 'enrichment_result', column: 'enrichment_id', target: 'enrichment', onDelete: 'cascade' },
  // Migration20261126210000: lists of ideas.
  { table: 'list_company', column: 'created_by_id', target: 'app_user', onDelete: 'set null' },
  { table: 'list_source', column: 'list_id', target: 'list_company', onDelete: 'cascade' },
  { table: 'list_source', column: 'created_by_id', target: 'app_user', onDelete: 'set null' },
  { table: 'idea', column: 'list_id', target: 'list_company', onDelete: 'cascade' },
  { table: 'idea', column: 'company_id', target: 'company', onDelete: 'set null' },
  // Migration20261126220000: scoring models and score runs.
  { table: 'scoring_model', column: 'list_id', target: 'list_company', onDelete: 'cascade' },
  { table: 'scoring_model', column: 'created_by_id', target: 'app_user', onDelete: 'set null' },
  { table: 'score_run', column: 'model_id', target: 'scoring_model', onDelete: 'cascade' },
  { table: 'score_run', column: 'list_id', target: 'list_company', onDelete: 'cascade' },
  { table: 'list_source_rejection', column: 'source_id', target: 'list_source', onDelete: 'cascade' },
];

/**
 * Tenant tables whose primary key is (id, organization_id) in the database (Migration20261129083000,
 * ready to distribute by organization: docs/CITUS.md) while their entity's identifier stays `id`.
 * The schema-diff test expects exactly the statements that would turn each back into (id). A new
 * tenant table gets the same key in its migration and joins this list (citus.test.ts fails until it does).
 */
export const HAND_WRITTEN_PRIMARY_KEYS = [
  'activity',
  'app_user',
  'channel_email',
  'company',
  'company_contact',
  'contact',
  'crm_activity_push',
  'crm_link',
  'crm_push_job',
  'crm_sync_change',
  'crm_sync_settings',
  'crm_sync_state',
  'crm_user_link',
  'email_outbox',
  'enrichment',
  'enrichment_result',
  'execution',
  'execution_run',
  'field_definition',
  'field_value',
  'idea',
  'integration',
  'invitation',
  'list_company',
  'list_source',
  'list_source_rejection',
  'llm_charge',
  'mailbox_sync',
  'notification',
  'oauth_authorization',
  'password_reset',
  'play',
  'play_draft',
  'realtime_event',
  'realtime_pending',
  'record_count',
  'score_run',
  'scoring_model',
  'session',
  'system_mail',
  'table_layout',
] as const;

/**
 * Tenant tables without their own foreign key to organization (Migration20261129110000): written in
 * bulk, each row references a parent of its organization through a required (organization_id, …)
 * key, which proves the organization exists, or through the references of HAND_WRITTEN_TRIGGER_REFERENCES.
 * The schema-diff test expects exactly the statements that would add each back.
 */
export const HAND_WRITTEN_DROPPED_ORGANIZATION_KEYS = [
  'idea',
  'idea_score',
  'enrichment_result',
  'company_contact',
  'field_value',
  'list_source_rejection',
] as const;

/**
 * Required references kept by a statement trigger on the parent instead of a foreign key, whose check
 * cost a query per written row (idea_score: Migration20261130060000, Migration20261130090000). Every writer
 * of the table writes a row only for parents its statement reads within the row's organization, under an
 * advisory lock the trigger takes exclusively before it deletes the rows of deleted parents (SCORE_LIST_LOCK,
 * server/src/modules/scoring/scoring.service.ts): a delete waits for the writers in flight, and a later writer
 * no longer finds the parent. The parent's own key to its organization proves the row's (tenancy.test.ts);
 * scoring.test.ts checks the writers and the triggers.
 */
export const HAND_WRITTEN_TRIGGER_REFERENCES = [
  { table: 'idea_score', column: 'idea_id', target: 'idea', trigger: 'idea_score_cascade' },
  { table: 'idea_score', column: 'model_id', target: 'scoring_model', trigger: 'idea_score_cascade' },
] as const;
