import { describe, it, expect } from 'vitest';
import { isAuthError } from './auth-errors';

describe('isAuthError (spec 000 §4 Session)', () => {
  it.each([
    new Error('Unauthorized'),
    new Error('unauthorised request'),
    new Error('Invalid token'),
    new Error('Token expired'),
    new Error('Request failed with status code 401'),
    new Error('Request failed with status code 403'),
    new Error('Session expired: please sign in again'),
    new Error('Forbidden: you do not have permission to do this'),
    'Unauthorized: please sign in',
    'Session Expired',
  ])('counts %s', (err) => {
    expect(isAuthError(err)).toBe(true);
  });

  it('counts errors carrying status 401 or 403 whatever their message', () => {
    expect(isAuthError({ status: 401, message: 'nope' })).toBe(true);
    expect(isAuthError(Object.assign(new Error('whatever'), { status: 403 }))).toBe(true);
    expect(isAuthError({ status: '401' })).toBe(true);
  });

  it.each([
    new TypeError("Cannot read properties of undefined (reading 'token')"),
    new TypeError("Cannot read property 'token' of null"),
    new TypeError("Cannot read properties of null (reading 'accessToken')"),
    new TypeError("undefined is not an object (evaluating 'session.token')"),
    new TypeError("null is not an object (evaluating 'user.token')"),
    new TypeError('user.token is undefined'),
    new TypeError('response.token is null'),
    new TypeError('can\'t access property "token", session is undefined'),
  ])('does not count the null/undefined access error %s', (err) => {
    expect(isAuthError(err)).toBe(false);
  });

  it.each([
    null,
    undefined,
    '',
    new Error(''),
    new Error('Network Error'),
    new Error('Request failed with status code 500'),
    new Error('tokenizer failed'),
    { status: 500, message: 'Internal server error' },
    42,
  ])('does not count %s', (err) => {
    expect(isAuthError(err)).toBe(false);
  });
});
