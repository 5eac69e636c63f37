import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import https from 'node:https';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { GuardedHttpClient, ALLOWED_PORTS } from './guarded-client';
import { blockedReason } from './address-policy';
import { WebFetchError } from './port';
import { startFakeWeb, html, redirect, raw, type FakeWebServer } from '../../../test/fakes/web-server';

// Two fake servers on loopback: `site` is on the client's test allowlist; `secret` is not and stands
// for an internal service: it must never receive a request.
let site: FakeWebServer;
let secret: FakeWebServer;
let client: GuardedHttpClient;

beforeAll(async () => {
  secret = await startFakeWeb({ '/': html('<p>INTERNAL SECRET</p>'), '/admin': html('<p>INTERNAL SECRET</p>') });
  site = await startFakeWeb({
    '/page': html(`<!doctype html><html><head><title>Acme &amp; Co — About</title><style>body{color:red}</style>
      <script>window.secret = "script text";</script></head>
      <body><nav><a href="/home">Home</a></nav><h1>About Acme</h1><p>Acme makes <b>anvils</b> since 1947.</p>
      <img src="x.png" alt="logo"><p>See <a href="https://acme.example/team">our team</a>.</p><noscript>enable js</noscript></body></html>`),
    '/text': raw(200, { 'content-type': 'text/plain' }, 'plain text body'),
    '/json': raw(200, { 'content-type': 'application/json; charset=utf-8' }, '{"name":"Acme","employees":120}'),
    '/image': raw(200, { 'content-type': 'image/png' }, Buffer.from([0x89, 0x50, 0x4e, 0x47])),
    '/none': raw(200, {}, 'no type'),
    '/missing': raw(404, { 'content-type': 'text/html' }, '<p>gone</p>'),
    '/no-location': raw(302, { 'content-type': 'text/html' }, '<p>moved somewhere</p>'),
    '/huge-binary': (_req, res) => {
      // An endless binary download: refused by its type without reading the body.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (res.write(chunk)) {
          /* until the socket pushes back */
        }
      };
      res.on('drain', pump);
      pump();
    },
    '/big': raw(200, { 'content-type': 'text/plain' }, 'x'.repeat(300_000)),
    '/gzip': raw(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }, zlib.gzipSync('<p>compressed hello</p>')),
    '/bomb': raw(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }, zlib.gzipSync(Buffer.alloc(50 * 1024 * 1024, 'a'))),
    '/latin1': raw(200, { 'content-type': 'text/plain; charset=iso-8859-1' }, Buffer.from([0x63, 0x61, 0x66, 0xe9])),
    '/hang': () => {
      /* never answers */
    },
    '/to-page': redirect('/page', 301),
    '/loop': redirect('/loop'),
    '/chain1': redirect('/chain2'),
    '/chain2': redirect('/chain3', 307),
    '/chain3': redirect('/page', 308),
  });
  client = new GuardedHttpClient({ testAllowlist: [site.allowEntry], maxBytes: 100_000, timeoutMs: 5_000 });
});

afterAll(async () => {
  await site?.close();
  await secret?.close();
});

async function refusal(p: Promise<unknown>): Promise<WebFetchError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'the fetch must be refused').toBeInstanceOf(WebFetchError);
  return err as WebFetchError;
}

describe('address policy', () => {
  const blocked = [
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '192.0.0.170',
    '192.0.2.1',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '0x7f000001',
    '2130706433',
    '017700000001',
    '0177.0.0.1',
    '127.1',
    '0x7f.1',
    '0xa9.0xfe.0xa9.0xfe',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::a00:1',
    '2002:7f00:1::',
    '2002:a9fe:a9fe::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'fe80::1',
    'febf::1',
    'fc00::1',
    'fd12:3456::1',
    'fec0::1',
    'ff02::1',
    'ff0e::1',
    '2001:db8::1',
    '100::1',
    'not-an-ip',
  ];
  it.each(blocked)('refuses %s', (ip) => {
    expect(blockedReason(ip)).not.toBeNull();
  });
  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])(
    'allows the public address %s',
    (ip) => {
      expect(blockedReason(ip)).toBeNull();
    },
  );
});

describe('guarded client: refused before any connection', () => {
  // Each of these names (or resolves to) a non-public address, or breaks a URL rule.
  const corpus = (p: number) => [
    `http://127.0.0.1:${p}/`,
    `http://localhost:${p}/`,
    `http://127.1:${p}/`,
    `http://2130706433:${p}/`,
    `http://0x7f000001:${p}/`,
    `http://0x7f.0.0.1:${p}/`,
    `http://0177.0.0.1:${p}/`,
    `http://017700000001:${p}/`,
    `http://127.0.0.1.:${p}/`,
    `http://[::1]:${p}/`,
    `http://[::ffff:127.0.0.1]:${p}/`,
    `http://[::ffff:7f00:1]:${p}/`,
    `http://[0:0:0:0:0:ffff:127.0.0.1]:${p}/`,
    `http://[64:ff9b::127.0.0.1]:${p}/`,
    `http://[2002:7f00:1::]:${p}/`,
    `http://[::]:${p}/`,
    `http://0.0.0.0:${p}/`,
    `http://0:${p}/`,
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'http://2852039166/latest/meta-data/',
    'http://0xa9fea9fe/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    `http://evil.example@127.0.0.1:${p}/`,
    `http://user:pass@127.0.0.1:${p}/`,
    `http://127.0.0.1:${p}\\@evil.example/`,
    'file:///etc/passwd',
    'ftp://127.0.0.1/',
    'gopher://127.0.0.1:6379/_INFO',
    'data:text/html,<p>x</p>',
    'javascript:alert(1)',
    'not a url',
    '',
  ];

  it('refuses the whole corpus and the internal server never sees a request', async () => {
    for (const url of corpus(secret.port)) {
      const err = await refusal(client.fetchPage(url));
      expect(['blocked', 'invalid_url']).toContain(err.kind);
    }
    expect(secret.requests).toEqual([]);
  });

  it('refuses overlong URLs', async () => {
    const err = await refusal(client.fetchPage(site.url(`/page?q=${'a'.repeat(2100)}`)));
    expect([err.kind, err.message]).toEqual(['invalid_url', 'Refused: the URL is longer than 2048 characters.']);
  });

  it('refuses userinfo even on an allowlisted address', async () => {
    const err = await refusal(client.fetchPage(`http://user@127.0.0.1:${site.port}/page`));
    expect(err.kind).toBe('invalid_url');
    expect(site.requests.some((r) => r.path === '/page' && r.host?.includes('user'))).toBe(false);
  });

  it('refuses names whose DNS answers hold any non-public address (every address checked)', async () => {
    const answers: Record<string, { address: string; family: number }[]> = {
      'internal.test': [{ address: '10.1.2.3', family: 4 }],
      'metadata.test': [{ address: '169.254.169.254', family: 4 }],
      'mixed.test': [
        { address: '93.184.215.14', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
      'mapped.test': [{ address: '::ffff:192.168.0.1', family: 6 }],
      'nat64.test': [{ address: '64:ff9b::a00:1', family: 6 }],
      'ula.test': [{ address: 'fd00::5', family: 6 }],
      'cgnat.test': [{ address: '100.100.100.100', family: 4 }],
    };
    const dnsClient = new GuardedHttpClient({ resolve: async (h) => answers[h] ?? [] });
    for (const host of Object.keys(answers)) {
      const err = await refusal(dnsClient.fetchPage(`http://${host}/`));
      expect(err.kind, host).toBe('blocked');
      expect(err.message).toContain('not a public internet address');
    }
    expect((await refusal(dnsClient.fetchPage('http://nowhere.test/'))).kind).toBe('dns');
  });

  it('allows only the documented ports', async () => {
    const dnsClient = new GuardedHttpClient({ resolve: async () => [{ address: '93.184.215.14', family: 4 }] });
    for (const port of [22, 25, 6379, 5432, 11211]) {
      const err = await refusal(dnsClient.fetchPage(`http://public.test:${port}/`));
      expect(err.kind).toBe('invalid_url');
      expect(err.message).toContain(`port ${port} is not allowed`);
    }
    expect(ALLOWED_PORTS).toEqual([80, 443, 8080, 8443]);
  });

  it('the allowlist is exact (address and port) and refused in production', async () => {
    const other = new GuardedHttpClient({ testAllowlist: [{ address: '127.0.0.1', port: secret.port + 1 }] });
    expect((await refusal(other.fetchPage(secret.url('/')))).kind).toBe('blocked');
    expect(secret.requests).toEqual([]);
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      expect(() => new GuardedHttpClient({ testAllowlist: [site.allowEntry] })).toThrow(/tests only/);
      expect(() => new GuardedHttpClient({ testCa: 'x' })).toThrow(/tests only/);
      expect(() => new GuardedHttpClient({})).not.toThrow();
    } finally {
      process.env.NODE_ENV = before;
    }
  });
});

describe('guarded client: redirects', () => {
  it('checks every hop: redirects to internal, metadata, encoded and mapped addresses are refused', async () => {
    const targets = [
      secret.url('/admin'),
      `http://localhost:${secret.port}/admin`,
      `http://2130706433:${secret.port}/admin`,
      `http://0x7f.1:${secret.port}/admin`,
      `http://[::ffff:127.0.0.1]:${secret.port}/admin`,
      `http://[::1]:${secret.port}/admin`,
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
      'http://10.0.0.1/',
      `http://user:pw@127.0.0.1:${site.port}/page`,
      'file:///etc/passwd',
    ];
    for (const [i, target] of targets.entries()) {
      site.route(`/r${i}`, redirect(target));
      // …also one hop later, behind a harmless first redirect on the allowed site.
      site.route(`/hop${i}`, redirect(`/r${i}`, 301));
      for (const start of [`/r${i}`, `/hop${i}`]) {
        const err = await refusal(client.fetchPage(site.url(start)));
        expect(['blocked', 'invalid_url'], `${start} → ${target}`).toContain(err.kind);
      }
    }
    expect(secret.requests).toEqual([]);
  });

  it('follows redirects within the allowed site and reports the final URL', async () => {
    const page = await client.fetchPage(site.url('/chain1'));
    expect(page.url).toBe(site.url('/page'));
    expect(page.requestedUrl).toBe(site.url('/chain1'));
    expect(page.text).toContain('About Acme');
    const one = await client.fetchPage(site.url('/to-page'));
    expect(one.title).toBe('Acme & Co — About');
  });

  it('stops after the redirect limit', async () => {
    const err = await refusal(new GuardedHttpClient({ testAllowlist: [site.allowEntry], maxRedirects: 3 }).fetchPage(site.url('/loop')));
    expect(err.kind).toBe('too_many_redirects');
    const hops = site.requests.filter((r) => r.path === '/loop').length;
    expect(hops).toBe(4);
  });
});

describe('guarded client: content', () => {
  it('reduces HTML to readable text without scripts, styles or images, keeping link targets', async () => {
    const page = await client.fetchPage(site.url('/page'));
    expect(page.status).toBe(200);
    expect(page.contentType).toBe('text/html');
    expect(page.title).toBe('Acme & Co — About');
    expect(page.text).toContain('About Acme');
    expect(page.text).toContain('Acme makes anvils since 1947.');
    expect(page.text).toContain('our team [https://acme.example/team]');
    expect(page.text).not.toContain('script text');
    expect(page.text).not.toContain('color:red');
    expect(page.text).not.toContain('x.png');
    expect(page.text).not.toContain('<p>');
    expect(page.truncated).toBe(false);
  });

  it('returns plain text as is, pretty-prints JSON, decodes the declared charset and gzip', async () => {
    expect((await client.fetchPage(site.url('/text'))).text).toBe('plain text body');
    const json = await client.fetchPage(site.url('/json'));
    expect(json.contentType).toBe('application/json');
    expect(JSON.parse(json.text)).toEqual({ name: 'Acme', employees: 120 });
    expect((await client.fetchPage(site.url('/latin1'))).text).toBe('café');
    expect((await client.fetchPage(site.url('/gzip'))).text).toBe('compressed hello');
  });

  it('refuses other content types and error statuses', async () => {
    expect((await refusal(client.fetchPage(site.url('/image')))).kind).toBe('unsupported_content_type');
    expect((await refusal(client.fetchPage(site.url('/none')))).kind).toBe('unsupported_content_type');
    expect((await refusal(client.fetchPage(site.url('/huge-binary')))).kind).toBe('unsupported_content_type');
    const noLocation = await refusal(client.fetchPage(site.url('/no-location')));
    expect([noLocation.kind, noLocation.status]).toEqual(['http_status', 302]);
    const missing = await refusal(client.fetchPage(site.url('/missing')));
    expect(missing.kind).toBe('http_status');
    expect(missing.status).toBe(404);
  });

  it('caps the body, also after decompression', async () => {
    const big = await client.fetchPage(site.url('/big'));
    expect(big.truncated).toBe(true);
    expect(big.text.length).toBe(100_000);
    const bomb = await client.fetchPage(site.url('/bomb'));
    expect(bomb.truncated).toBe(true);
    expect(bomb.text.length).toBe(100_000);
  });

  it('gives up at the time cap, and on cancel', async () => {
    const quick = new GuardedHttpClient({ testAllowlist: [site.allowEntry], timeoutMs: 300 });
    expect((await refusal(quick.fetchPage(site.url('/hang')))).kind).toBe('timeout');
    const ac = new AbortController();
    const p = client.fetchPage(site.url('/hang'), { signal: ac.signal });
    ac.abort();
    expect((await refusal(p)).kind).toBe('cancelled');
  });

  it('connects to the address it checked (a name resolved once per hop, Host kept)', async () => {
    let lookups = 0;
    const pinned = new GuardedHttpClient({
      testAllowlist: [site.allowEntry],
      resolve: async () => {
        lookups++;
        // A rebinding resolver: the first answer is the allowed address, any later one internal.
        return lookups === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }];
      },
    });
    const page = await pinned.fetchPage(`http://pages.test:${site.port}/page`);
    expect(page.text).toContain('About Acme');
    expect(lookups).toBe(1);
    expect(site.requests.at(-1)?.host).toBe(`pages.test:${site.port}`);
  });
});

describe('guarded client: https to the checked address', () => {
  const tls = path.resolve(import.meta.dirname, '../../../test/fixtures/tls');
  let server: https.Server;
  let port: number;
  const hosts: string[] = [];

  beforeAll(async () => {
    server = https.createServer(
      { key: fs.readFileSync(path.join(tls, 'pages.test.key')), cert: fs.readFileSync(path.join(tls, 'pages.test.pem')) },
      (req, res) => {
        hosts.push(String(req.headers.host));
        res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Secure</title><p>over tls</p>');
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  const tlsClient = () =>
    new GuardedHttpClient({
      testAllowlist: [{ address: '127.0.0.1', port }],
      testCa: fs.readFileSync(path.join(tls, 'ca.pem')),
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });

  it('connects to the pinned address and still verifies the certificate against the host name', async () => {
    const page = await tlsClient().fetchPage(`https://pages.test:${port}/`);
    expect(page.title).toBe('Secure');
    expect(page.text).toBe('over tls');
    expect(hosts.at(-1)).toBe(`pages.test:${port}`);
    // Same address, a name the certificate does not cover: refused by TLS.
    const err = await refusal(tlsClient().fetchPage(`https://other.test:${port}/`));
    expect(err.kind).toBe('network');
    expect(err.message).toMatch(/altnames|certificate/i);
  });
});
