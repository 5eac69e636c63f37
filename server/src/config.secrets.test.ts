import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, DEV_REALTIME_SECRET, DEV_SECRETS_KEY, LOCAL_SECRETS_FILE } from './config';

describe('development secrets: generated on first start, kept in the data directory', () => {
  const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ds-secrets-'));

  it('development without REALTIME_SECRET / SECRETS_KEY uses random values from DATA_DIR, never the public ones from the source', () => {
    const dir = tmp();
    const a = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir });
    expect(a.REALTIME_SECRET).not.toBe(DEV_REALTIME_SECRET);
    expect(a.SECRETS_KEY).not.toBe(DEV_SECRETS_KEY);
    expect(a.REALTIME_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(a.SECRETS_KEY).not.toBe(a.REALTIME_SECRET);
    const file = path.join(dir, LOCAL_SECRETS_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // Every later process of the install reads the same values.
    const b = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir });
    expect([b.REALTIME_SECRET, b.SECRETS_KEY]).toEqual([a.REALTIME_SECRET, a.SECRETS_KEY]);
    // Another install gets its own.
    expect(loadConfig({ NODE_ENV: 'development', DATA_DIR: tmp() }).SECRETS_KEY).not.toBe(a.SECRETS_KEY);
  });

  it('values from the environment win and nothing is written', () => {
    const dir = tmp();
    const c = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir, REALTIME_SECRET: 'r'.repeat(40), SECRETS_KEY: 's'.repeat(40) });
    expect([c.REALTIME_SECRET, c.SECRETS_KEY]).toEqual(['r'.repeat(40), 's'.repeat(40)]);
    expect(fs.existsSync(path.join(dir, LOCAL_SECRETS_FILE))).toBe(false);
  });
});
