import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOutboundFetch, checkOutboundUrl, parseAllowedPrivateHosts, outboundRefusal } from './outbound';

/** A loopback server that counts its requests and answers JSON (or a redirect to ?to=). */
async function server() {
  let hits = 0;
  const s = http.createServer((req, res) => {
    hits += 1;
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
    if (to) {
      res.writeHead(302, { location: to });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true }));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  return { port, url: `http://127.0.0.1:${port}`, hits: () => hits, close: () => new Promise<void>((r) => s.close(() => r())) };
}

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    const r = outboundRefusal(err);
    if (r) return r.message;
    throw err;
  }
  throw new Error('not refused');
}

describe('outbound fetch to user-entered URLs (address policy + operator allowlist)', () => {
  let a: Awaited<ReturnType<typeof server>>;
  let b: Awaited<ReturnType<typeof server>>;
  beforeAll(async () => {
    a = await server();
    b = await server();
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('refuses private, loopback, link-local (cloud metadata) and other internal addresses without sending anything', async () => {
    const f = createOutboundFetch({ allowedPrivateHosts: [], connectTimeoutMs: 2000 });
    for (const url of [
      `${a.url}/models`,
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1:8080/',
      'http://[::1]:8080/',
      'http://0x7f.1/',
      'http://2130706433/',
      'http://[::ffff:127.0.0.1]/',
    ]) {
      expect(await refusal(f(url))).toMatch(/not a public internet address/);
    }
    expect(a.hits()).toBe(0);
    // A name that resolves to a private address is refused by its address.
    expect(
      await refusal(
        createOutboundFetch({ allowedPrivateHosts: [], resolve: async () => [{ address: '169.254.169.254', family: 4 }] })(
          'http://metadata.example.com/',
        ),
      ),
    ).toMatch(/169\.254/);
    // One private record among public ones refuses the host.
    expect(
      await refusal(
        checkOutboundUrl('https://mixed.example.com/', {
          allowedPrivateHosts: [],
          resolve: async () => [
            { address: '93.184.216.34', family: 4 },
            { address: '10.1.2.3', family: 4 },
          ],
        }),
      ),
    ).toMatch(/10\.0\.0\.0\/8/);
  });

  it('refuses URLs with credentials and other schemes', async () => {
    const opts = { allowedPrivateHosts: [] };
    expect(await refusal(checkOutboundUrl('http://user:pw@example.com/', opts))).toMatch(/user name or password/);
    expect(await refusal(checkOutboundUrl('file:///etc/passwd', opts))).toMatch(/http and https/);
  });

  it('reaches a private host the operator allowed (address, address:port, range or name), and only that port when one is given', async () => {
    for (const allow of ['127.0.0.1', `127.0.0.1:${a.port}`, '127.0.0.0/8', `localhost:${a.port}`]) {
      const f = createOutboundFetch({
        allowedPrivateHosts: parseAllowedPrivateHosts(allow),
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      });
      const host = allow.startsWith('localhost') ? `http://localhost:${a.port}` : a.url;
      const res = await f(`${host}/models`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
    }
    const onlyA = createOutboundFetch({ allowedPrivateHosts: parseAllowedPrivateHosts(`127.0.0.1:${a.port}`) });
    const before = b.hits();
    expect(await refusal(onlyA(`${b.url}/models`))).toMatch(/not a public internet address/);
    expect(b.hits()).toBe(before);
  });

  it('checks every redirect hop: an allowed host cannot redirect to one that is not', async () => {
    const f = createOutboundFetch({ allowedPrivateHosts: parseAllowedPrivateHosts(`127.0.0.1:${a.port}`) });
    const before = b.hits();
    expect(await refusal(f(`${a.url}/start?to=${encodeURIComponent(`${b.url}/secret`)}`))).toMatch(/not a public internet address/);
    expect(b.hits()).toBe(before);
    expect(await refusal(f(`${a.url}/start?to=${encodeURIComponent('http://169.254.169.254/latest')}`))).toMatch(/169\.254/);
  });

  it('connects to the address that was checked (no second resolution)', async () => {
    let calls = 0;
    // First answer allowed (loopback, allowlisted), a later one would be metadata: only one lookup happens per connection.
    const resolve = async () => (calls++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '169.254.169.254', family: 4 }]);
    const f = createOutboundFetch({ allowedPrivateHosts: parseAllowedPrivateHosts('127.0.0.1'), resolve });
    const res = await f(`http://rebind.example.com:${a.port}/models`);
    expect(res.status).toBe(200);
    expect(calls).toBe(1);
  });

  it('parses the allowlist and rejects malformed entries', () => {
    expect(
      parseAllowedPrivateHosts(' llm.internal , 10.0.5.0/24, [fd00::5]:8000,127.0.0.1:11434 ').map((e) =>
        e.kind === 'name' ? `${e.name}:${e.port}` : `${e.range[0].toString()}/${e.range[1]}:${e.port}`,
      ),
    ).toEqual(['llm.internal:null', '10.0.5.0/24:null', 'fd00::5/128:8000', '127.0.0.1/32:11434']);
    expect(() => parseAllowedPrivateHosts('10.0.0.0/99')).toThrow(/bad range/);
    expect(() => parseAllowedPrivateHosts('host:abc')).toThrow(/bad port/);
  });
});
