import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../db/organization.entity';

/**
 * A pending OAuth authorization (oauth.ts): started by a user of an organization for a provider,
 * found again by the SHA-256 hash of the `state` it sent (never the state itself), holding the PKCE
 * verifier encrypted with the organization as context. Deleted when the callback takes it (single
 * use); an unused one is refused after `expiresAt` and swept by the organization's next start.
 */
export const OAuthAuthorization = defineEntity({
  name: 'OAuthAuthorization',
  tableName: 'oauth_authorization',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    /** Who started it (a plain id: the row lives 15 minutes at most). */
    userId: p.uuid(),
    provider: p.string().length(40),
    stateHash: p.string().length(64),
    /** The PKCE verifier, encrypted (lib/secrets.ts, the organization id as context). */
    verifier: p.text(),
    /** What the flow needs back at the callback (Salesforce's environment, Office 365's return page). */
    data: p
      .json<Record<string, unknown>>()
      .defaultRaw(`'{}'`)
      .onCreate(() => ({})),
    expiresAt: p.datetime(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ name: 'oauth_authorization_org_state_unique', properties: ['organization', 'stateHash'] }],
});
export type IOAuthAuthorization = InferEntity<typeof OAuthAuthorization>;
