import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../db/organization.entity';
import { User } from '../users/user.entity';

/**
 * One row per signed-in client. The web app holds the token in an httpOnly cookie ('cookie'),
 * the add-in and the extension as a bearer token ('bearer'). Only the SHA-256 of the token is kept.
 */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'session',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization).index(),
    user: () => p.manyToOne(User),
    kind: p.string().length(10),
    tokenHash: p.string().length(64).unique(),
    csrfToken: p.string().length(64).nullable().hidden(),
    label: p.string().length(200).nullable(),
    userAgent: p.string().length(500).nullable(),
    ip: p.string().length(64).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastSeenAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['organization', 'user'] }],
});
export type ISession = InferEntity<typeof Session>;

/** Failed sign-in counters per account and per client address, shared by every API process. */
export const LoginThrottle = defineEntity({
  name: 'LoginThrottle',
  tableName: 'login_throttle',
  properties: {
    key: p.string().length(400).primary(),
    failures: p.integer().default(0),
    windowStart: p.datetime(),
  },
});

export const PasswordReset = defineEntity({
  name: 'PasswordReset',
  tableName: 'password_reset',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization).index(),
    user: () => p.manyToOne(User),
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['organization', 'user'] }],
});
export type IPasswordReset = InferEntity<typeof PasswordReset>;
