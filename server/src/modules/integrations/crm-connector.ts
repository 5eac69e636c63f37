// What the integrations routes need from the CRM feature to connect, pause and remove a CRM. The
// CRM module provides it (modules/crm/connect/crm-connect.ts, crmConnector) and app.ts hands it to
// integrationRoutes, so that integrations imports nothing of crm (crm stands on integrations).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CrmProvider, SalesforceEnvironment } from '@dealscout/shared/contracts';
import type { Config } from '../../config';
import type { IIntegration } from './integration.entity';

export type CrmCallbackOutcome = { ok: true; warning?: string } | { ok: false; message: string };

export interface CrmConnector {
  /** Starts Salesforce's OAuth flow: the row (created inactive if new) and the URL to go to. */
  startSalesforceConnect(
    em: EntityManager,
    config: Config,
    organizationId: string,
    userId: string,
    environment: SalesforceEnvironment,
  ): Promise<{ id: string; url: string }>;
  /** Salesforce's OAuth redirect: the code exchanged, the tokens stored. */
  finishSalesforceConnect(
    em: EntityManager,
    config: Config,
    organizationId: string,
    userId: string,
    q: { code?: string; state?: string; error?: string },
  ): Promise<CrmCallbackOutcome>;
  /** Connects (or replaces) the organization's Affinity key; answers the row's id. */
  connectAffinity(
    em: EntityManager,
    config: Config,
    organizationId: string,
    userId: string,
    apiKey: string,
    name: string | undefined,
  ): Promise<string>;
  /** Checks an Affinity key; answers what the row keeps in data. */
  affinityKeyData(config: Config, apiKey: string): Promise<Record<string, unknown>>;
  /** The other CRM's active row, if any (one active CRM at a time). */
  otherActiveCrm(em: EntityManager, provider: CrmProvider): Promise<IIntegration | null>;
  /** Best effort: revokes the refresh token of a Salesforce connection being removed. */
  revokeSalesforce(config: Config, row: IIntegration): Promise<void>;
}
