// The plays provided by the product (spec 001 §6: read-only, duplicable), created for every
// organization (bootstrap.ts; the migration that added plays created them for existing ones).
// Their instructions use only text, so they work before an organization defines any field; the
// model gets the recipient's and the company's details with every call.
import type { RichPromptNode } from '@dealscout/shared/domain';

export interface ProvidedPlay {
  key: string;
  name: string;
  description: string;
  subject: string;
  instructions: RichPromptNode[];
}

const t = (text: string): RichPromptNode[] => [{ type: 'text', text }];

export const PROVIDED_PLAYS: readonly ProvidedPlay[] = [
  {
    key: 'founder-first-note',
    name: 'First note to a founder or owner',
    description: 'A short, personal first email to the founder or owner of a company we would like to acquire or partner with.',
    subject: '',
    instructions: t(
      'Write a short first email (under 120 words) to the founder or owner of the company. Show that we know what ' +
        'the company does, say in one sentence why we are interested in a conversation about a partnership or an ' +
        'acquisition, and ask for a 20-minute call. Warm and direct; no flattery, no buzzwords.',
    ),
  },
  {
    key: 'follow-up',
    name: 'Follow-up after no reply',
    description: 'A polite follow-up to a first note that got no answer.',
    subject: '',
    instructions: t(
      'Write a brief follow-up (under 80 words) to an earlier note that got no reply. Restate the reason for ' +
        'reaching out in one line, add one new, specific reason the conversation could be worth their time, and make it ' +
        'easy to say no. Friendly, not pushy.',
    ),
  },
  {
    key: 'meeting-request',
    name: 'Meeting request',
    description: 'Ask for a meeting with a clear agenda and two time options.',
    subject: '',
    instructions: t(
      'Write an email asking for a 30-minute meeting. Give a clear three-point agenda relevant to the company, ' +
        'suggest two time windows next week, and offer to adapt to their calendar. Under 120 words.',
    ),
  },
  {
    key: 'after-event',
    name: 'Note after an event',
    description: 'A note after meeting someone at a conference or industry event.',
    subject: '',
    instructions: t(
      'Write a short note to someone we met at a recent industry event. Thank them for the conversation, recall one ' +
        'topic relevant to their company, and propose a next step (a call or a coffee). Under 100 words, personal and ' +
        'specific.',
    ),
  },
];
