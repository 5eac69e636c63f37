import { Migration } from '@mikro-orm/migrations';

// Ready to distribute by organization (Citus, docs/CITUS.md): the primary key of every tenant table
// includes organization_id — (id, organization_id): the random id first, so a lookup by id alone
// (MikroORM's updates and deletes by primary key) still finds its row in the key's own index. The
// (organization_id, id) uniques that foreign keys between tenant tables point at stay as they are.
// realtime_sequence's key is organization_id already.
//
// Not for a rolling restart: the release before this one creates an execution run with
// `on conflict (id)` and groups a run's progress by `r.id` alone, which both need the key (id). Stop
// every process of the previous release before this migration runs (this release names
// (id, organization_id) in both).
const TABLES = [
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
  'idea_score',
  'integration',
  'invitation',
  'list_company',
  'list_source',
  'list_source_rejection',
  'llm_charge',
  'mailbox_sync',
  'notification',
  'password_reset',
  'play',
  'play_draft',
  'realtime_event',
  'record_count',
  'score_run',
  'scoring_model',
  'session',
  'system_mail',
  'table_layout',
];

export class Migration20261129083000 extends Migration {
  override up(): void | Promise<void> {
    for (const t of TABLES) {
      this.addSql(`alter table "${t}" drop constraint "${t}_pkey", add constraint "${t}_pkey" primary key ("id", "organization_id");`);
    }
  }

  override down(): void | Promise<void> {
    for (const t of TABLES) {
      this.addSql(`alter table "${t}" drop constraint "${t}_pkey", add constraint "${t}_pkey" primary key ("id");`);
    }
  }
}
