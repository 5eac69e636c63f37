import { describe, it, expect } from 'vitest';
import {
  normalizeDomain,
  isValidUrl,
  companyProblems,
  contactProblems,
  csvCell,
  clampPageIndex,
  totalPagesFor,
  COMPANY_MESSAGES,
  CONTACT_MESSAGES,
  ENTITY_MESSAGES,
  ROWS_PER_PAGE_CHOICES,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
} from './records';

describe('normalizeDomain', () => {
  it.each([
    ['acme.com', 'acme.com'],
    ['https://www.acme.com/about', 'acme.com'],
    ['http://acme.com', 'acme.com'],
    ['HTTPS://WWW.ACME.COM', 'acme.com'],
    ['www.Acme.com/', 'acme.com'],
    ['  acme.com  ', 'acme.com'],
    ['acme.com:8080/x?y=1#z', 'acme.com'],
    ['acme.com?ref=1', 'acme.com'],
    ['acme.com#top', 'acme.com'],
    ['acme.com.', 'acme.com'],
    ['https://user:pw@www.acme.com:443/p', 'acme.com'],
    ['sub.acme.co.uk/path', 'sub.acme.co.uk'],
    ['www2.acme.com', 'www2.acme.com'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeDomain(input)).toBe(expected);
  });

  it('only strips a leading www.', () => {
    expect(normalizeDomain('acme.www.com')).toBe('acme.www.com');
  });
});

describe('isValidUrl', () => {
  it.each([
    'acme.com',
    'https://acme.com',
    'http://www.acme.com/about?x=1#y',
    'sub.acme.co.uk',
    'acme.io:8080/path',
    ' acme.com ',
    'A-B.example.ORG',
  ])('accepts %j', (v) => {
    expect(isValidUrl(v)).toBe(true);
  });

  it.each([
    '',
    'acme',
    'http://',
    'https://acme',
    'ftp://acme.com',
    'acme .com',
    'acme.c',
    '-acme.com',
    'acme-.com',
    'http//acme.com',
    'acme.com path',
  ])('rejects %j', (v) => {
    expect(isValidUrl(v)).toBe(false);
  });
});

describe('companyProblems (spec 002 §5 Company)', () => {
  it('a valid company has none', () => {
    expect(companyProblems({ name: 'Acme', website: 'acme.com' })).toEqual({});
    expect(companyProblems({ name: 'x'.repeat(255), website: `${'a'.repeat(251)}.com` })).toEqual({});
  });

  it('name and website are required (missing, null, empty or blank)', () => {
    for (const c of [{}, { name: null, website: null }, { name: '', website: '' }, { name: '   ', website: '  ' }]) {
      expect(companyProblems(c)).toEqual({ name: 'Company name is required', website: 'Company website is required' });
    }
  });

  it('name at most 255 characters', () => {
    expect(companyProblems({ name: 'x'.repeat(256), website: 'acme.com' })).toEqual({
      name: 'Company name must be at most 255 characters long',
    });
  });

  it("an invalid website is 'Invalid URL'", () => {
    expect(companyProblems({ name: 'Acme', website: 'not a url' })).toEqual({ website: 'Invalid URL' });
  });

  it('website at most 255 characters', () => {
    expect(companyProblems({ name: 'Acme', website: `${'a'.repeat(252)}.com` })).toEqual({
      website: 'URL must be at most 255 characters long',
    });
  });

  it('carries the spec texts', () => {
    expect(COMPANY_MESSAGES).toMatchObject({
      nameRequired: 'Company name is required',
      websiteRequired: 'Company website is required',
      invalidUrl: 'Invalid URL',
      urlMax: 'URL must be at most 255 characters long',
      duplicateDomain: 'Company with same domain already exists',
      updated: 'Company updated',
      created: 'Company created successfully',
      updateFailed: 'Failed to updated company',
      createFailed: 'Failed to create company',
    });
    expect(CONTACT_MESSAGES).toMatchObject({
      emailRequired: 'Email is required',
      invalidEmail: 'Invalid email',
      updated: 'Contact updated',
      created: 'Contact created successfully',
      updateFailed: 'Failed to updated contact',
      createFailed: 'Error creating contact',
    });
    expect(ENTITY_MESSAGES).toMatchObject({
      createFailed: 'An error occurred while creating the entity.',
      updateFailed: 'An error occurred while updating the entity.',
    });
  });
});

describe('contactProblems (spec 002 §5 Contact)', () => {
  it('a valid contact has none', () => {
    expect(contactProblems({ firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.com' })).toEqual({});
    expect(contactProblems({ firstName: 'a'.repeat(128), lastName: 'b'.repeat(128), email: `${'c'.repeat(119)}@acme.com` })).toEqual({});
  });

  it('every field is required', () => {
    for (const c of [{}, { firstName: null, lastName: null, email: null }, { firstName: ' ', lastName: '', email: '  ' }]) {
      expect(contactProblems(c)).toEqual({
        firstName: 'First name is required',
        lastName: 'Last name is required',
        email: 'Email is required',
      });
    }
  });

  it('names at most 128 characters', () => {
    expect(contactProblems({ firstName: 'a'.repeat(129), lastName: 'b'.repeat(129), email: 'ann@acme.com' })).toEqual({
      firstName: 'First name must be at most 128 characters long',
      lastName: 'Last name must be at most 128 characters long',
    });
  });

  it('email pattern and length', () => {
    expect(contactProblems({ firstName: 'Ann', lastName: 'Lee', email: 'ann@acme' })).toEqual({ email: 'Invalid email' });
    expect(contactProblems({ firstName: 'Ann', lastName: 'Lee', email: 'ann lee@acme.com' })).toEqual({ email: 'Invalid email' });
    expect(contactProblems({ firstName: 'Ann', lastName: 'Lee', email: `${'c'.repeat(120)}@acme.com` })).toEqual({
      email: 'Email must be at most 128 characters long',
    });
  });
});

describe('paging rules', () => {
  it('rows-per-page choices of spec 000 §9, 10 by default, at most 1000', () => {
    expect([...ROWS_PER_PAGE_CHOICES]).toEqual([20, 40, 60, 80, 100, 250, 500, 750, 1000]);
    expect(DEFAULT_PAGE_SIZE).toBe(10);
    expect(MAX_PAGE_SIZE).toBe(1000);
  });

  it('totalPagesFor: at least one page, rounded up', () => {
    expect(totalPagesFor(0, 10)).toBe(1);
    expect(totalPagesFor(1, 10)).toBe(1);
    expect(totalPagesFor(10, 10)).toBe(1);
    expect(totalPagesFor(11, 10)).toBe(2);
    expect(totalPagesFor(1_000_000, 50)).toBe(20_000);
  });

  it('clampPageIndex: from 0 to the last page, whole numbers', () => {
    expect(clampPageIndex(3, 5)).toBe(3);
    expect(clampPageIndex(9, 5)).toBe(4);
    expect(clampPageIndex(-2, 5)).toBe(0);
    expect(clampPageIndex(2.9, 5)).toBe(2);
    expect(clampPageIndex(Number.NaN, 5)).toBe(0);
    expect(clampPageIndex(Number.POSITIVE_INFINITY, 5)).toBe(0);
    expect(clampPageIndex(3, 0)).toBe(0);
    expect(clampPageIndex(0, 1)).toBe(0);
  });
});

describe('csvCell: formula-safe CSV cells', () => {
  it('empty for null and undefined; plain text and numbers unchanged', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('Acme')).toBe('Acme');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(true)).toBe('true');
  });

  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1+2', "'-1+2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    ['-', "'-"],
  ])('neutralises %j', (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it('neutralises a leading tab or carriage return (and quotes the cell)', () => {
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
  });

  it('leaves plain negative numbers alone', () => {
    expect(csvCell(-12)).toBe('-12');
    expect(csvCell('-12.5')).toBe('-12.5');
    expect(csvCell(-0.25)).toBe('-0.25');
  });

  it('quotes commas, quotes and newlines, doubling inner quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line1\nline2')).toBe('"line1\nline2"');
    expect(csvCell('x\r\ny')).toBe('"x\r\ny"');
    expect(csvCell(' padded ')).toBe('" padded "');
  });

  it('objects are written as JSON', () => {
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });
});
