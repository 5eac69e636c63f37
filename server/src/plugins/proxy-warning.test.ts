import { describe, it, expect, afterEach, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';
import { PROXY_MESSAGES, PROXY_WARNING_INTERVAL_MS } from './proxy-warning';

describe('a proxy in front without TRUST_PROXY is warned about', () => {
  let ctx: TestContext | null = null;
  afterEach(async () => {
    vi.useRealTimers();
    await ctx?.close();
    ctx = null;
  });

  async function start(env: Record<string, string>) {
    const lines: string[] = [];
    ctx = await createTestApp({
      env,
      logStream: {
        write: (l) => {
          lines.push(l);
        },
      },
    });
    const warnings = (msg: string) =>
      lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level === 40 && l.msg === msg);
    return { lines, warnings };
  }
  const health = (headers: Record<string, string> = {}) => ctx!.app.inject({ method: 'GET', url: '/health', headers });

  it('at start-up when PUBLIC_URL is https (a TLS proxy in front) and TRUST_PROXY is off', async () => {
    const { warnings } = await start({ PUBLIC_URL: 'https://dealscout.example.com' });
    expect(warnings(PROXY_MESSAGES.httpsWithoutTrustProxy)).toHaveLength(1);
  });

  it('when requests carry X-Forwarded-For: at the first one, then once per hour while they go on', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-29T08:00:00Z'));
    const { warnings } = await start({});
    await health();
    expect(warnings(PROXY_MESSAGES.forwardedWithoutTrustProxy)).toHaveLength(0);
    await health({ 'x-forwarded-for': '203.0.113.7' });
    await health({ 'x-forwarded-for': '203.0.113.8' });
    expect(warnings(PROXY_MESSAGES.forwardedWithoutTrustProxy)).toHaveLength(1);
    vi.setSystemTime(Date.now() + PROXY_WARNING_INTERVAL_MS - 1000);
    await health({ 'x-forwarded-for': '203.0.113.7' });
    expect(warnings(PROXY_MESSAGES.forwardedWithoutTrustProxy)).toHaveLength(1);
    vi.setSystemTime(Date.now() + 2000);
    await health({ 'x-forwarded-for': '203.0.113.7' });
    expect(warnings(PROXY_MESSAGES.forwardedWithoutTrustProxy)).toHaveLength(2);
  });

  it('never with TRUST_PROXY on', async () => {
    const { warnings } = await start({ PUBLIC_URL: 'https://dealscout.example.com', TRUST_PROXY: 'true' });
    await health({ 'x-forwarded-for': '203.0.113.7' });
    expect(warnings(PROXY_MESSAGES.httpsWithoutTrustProxy)).toHaveLength(0);
    expect(warnings(PROXY_MESSAGES.forwardedWithoutTrustProxy)).toHaveLength(0);
  });
});
