import { describe, expect, it } from 'vitest';
import { replySubject } from './drafts';

describe("replySubject: a reply keeps 'Re: <subject>', never doubled", () => {
  it('prefixes a subject without a reply prefix', () => {
    expect(replySubject('Quick question about Acme')).toBe('Re: Quick question about Acme');
    expect(replySubject('  Quick   question ')).toBe('Re: Quick question');
    expect(replySubject('')).toBe('Re:');
  });

  it("keeps an existing prefix as written ('Re:', 'RE:', 'AW:', 'Re[2]:'), collapsing repeats", () => {
    expect(replySubject('Re: Quick question…')).toBe('Re: Quick question…');
    expect(replySubject('RE: Quick question')).toBe('RE: Quick question');
    expect(replySubject('re:Quick question')).toBe('re: Quick question');
    expect(replySubject('RE: Re: RE: Quick question')).toBe('RE: Quick question');
    expect(replySubject('AW: Angebot')).toBe('AW: Angebot');
    expect(replySubject('Re[2]: Numbers')).toBe('Re[2]: Numbers');
  });

  it("answers a forward as a reply to it ('Fwd: x' → 'Re: Fwd: x')", () => {
    expect(replySubject('Fwd: Intro to Acme')).toBe('Re: Fwd: Intro to Acme');
    expect(replySubject('FW: Intro')).toBe('Re: FW: Intro');
    // A word that merely starts like a prefix is not one.
    expect(replySubject('Review: Q3 numbers')).toBe('Re: Review: Q3 numbers');
  });
});
