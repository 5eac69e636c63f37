import { z } from 'zod';
import * as C from '../contracts';
import { Http, type HttpOptions } from './http';
import { contractOf, firstViewRoutes as routes, type Answer, type ContractName, type Route } from './first-view';

/** A route of the first views' (first-view.ts), asked with its contract. */
function ask<K extends ContractName>(http: Http, r: Route<K>): Promise<Answer<K>> {
  return http.request(r.method, r.path, contractOf(C, r.contract), r.body);
}

const Success = C.SuccessResponse;

function setupApi(http: Http) {
  return {
    status: () => ask(http, routes.setupStatus()),
    run: (body: C.SetupBody) => http.request('POST', '/api/v1/setup', C.LoginResponse, body),
  };
}

function authApi(http: Http) {
  return {
    login: (body: C.LoginBody) => http.request('POST', '/api/v1/auth/login', C.LoginResponse, body),
    token: (body: C.TokenBody) => http.request('POST', '/api/v1/auth/token', C.TokenResponse, body),
    revokeToken: () => http.request('DELETE', '/api/v1/auth/token', Success),
    logout: () => http.request('POST', '/api/account/logout', Success),
    forgotPassword: (body: C.ForgotPasswordBody) => http.request('POST', '/api/v1/auth/forgotpassword', Success, body),
    resetPassword: (body: C.ResetPasswordBody) => http.request('POST', '/api/v1/auth/resetpassword', Success, body),
  };
}

function userApi(http: Http) {
  return {
    get: () => ask(http, routes.user()),
    saveSettings: (settings: C.UserSettingsBody) => http.request('PUT', '/api/v1/user/settings', C.UserSettingsResponse, settings),
    updateProfile: (body: C.UpdateProfileBody) => http.request('PUT', '/api/v1/user/profile', C.GetUserResponse, body),
    /** Time zone, meeting length and weekly hours. */
    updateCalendar: (body: C.UpdateCalendarBody) => http.request('PUT', '/api/v1/user/calendar', C.GetUserResponse, body),
    emailSettings: () => http.request('GET', '/api/v1/user/email-settings', C.EmailSettingsResponse),
    saveSignature: (signature: string) => http.request('PUT', '/api/v1/user/email-settings', C.EmailSettingsResponse, { signature }),
    /** Admin: saves the organization's AI summary. */
    saveAiSummary: (aiSummary: string) => http.request('PUT', '/api/v1/organization/ai-summary', C.EmailSettingsResponse, { aiSummary }),
    /** Admin: drafts the summary from the organization's website (not saved). */
    generateAiSummary: () => http.request('POST', '/api/v1/organization/ai-summary/generate', C.GenerateAiSummaryResponse, {}),
  };
}

function organizationApi(http: Http) {
  return {
    get: () => http.request('GET', '/api/v1/organization', C.GetOrganizationResponse),
    systemRoles: () => http.request('GET', '/api/v1/organization/system-roles', C.SystemRolesResponse),
    setDefaultCurrency: (currency: string) =>
      http.request('PUT', '/api/v1/organization/currency', C.SetDefaultCurrencyResponse, { currency }),
    users: () => http.request('GET', '/api/v1/organization/users', C.UsersResponse),
    invite: (body: C.InviteBody) => http.request('POST', '/api/v1/organization/invite', C.InviteResponse, body),
    revokeInvite: (id: string) => http.request('DELETE', `/api/v1/organization/invites/${encodeURIComponent(id)}`, Success),
    setRole: (id: string, role: C.SetRoleBodyT['role']) =>
      http.request('PUT', `/api/v1/organization/users/${encodeURIComponent(id)}/role`, C.MemberResponse, { role }),
    setStatus: (id: string, status: C.SetStatusBodyT['status']) =>
      http.request('PUT', `/api/v1/organization/users/${encodeURIComponent(id)}/status`, C.MemberResponse, { status }),
    deleteUser: (id: string) => http.request('DELETE', `/api/v1/organization/users/${encodeURIComponent(id)}`, Success),
  };
}

function fieldsApi(http: Http) {
  return {
    list: (entityType?: 'company' | 'contact') => ask(http, routes.fields(entityType)),
    filterFields: (entityType?: 'company' | 'contact') => ask(http, routes.filterFields(entityType)),
    create: (body: C.CreateFieldBody) => http.request('POST', '/api/v1/entity/field', C.FieldResponse, body),
    setConfig: (body: C.SetFieldConfigBody) => http.request('PUT', '/api/v1/entity/set-config', C.FieldResponse, body),
    setValue: (entityType: 'company' | 'contact', body: C.SetFieldValueBody) =>
      http.request('PUT', `/api/v1/entity/${entityType}/field`, C.SetFieldValueResponse, body),
  };
}

function companiesApi(http: Http) {
  return {
    page: (q: C.TableQuery) => ask(http, routes.companiesPage(q)),
    /** The exact number of companies a search and filters match (after an estimated total). */
    total: (q: C.TableTotalQuery) => http.request('POST', '/api/v1/company/count-companies', C.TableTotal, q),
    details: (id: string) => http.request('GET', `/api/v1/company/details/${encodeURIComponent(id)}`, C.CompanyDetailsResponse),
    create: (body: C.CreateCompanyBody) => http.request('POST', '/api/v1/entity/company', C.CompanyResponse, body),
    update: (body: C.UpdateCompanyBody) => http.request('PUT', '/api/v1/entity/company', C.CompanyResponse, body),
    remove: (id: string) => http.request('DELETE', `/api/v1/company/delete/${encodeURIComponent(id)}`, Success),
    bulkDelete: (selection: C.Selection) => http.request('POST', '/api/v1/company/bulk-delete', C.BulkResponse, { selection }),
    search: (query: string) => http.request('POST', '/api/v1/company/search', C.SearchResponse, { query }),
    owners: () => http.request('GET', '/api/v1/company/owners-list', C.OwnersResponse),
    link: (body: C.LinkBody) => http.request('POST', '/api/v1/company/create-mapping', C.MappingResponse, body),
    setKey: (companyId: string, contactId: string) =>
      http.request('PUT', '/api/v1/company/set-key', C.MappingResponse, { companyId, contactId }),
    updateMapping: (body: z.input<typeof C.MappingContactBody>) =>
      http.request('PUT', '/api/v1/entity/mapping-contact', C.MappingResponse, body),
    /** The CSV as a Response (stream it or take its blob); errors are thrown like other calls. */
    export: (body: C.ExportBody) => http.download('/api/v1/company/export', body),
  };
}

function contactsApi(http: Http) {
  return {
    page: (q: C.TableQuery) => ask(http, routes.contactsPage(q)),
    /** The exact number of contacts a search and filters match (after an estimated total). */
    total: (q: C.TableTotalQuery) => http.request('POST', '/api/v1/contact/count-contacts', C.TableTotal, q),
    details: (id: string) => ask(http, routes.contactDetails(id)),
    create: (body: C.CreateContactBody) => http.request('POST', '/api/v1/entity/contact', C.ContactResponse, body),
    update: (body: C.UpdateContactBody) => http.request('PUT', '/api/v1/entity/contact', C.ContactResponse, body),
    remove: (id: string) => http.request('DELETE', `/api/v1/contact/delete/${encodeURIComponent(id)}`, Success),
    bulkDelete: (selection: C.Selection) => http.request('POST', '/api/v1/contact/bulk-delete', C.BulkResponse, { selection }),
    search: (query: string) => http.request('POST', '/api/v1/contact/search', C.SearchResponse, { query }),
    setPrimary: (contactId: string, companyId: string) =>
      http.request('PUT', '/api/v1/contact/set-primary', C.MappingResponse, { contactId, companyId }),
    updateMapping: (body: z.input<typeof C.MappingCompanyBody>) =>
      http.request('PUT', '/api/v1/entity/mapping-company', C.MappingResponse, body),
    export: (body: C.ExportBody) => http.download('/api/v1/contact/export', body),
  };
}

/** The people of an email (the Outlook add-in). */
function mailboxApi(http: Http) {
  return {
    matchEmails: (emails: string[]) => ask(http, routes.matchEmails(emails)),
    contactFromEmail: (body: z.input<typeof C.ContactFromEmailBody>) =>
      http.request('POST', '/api/v1/contact/from-email', C.ContactFromEmailResponse, body),
  };
}

function entityApi(http: Http) {
  return {
    createPair: (body: z.input<typeof C.CreateEntityPairBody>) => http.request('POST', '/api/v1/entity', C.EntityPairResponse, body),
    search: (body: C.SearchBody) => http.request('POST', '/api/v1/entity/search', C.SearchResponse, body),
    /** The record a CRM or LinkedIn page shows: by CRM id, then domain / email (the Chrome side panel). */
    lookup: (body: C.LookupBody) => http.request('POST', '/api/v1/entity/lookup', C.LookupResponse, body),
  };
}

function tableLayoutsApi(http: Http) {
  return {
    list: (entityType: 'company' | 'contact') => ask(http, routes.tableLayouts(entityType)),
    create: (entityType: 'company' | 'contact', body: C.TableLayoutBody) =>
      http.request('POST', `/api/v1/user/tablelayout/${entityType}`, C.TableLayoutResponse, body),
    update: (entityType: 'company' | 'contact', body: z.input<typeof C.UpdateTableLayoutBody>) =>
      http.request('PUT', `/api/v1/user/tablelayout/${entityType}`, C.TableLayoutResponse, body),
    remove: (entityType: 'company' | 'contact', id: string) =>
      http.request('DELETE', `/api/v1/user/tablelayout/${entityType}/${encodeURIComponent(id)}`, Success),
  };
}

function executionsApi(http: Http) {
  return {
    get: (id: string) => http.request('GET', `/api/v1/execution/${encodeURIComponent(id)}`, C.GetExecutionResponse),
    active: (body: C.ActiveExecutionsBody = {}) => http.request('POST', '/api/v1/execution/active', C.ExecutionsResponse, body),
    cancel: (executionId: string) => http.request('POST', '/api/v1/execution/cancel', C.ExecutionResponse, { executionId }),
    cancelPlay: (executionId: string) => http.request('POST', '/api/v1/play/execution/cancel', C.ExecutionResponse, { executionId }),
    /** Progress lines of runs (ids of runs or executions), or the user's running and recent ones. */
    progress: (ids?: string[]) => http.request('POST', '/api/v1/execution/progress', C.RunProgressResponse, ids ? { ids } : {}),
    cancelRun: (runId: string) => http.request('POST', '/api/v1/execution/run/cancel', C.CancelRunResponse, { runId }),
  };
}

function playsApi(http: Http) {
  return {
    /** The playbook table (pages of 10, zero-based). */
    playbook: (body: C.PlaybookBody = {}) => ask(http, routes.playbook(body)),
    /** Published plays (Run Play). */
    published: () => http.request('GET', '/api/v1/play', C.PlayListResponse),
    users: () => ask(http, routes.playbookUsers()),
    get: (id: string) => http.request('GET', `/api/v1/play/${encodeURIComponent(id)}`, C.PlayResponse),
    save: (body: C.SavePlayBody) => http.request('POST', '/api/v1/play', C.PlayResponse, body),
    duplicate: (id: string) => http.request('POST', `/api/v1/play/duplicate/${encodeURIComponent(id)}`, C.PlayResponse, {}),
    remove: (id: string) => http.request('DELETE', `/api/v1/play/remove/${encodeURIComponent(id)}`, Success),
    draft: (provider: 'openai' | 'non_ai') => http.request('GET', `/api/v1/play/draft/${provider}`, C.PlayDraftResponse),
    saveDraft: (provider: 'openai' | 'non_ai', body: z.input<typeof C.PlayDraftBody>) =>
      http.request('PUT', `/api/v1/play/draft/${provider}`, C.PlayDraftResponse, body),
    removeDraft: (provider?: 'openai' | 'non_ai') =>
      http.request('DELETE', `/api/v1/play/draft${provider ? `?provider=${provider}` : ''}`, Success),
    preview: (body: z.input<typeof C.PlayPreviewBody>) => http.request('POST', '/api/v1/play/preview', C.PlayPreviewResponse, body),
    estimate: (body: z.input<typeof C.PlayEstimateBody>) => http.request('POST', '/api/v1/play/estimate', C.PlayEstimateResponse, body),
    execute: (body: C.PlayExecuteBody) => http.request('POST', '/api/v1/play/execute', C.PlayExecuteResponse, body),
  };
}

function emailsApi(http: Http) {
  return {
    pending: () => http.request('GET', '/api/v1/email/pending', C.PendingEmailsResponse),
    create: (body: z.input<typeof C.CreateDraftBody>) => http.request('POST', '/api/v1/email/draft', C.EmailResponse, body),
    save: (id: string, body: z.input<typeof C.SaveDraftBody>) =>
      http.request('PUT', `/api/v1/email/draft/${encodeURIComponent(id)}`, C.EmailResponse, body),
    updateStatus: (body: z.input<typeof C.UpdateEmailStatusBody>) =>
      http.request('POST', '/api/v1/email/update-email-status', C.UpdateEmailStatusResponse, body),
    generate: (body: z.input<typeof C.GenerateEmailBody>) => http.request('POST', '/api/v1/email/generate', C.EmailResponse, body),
    checkValidEntity: (body: z.input<typeof C.CheckValidEntityBody>) =>
      http.request('POST', '/api/v1/entity/check-valid-entity', C.CheckValidEntityResponse, body),
    checkAiGenerated: (body: z.input<typeof C.CheckAiGeneratedBody>) =>
      http.request('POST', '/api/v1/entity/check-ai-generated', C.EmailResponse, body),
  };
}

/** The email service: the caller's own Office 365 mailbox, and sending. */
function emailServiceApi(http: Http) {
  return {
    /** Microsoft's consent page address (navigate the browser there). */
    connect: (body: C.O365ConnectBody = {}) => http.request('POST', '/api/v1/user/o365-integration', C.O365ConnectResponse, body),
    disconnect: (id: string) => http.request('DELETE', `/api/v1/user/integration/${encodeURIComponent(id)}`, Success),
    status: () => http.request('GET', '/api/v1/email/service-status', C.EmailServiceStatusResponse),
    sendTime: (body: z.input<typeof C.SendTimeBody>) => http.request('POST', '/api/v1/email/send-time', C.SendTimeResponse, body),
    send: (body: C.SendToEmailBody) => http.request('POST', '/api/v1/email/send-to-email', C.SendToEmailResponse, body),
    sendToMyself: (body: C.SendToMyselfBody) => http.request('POST', '/api/v1/email/send-email-to-my-self', Success, body),
    /** The caller's own working hours for scheduled emails; null = the mailbox's. */
    setSendWindow: (body: C.SendWindowBody) => http.request('PUT', '/api/v1/email/send-window', Success, body),
  };
}

function enrichmentsApi(http: Http) {
  return {
    configs: () => http.request('GET', '/api/v1/enrichment/configs', C.EnrichmentConfigsResponse),
    ideaConfigs: () => http.request('GET', '/api/v1/enrichment/idea/configs', C.EnrichmentConfigsResponse),
    /** The table (pageIndex zero-based; pageSize or take 100 fetches all for pickers). */
    list: (body: C.EnrichmentListBody = {}) => http.request('POST', '/api/v1/enrichment/list', C.EnrichmentListResponse, body),
    /** What a run over N rows will take (model calls, AI credits, expected time). */
    estimate: (body: C.EnrichmentEstimateBody) => http.request('POST', '/api/v1/enrichment/estimate', C.EnrichmentEstimateResponse, body),
    creators: () => http.request('GET', '/api/v1/enrichment/list/creators', C.EnrichmentCreatorsResponse),
    forList: (listId: string) => ask(http, routes.listEnrichments(listId)),
    get: (id: string) => http.request('GET', `/api/v1/enrichment/${encodeURIComponent(id)}`, C.GetEnrichmentResponse),
    nextName: (configId: string) =>
      http.request('GET', `/api/v1/enrichment/next-name?configId=${encodeURIComponent(configId)}`, C.NextNameResponse),
    create: (body: C.EnrichmentFormBody) => http.request('POST', '/api/v1/enrichment', C.EnrichmentResponse, body),
    update: (body: C.UpdateEnrichmentBody) => http.request('PUT', '/api/v1/enrichment', C.EnrichmentResponse, body),
    remove: (id: string) => http.request('DELETE', `/api/v1/enrichment/${encodeURIComponent(id)}`, Success),
    setColor: (body: C.SetColorBody) => http.request('PUT', '/api/v1/enrichment/set-color', C.EnrichmentResponse, body),
    setColumns: (body: C.SetColumnsBody) => http.request('PUT', '/api/v1/enrichment/column', C.EnrichmentResponse, body),
    assign: (body: C.AssignBody) => http.request('POST', '/api/v1/enrichment/assign', C.EnrichmentResponse, body),
    unassign: (body: C.AssignBody) => http.request('POST', '/api/v1/enrichment/unassign', C.EnrichmentResponse, body),
    setPrimary: (body: C.AssignBody) => http.request('PUT', '/api/v1/enrichment/set-primary', C.EnrichmentResponse, body),
    /** Starts runs: per-item started / duplicate / failed for ids, counts for the all-selected form. */
    execute: (body: C.ExecuteEnrichmentBody) => http.request('POST', '/api/v1/enrichment/execute', C.ExecuteEnrichmentResponse, body),
    executions: () => http.request('GET', '/api/v1/enrichment/executions', C.EnrichmentExecutionsResponse),
    /** The latest result per enrichment of records (a table page, a drawer). */
    results: (body: C.EnrichmentResultsBody) => http.request('POST', '/api/v1/enrichment/results', C.EnrichmentResultsResponse, body),
  };
}

function llmApi(http: Http) {
  return {
    /** Organization LLM settings (admin): the offered models and the default one. */
    setSettings: (body: C.LlmSettingBody) => http.request('PUT', '/api/v1/organization/llmSetting', C.OrganizationAiResponse, body),
    /** Organization LLM settings (admin): true = the system provider, false = the organization's own key. */
    useSystemSetting: (body: C.UseSystemLlmSettingBody) =>
      http.request('PUT', '/api/v1/organization/useSystemLLMSetting', C.OrganizationAiResponse, body),
    integrations: () => http.request('GET', '/api/v1/integration', C.IntegrationsResponse),
    /** Connects the organization's own AI provider key (admin); 201. */
    connect: (body: C.CreateOrgIntegrationBody) => http.request('POST', '/api/v1/organization/integration', C.IntegrationResponse, body),
    removeIntegration: (id: string) => http.request('DELETE', `/api/v1/organization/integration/${encodeURIComponent(id)}`, Success),
    /** Enrichment editor: name and answer field from the prompt. */
    generatePrompt: (body: C.GeneratePromptBody) =>
      http.request('POST', '/api/v1/enrichment/generate-prompt', C.GeneratePromptResponse, body),
    /** Schema editor: one column from a hint (400 with ENRICHMENT_AI_MESSAGES.noColumns when none). */
    generateSchemaObject: (body: C.GenerateSchemaObjectBody) =>
      http.request('POST', '/api/v1/enrichment/generate-schema-object', C.GenerateSchemaObjectResponse, body),
  };
}

function crmApi(http: Http) {
  return {
    /** Connects a CRM (admin); 201. salesforce: answers `authorizationUrl`, where the browser goes next. */
    connect: (body: C.CreateOrgIntegrationBody) => http.request('POST', '/api/v1/organization/integration', C.IntegrationResponse, body),
    /** Renames, replaces an Affinity key, or pauses / resumes a CRM. */
    update: (id: string, body: C.UpdateIntegrationBody) =>
      http.request('PUT', `/api/v1/integrations/${encodeURIComponent(id)}`, C.IntegrationResponse, body),
    remove: (id: string) => http.request('DELETE', `/api/v1/organization/integration/${encodeURIComponent(id)}`, Success),
    /** USER_AVAILABLE | USER_UNAVAILABLE | USER_INVALID, with the message to show. */
    checkUsername: (username: string) => http.request('POST', '/api/v1/crm/username/check', C.CrmUsernameCheckResponse, { username }),
    userSettings: () => http.request('GET', '/api/v1/crm/user-settings', C.CrmUserSettingsResponse),
    /** Links the caller's CRM username once (201); it cannot be changed afterwards. */
    linkUsername: (username: string) => http.request('POST', '/api/v1/crm/user-settings', C.CrmUserSettingsResponse, { username }),
    /** Sync settings and field mappings (PUT: admin). */
    syncSettings: () => http.request('GET', '/api/v1/crm/sync-settings', C.SyncSettingsResponse),
    saveSyncSettings: (body: C.SyncSettingsBody) => http.request('PUT', '/api/v1/crm/sync-settings', C.SyncSettingsResponse, body),
    /** The active CRM's own fields of accounts and contacts, to map from. */
    fields: () => http.request('GET', '/api/v1/crm/fields', C.CrmFieldsResponse),
    /** Starts a sync: invalid (with the message) or progress (with the execution). */
    sync: () => http.request('POST', '/api/v1/crm/sync', C.CrmSyncResponse, {}),
    /** The latest sync: progress, completed or failed; status null when the organization never synced. */
    syncStatus: () => http.request('GET', '/api/v1/crm/sync', C.CrmSyncResponse),
    /** What sync changed on a record, newest first. */
    syncChanges: (entityType: 'company' | 'contact', entityId: string) =>
      http.request(
        'GET',
        `/api/v1/crm/sync-changes?entityType=${entityType}&entityId=${encodeURIComponent(entityId)}`,
        C.SyncChangesResponse,
      ),
  };
}

function notificationsApi(http: Http) {
  return {
    list: (limit?: number) => http.request('GET', `/api/v1/notifications${limit ? `?limit=${limit}` : ''}`, C.NotificationsResponse),
    unreadCount: () => http.request('GET', '/api/v1/notifications/unread-count', C.UnreadCountResponse),
    /** When the bell opens. */
    markAllRead: () => http.request('PUT', '/api/v1/notifications/read-all', C.MarkAllReadResponse),
    /** A short-lived token for the realtime socket (see createRealtimeClient). */
    token: () => http.request('GET', '/api/v1/notifications/token', C.NotificationsTokenResponse),
  };
}

function activitiesApi(http: Http) {
  return {
    create: (body: C.CreateActivityBody) => http.request('POST', '/api/v1/activity', C.ActivityResponse, body),
    update: (body: C.UpdateActivityBody) => http.request('PUT', '/api/v1/activity', C.ActivityResponse, body),
    participant: (id: string) =>
      http.request('GET', `/api/v1/activity/participant/${encodeURIComponent(id)}`, C.ActivityParticipantResponse),
    remove: (id: string) => http.request('DELETE', `/api/v1/activity/${encodeURIComponent(id)}`, Success),
    forCompany: (id: string, types?: readonly string[]) =>
      http.request(
        'GET',
        `/api/v1/activity/company/${encodeURIComponent(id)}${types?.length ? `?types=${types.join(',')}` : ''}`,
        C.ActivitiesResponse,
      ),
    forContact: (id: string, types?: readonly string[]) =>
      http.request(
        'GET',
        `/api/v1/activity/contact/${encodeURIComponent(id)}${types?.length ? `?types=${types.join(',')}` : ''}`,
        C.ActivitiesResponse,
      ),
  };
}

function listsApi(http: Http) {
  return {
    create: (name: string) => http.request('POST', '/api/v1/list-company', C.ListResponse, { name }),
    page: (q: C.ListsQuery) => http.request('POST', '/api/v1/list-company/list', C.ListsPage, q),
    get: (id: string) => ask(http, routes.list(id)),
    users: () => http.request('GET', '/api/v1/list-company/users', C.ListUsersResponse),
    remove: (id: string) => http.request('DELETE', `/api/v1/list-company/${encodeURIComponent(id)}`, Success),
    rename: (listId: string, name: string) => http.request('PATCH', '/api/v1/list-company/name', C.ListResponse, { listId, name }),
    removeSource: (id: string) => http.request('DELETE', `/api/v1/list-company/source/${encodeURIComponent(id)}`, Success),
    intentions: () => http.request('GET', '/api/v1/list-company/intentions', C.IntentionsResponse),
    completeConfirmation: (id: string) =>
      http.request('GET', `/api/v1/list-company/${encodeURIComponent(id)}/complete-confirmation`, C.CompleteConfirmationResponse),
    complete: (id: string) => http.request('POST', `/api/v1/list-company/${encodeURIComponent(id)}/complete`, C.CompleteResponse, {}),
    ideas: (q: C.IdeaListBody) => ask(http, routes.ideas(q)),
    shortlist: (body: C.ShortlistBody) => http.request('PUT', '/api/v1/list-company/idea/shortlist', C.CountResponse, body),
    deleteIdeas: (body: C.IdeaDeleteBody) => http.request('POST', '/api/v1/list-company/idea/delete', C.CountResponse, body),
    addIdea: (body: C.ManualIdeaBody) => http.request('POST', '/api/v1/list-company/idea', C.IdeaResponse, body),
    memberships: (body: C.IdeaMembershipsBody) =>
      http.request('POST', '/api/v1/list-company/idea/memberships', C.IdeaMembershipsResponse, body),
    exportIdeas: (body: C.IdeaExportBody) => http.download('/api/v1/list-company/idea/export', body),
    /** A CSV upload: the fields first, then the file (the server reads the form in order). */
    uploadCsv: (listId: string, mapping: { name: string; website: string; columns?: string[] }, file: Blob, fileName: string) => {
      const form = new FormData();
      form.append('listCompanyId', listId);
      form.append('intentionSourceId', 'csv');
      form.append('source', JSON.stringify({ mapping }));
      form.append('file', file, fileName);
      return http.form('/api/v1/list-company/source', C.SourceUploadResponse, form);
    },
    rejectedRows: (sourceId: string) => http.raw('GET', `/api/v1/list-company/source/${encodeURIComponent(sourceId)}/rejected`),
    // Data-provider sources (previews change nothing; a source is added, then executed).
    oceanPreview: (body: C.OceanPreviewBody) =>
      http.request('POST', '/api/v1/list-company/ocean/preview', C.PreviewCompaniesResponse, body),
    googleMapsSamples: (body: C.GoogleMapsSamplesBody) =>
      http.request('POST', '/api/v1/list-company/google-maps-samples', C.PreviewCompaniesResponse, body),
    sourceScrubPreview: (body: C.SourceScrubPreviewBody) =>
      http.request('POST', '/api/v1/list-company/source-scrub/preview', C.PreviewCompaniesResponse, body),
    sourceScrubSources: (body: C.SourceScrubSourcesPreviewBody) =>
      http.request('POST', '/api/v1/list-company/source-scrub-sources/preview', C.SourceScrubSourcesResponse, body),
    sourceScrubCompanies: (body: C.SourceScrubCompaniesPreviewBody) =>
      http.request('POST', '/api/v1/list-company/source-scrub-companies/preview', C.PreviewCompaniesResponse, body),
    /** A provider source (no file): its parameters as the source field. */
    addProviderSource: (listId: string, intention: string, parameters: Record<string, unknown>) => {
      const form = new FormData();
      form.append('listCompanyId', listId);
      form.append('intentionSourceId', intention);
      form.append('source', JSON.stringify(parameters));
      return http.form('/api/v1/list-company/source', C.SourceUploadResponse, form);
    },
    execute: (body: C.ListExecuteBody) => http.request('POST', '/api/v1/list-company/execute', C.ListExecuteResponse, body),
    autoComplete: (body: C.AutoCompleteBody) => http.request('POST', '/api/v1/list-company/auto-complete', C.AutoCompleteResponse, body),
    /** 'Companies matching filters': the companies table's search and filters; dryRun counts, otherwise adds them as ideas. */
    filterSource: (body: C.ListFilterBody) => http.request('POST', '/api/v1/list-company/filter', C.ListFilterResponse, body),
  };
}

function scoringApi(http: Http) {
  return {
    list: (listCompanyId: string) =>
      http.request('GET', `/api/v1/scoring-model?listCompanyId=${encodeURIComponent(listCompanyId)}`, C.ScoreModelsResponse),
    get: (id: string) => http.request('GET', `/api/v1/scoring-model/${encodeURIComponent(id)}`, C.ScoreModelResponse),
    create: (body: C.CreateScoreModelBody) => http.request('POST', '/api/v1/scoring-model', C.ScoreModelResponse, body),
    update: (id: string, body: C.UpdateScoreModelBody) =>
      http.request('PUT', `/api/v1/scoring-model/${encodeURIComponent(id)}`, C.ScoreModelResponse, body),
    remove: (id: string) => http.request('DELETE', `/api/v1/scoring-model/${encodeURIComponent(id)}`, z.null()),
    execute: (body: C.ExecuteScoreModelInput) => http.request('POST', '/api/v1/scoring-model/execute', C.ExecuteScoreModelResponse, body),
  };
}

function inviteApi(http: Http) {
  return {
    info: (token: string) => http.request('GET', `/api/v1/invite/${encodeURIComponent(token)}`, C.InviteInfoResponse),
    accept: (body: C.AcceptInviteBody) => http.request('POST', '/api/v1/invite/accept', C.LoginResponse, body),
  };
}

/** The Dealscout API, one method per route, typed by the shared contracts. */
export function createApi(opts: HttpOptions = {}) {
  const http = new Http(opts);
  return {
    http,
    setup: setupApi(http),
    auth: authApi(http),
    user: userApi(http),
    organization: organizationApi(http),
    fields: fieldsApi(http),
    companies: companiesApi(http),
    contacts: contactsApi(http),
    mailbox: mailboxApi(http),
    entity: entityApi(http),
    tableLayouts: tableLayoutsApi(http),
    executions: executionsApi(http),
    plays: playsApi(http),
    emails: emailsApi(http),
    emailService: emailServiceApi(http),
    enrichments: enrichmentsApi(http),
    llm: llmApi(http),
    crm: crmApi(http),
    notifications: notificationsApi(http),
    activities: activitiesApi(http),
    lists: listsApi(http),
    scoring: scoringApi(http),
    invite: inviteApi(http),
  };
}

export type Api = ReturnType<typeof createApi>;
