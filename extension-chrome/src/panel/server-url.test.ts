import { describe, expect, it } from 'vitest';
import { SERVER_URL_MESSAGES, parseServerUrl } from './server-url';

describe('parseServerUrl', () => {
  it('keeps the origin; a bare host gets https, this computer http', () => {
    expect(parseServerUrl(' https://dealscout.example.com/ ')).toEqual({ origin: 'https://dealscout.example.com' });
    expect(parseServerUrl('dealscout.example.com')).toEqual({ origin: 'https://dealscout.example.com' });
    expect(parseServerUrl('localhost:3000')).toEqual({ origin: 'http://localhost:3000' });
    expect(parseServerUrl('http://127.0.0.1:8080')).toEqual({ origin: 'http://127.0.0.1:8080' });
  });
  it('refuses what is not a server address, and clear-text http to another machine', () => {
    expect(parseServerUrl('  ')).toEqual({ error: SERVER_URL_MESSAGES.required });
    expect(parseServerUrl('ftp://x.com')).toEqual({ error: SERVER_URL_MESSAGES.invalid });
    expect(parseServerUrl('https://x.com/app')).toEqual({ error: SERVER_URL_MESSAGES.invalid });
    expect(parseServerUrl('https://user:pw@x.com')).toEqual({ error: SERVER_URL_MESSAGES.invalid });
    expect(parseServerUrl('http://dealscout.example.com')).toEqual({ error: SERVER_URL_MESSAGES.insecure });
  });
});
