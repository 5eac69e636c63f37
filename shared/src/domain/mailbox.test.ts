import { describe, it, expect } from 'vitest';
import { companyNameFromDomain, emailDomain, isPersonalEmailDomain, participantEmails, personNameFromSender } from './mailbox';

describe('mailbox rules', () => {
  it('takes the domain of an address', () => {
    expect(emailDomain(' Ann@Sub.Acme.COM ')).toBe('sub.acme.com');
    expect(emailDomain('no-at-sign')).toBe('');
  });

  it('knows the large personal mail providers only', () => {
    expect(isPersonalEmailDomain('gmail.com')).toBe(true);
    expect(isPersonalEmailDomain('GMAIL.com')).toBe(true);
    expect(isPersonalEmailDomain('acme.com')).toBe(false);
  });

  it('guesses a company name from a domain', () => {
    expect(companyNameFromDomain('acme.com')).toBe('Acme');
    expect(companyNameFromDomain('acme-capital.co.uk')).toBe('Acme Capital');
    expect(companyNameFromDomain('mail.northwind.io')).toBe('Northwind');
    expect(companyNameFromDomain('localhost')).toBe('Localhost');
    expect(companyNameFromDomain('')).toBe('');
  });

  it('splits a display name, or the local part when there is none', () => {
    expect(personNameFromSender('Jane Doe', 'jd@acme.com')).toEqual({ firstName: 'Jane', lastName: 'Doe' });
    expect(personNameFromSender('Doe, Jane', 'jd@acme.com')).toEqual({ firstName: 'Jane', lastName: 'Doe' });
    expect(personNameFromSender('"Mary Ann Lee"', 'x@acme.com')).toEqual({ firstName: 'Mary Ann', lastName: 'Lee' });
    expect(personNameFromSender('', 'jane.doe+news@acme.com')).toEqual({ firstName: 'Jane', lastName: 'Doe' });
    expect(personNameFromSender('jane.doe@acme.com', 'jane.doe@acme.com')).toEqual({ firstName: 'Jane', lastName: 'Doe' });
    expect(personNameFromSender(null, 'info@acme.com')).toEqual({ firstName: 'Info', lastName: '' });
    expect(personNameFromSender('Prince', 'p@acme.com')).toEqual({ firstName: 'Prince', lastName: '' });
  });

  it('lists distinct participants without the user', () => {
    expect(participantEmails(['A@x.com', 'me@corp.com', 'a@x.com', '', null, 'b@y.com', 'bogus'], 'Me@Corp.com')).toEqual([
      'a@x.com',
      'b@y.com',
    ]);
  });
});
