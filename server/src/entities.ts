import { Organization } from './db/organization.entity';
import { User } from './modules/users/user.entity';
import { Session, LoginThrottle, PasswordReset } from './modules/auth/session.entity';
import { Invitation } from './modules/invitations/invitation.entity';
import { SystemMail } from './modules/email/system/system-mail.entity';
import { FieldDefinition, FieldValue } from './modules/fields/field.entity';
import { Company, Contact, CompanyContact, TableLayout, RecordCount } from './modules/records/records.entity';
import { Execution, ExecutionRun } from './modules/executions/execution.entity';
import { RealtimeEventRow, RealtimePending, RealtimeSequence } from './modules/realtime/realtime.entity';
import { Notification } from './modules/notifications/notification.entity';
import { Activity } from './modules/activities/activity.entity';
import { Enrichment, EnrichmentResult } from './modules/enrichments/enrichment.entity';
import { Integration } from './modules/integrations/integration.entity';
import { OAuthAuthorization } from './modules/integrations/oauth-authorization.entity';
import { LlmCharge } from './modules/llm/llm-charge.entity';
import { CrmLink } from './modules/crm/links/crm-link.entity';
import { Play, PlayDraft, ChannelEmail } from './modules/plays/play.entity';
import { ListCompany, ListSource, Idea, ListSourceRejection } from './modules/lists/list.entity';
import { ScoringModel, ScoreRun, IdeaScore } from './modules/scoring/scoring.entity';
import { EmailOutbox, MailboxSync } from './modules/email/send/outbox.entity';
import { CrmUserLink } from './modules/crm/crm-user-link.entity';
import { CrmSyncSettings, CrmSyncState, CrmSyncChange, CrmPushJob, CrmActivityPush } from './modules/crm/sync/crm-sync.entity';

export const entities = [
  Organization,
  User,
  Session,
  LoginThrottle,
  PasswordReset,
  Invitation,
  SystemMail,
  FieldDefinition,
  FieldValue,
  Company,
  Contact,
  CompanyContact,
  TableLayout,
  RecordCount,
  Execution,
  ExecutionRun,
  RealtimeEventRow,
  RealtimePending,
  RealtimeSequence,
  Notification,
  Activity,
  Integration,
  OAuthAuthorization,
  LlmCharge,
  Enrichment,
  EnrichmentResult,
  CrmLink,
  Play,
  PlayDraft,
  ChannelEmail,
  ListCompany,
  ListSource,
  Idea,
  ListSourceRejection,
  ScoringModel,
  ScoreRun,
  IdeaScore,
  EmailOutbox,
  CrmUserLink,
  MailboxSync,
  CrmSyncSettings,
  CrmSyncState,
  CrmSyncChange,
  CrmPushJob,
  CrmActivityPush,
];

/** Entities owned by an organization: the tenant filter applies to all of them. */
export const tenantEntities = [
  User,
  Session,
  PasswordReset,
  Invitation,
  SystemMail,
  FieldDefinition,
  FieldValue,
  Company,
  Contact,
  CompanyContact,
  TableLayout,
  RecordCount,
  Execution,
  ExecutionRun,
  RealtimeEventRow,
  RealtimePending,
  RealtimeSequence,
  Notification,
  Activity,
  Integration,
  OAuthAuthorization,
  LlmCharge,
  Enrichment,
  EnrichmentResult,
  CrmLink,
  Play,
  PlayDraft,
  ChannelEmail,
  ListCompany,
  ListSource,
  Idea,
  ListSourceRejection,
  ScoringModel,
  ScoreRun,
  IdeaScore,
  EmailOutbox,
  CrmUserLink,
  MailboxSync,
  CrmSyncSettings,
  CrmSyncState,
  CrmSyncChange,
  CrmPushJob,
  CrmActivityPush,
];

/** Tables that belong to no organization (checked by the suite-level tenancy test). */
export const globalTables = ['organization', 'login_throttle', 'mikro_orm_migrations'];
