import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { RichPromptNode, RenderedPrompt } from '@dealscout/shared/domain';
import { Organization } from '../../db/organization.entity';
import { User } from '../users/user.entity';

/**
 * A play (spec 001 §3 'Play'): rich instructions (the enrichment prompt's node types), a subject
 * template, Ai (openai: the model writes the email) or Non-Ai (non_ai: the instructions are the
 * email's template, filled without a model). `version` goes up with every saved change, and every
 * draft records the version that wrote it.
 */
export const Play = defineEntity({
  name: 'Play',
  tableName: 'play',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    name: p.string().length(200),
    description: p.text().default(''),
    instructions: p.json<RichPromptNode[]>(),
    subject: p.text().default(''),
    subjectPrompt: p.text().default(''),
    /** openai | non_ai */
    playType: p.string().length(20),
    llmModelId: p.string().length(200).default('default'),
    /** draft | published */
    status: p.string().length(20),
    useCount: p.integer().default(0),
    /** The enrichments its enrich boxes use (ids, in order). */
    enrichmentsIncluded: p.json<string[]>(),
    /** Provided by the product: read-only (duplicable). */
    isProvidedByProduct: p.boolean().default(false),
    /** The product play it was created from (stable across organizations), for provided plays. */
    productKey: p.string().length(64).nullable(),
    version: p.integer().default(1),
    createdBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [
    { name: 'play_org_created_index', properties: ['organization', 'createdAt'] },
    { name: 'play_org_status_index', properties: ['organization', 'status'] },
  ],
  uniques: [{ name: 'play_org_product_key_unique', properties: ['organization', 'productKey'] }],
});
export type IPlay = InferEntity<typeof Play>;

/** The play editor's unsaved new play, one per user and provider (GET/PUT /play/draft/{provider}). */
export const PlayDraft = defineEntity({
  name: 'PlayDraft',
  tableName: 'play_draft',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    provider: p.string().length(20),
    data: p.json<{
      name: string;
      description: string;
      instructions: RichPromptNode[];
      title: string;
      subjectPrompt: string;
      targetContactId: string | null;
    }>(),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: 'play_draft_org_user_provider_unique', properties: ['organization', 'user', 'provider'] }],
});
export type IPlayDraft = InferEntity<typeof PlayDraft>;

/** What made an AI email ('Why this email'). */
export interface EmailProvenance {
  model: string | null;
  renderedPrompt: string;
  values: RenderedPrompt['values'];
  playVersion: number | null;
}

/**
 * A channel email (spec 000 §3 'Email draft'): owned by one user (only they see it), to a contact of
 * a company, written by hand or by a play execution (one draft per execution: the unique
 * (organization, execution) makes a retried job update the same row, never add a second).
 * contactId / companyId / playId carry no foreign key: the draft outlives a removed record or play.
 */
export const ChannelEmail = defineEntity({
  name: 'ChannelEmail',
  tableName: 'channel_email',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    title: p.string().length(300).default(''),
    fromAddress: p.string().length(254).default(''),
    toAddress: p.string().length(254).default(''),
    cc: p.json<string[]>(),
    subject: p.text().default(''),
    body: p.text().default(''),
    contactId: p.uuid().nullable(),
    companyId: p.uuid().nullable(),
    playId: p.uuid().nullable(),
    playName: p.string().length(200).nullable(),
    playVersion: p.integer().nullable(),
    executionId: p.uuid().nullable(),
    isAiEmailGenerated: p.boolean().default(false),
    /** draft | processing | ready | inqueue | error | cancelled | sent | scheduled */
    status: p.string().length(20),
    statusMessage: p.text().nullable(),
    showToFromCc: p.boolean().default(false),
    provenance: p.json<EmailProvenance>().nullable(),
    /** A reply to a received message: its subject stays the reply's ('Re: …'); a play writes the body only. */
    isReply: p.boolean().default(false),
    /** The received message a reply answers (its Graph id): sent through createReply, in the thread. */
    replyToMessageId: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [{ name: 'channel_email_org_owner_status_index', properties: ['organization', 'owner', 'status'] }],
  uniques: [{ name: 'channel_email_org_execution_unique', properties: ['organization', 'executionId'] }],
});
export type IChannelEmail = InferEntity<typeof ChannelEmail>;
