// The guarded HTTP client: the only way the research agents reach the web. A fetched URL comes from
// a language model that reads untrusted pages, so every request is treated as hostile:
//
// - http and https only; no userinfo (user:pass@); only the ports in ALLOWED_PORTS.
// - The host is parsed by the WHATWG URL parser, which already turns decimal, octal and hex IPv4
//   spellings (http://2130706433/, http://0x7f.1/, http://0177.0.0.1/) into dotted form; an IP
//   literal is checked as is, a name is resolved (dns.lookup, every address) and EVERY address must
//   be public (./address-policy.ts) — one private record refuses the whole host.
// - The connection goes to the addresses that were checked: the request's `lookup` hands the socket
//   those pinned addresses, so there is no second resolution a rebinding DNS server could answer
//   differently. TLS still verifies the certificate against the host name.
// - Redirects are followed by hand (at most maxRedirects hops), each hop checked exactly like the
//   first URL.
// - One deadline for the whole fetch (all hops, body included); a size cap on the decoded body
//   (decompression is capped too, so a zip bomb stops at the cap); only HTML, plain text and JSON.
// - HTML is reduced to readable text with html-to-text (see ARCHITECTURE.md for why).
//
// Tests reach fake pages on loopback through `testAllowlist`: exact address:port pairs, a constructor
// option (never read from the environment), refused when NODE_ENV is production.
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import dns from 'node:dns/promises';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';
import { documentText, inlineText } from '../../lib/html-text';
import { blockedReason, canonicalAddress } from './address-policy';
import { WebFetchError, type FetchedPage, type WebFetchPort } from './port';

/** Ports a URL may name (the defaults of http and https, and their common alternates). */
export const ALLOWED_PORTS: readonly number[] = [80, 443, 8080, 8443];

export const DEFAULT_GUARDED_FETCH = {
  maxRedirects: 5,
  timeoutMs: 15_000,
  /** Decoded body bytes read at most; the rest is cut (truncated: true). */
  maxBytes: 2 * 1024 * 1024,
  /** Characters of text handed back at most. */
  maxTextChars: 100_000,
  userAgent: 'DealscoutResearchAgent/1.0',
};

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/csv']);
const isJsonType = (t: string) => t === 'application/json' || t.endsWith('+json');

export interface GuardedClientOptions {
  maxRedirects?: number;
  timeoutMs?: number;
  maxBytes?: number;
  maxTextChars?: number;
  userAgent?: string;
  /**
   * TESTS ONLY: address:port pairs (e.g. { address: '127.0.0.1', port: 41234 }) that may be reached
   * although their address is not public. The constructor throws when this is set and NODE_ENV is
   * 'production'. Every other check (scheme, userinfo, content type, caps, redirects) still applies.
   */
  testAllowlist?: readonly { address: string; port: number }[];
  /** TESTS ONLY: the CA certificates trusted for https instead of the system's (refused in production, like testAllowlist). */
  testCa?: string | Buffer;
  /** For tests of name resolution: replaces dns.lookup (all addresses of a name). */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

interface Target {
  url: URL;
  hostname: string;
  port: number;
  addresses: { address: string; family: number }[];
}

export class GuardedHttpClient implements WebFetchPort {
  private readonly o: Required<Omit<GuardedClientOptions, 'testAllowlist' | 'resolve' | 'testCa'>>;
  private readonly ca: string | Buffer | undefined;
  private readonly allow: Set<string>;
  private readonly resolve: NonNullable<GuardedClientOptions['resolve']>;

  constructor(opts: GuardedClientOptions = {}) {
    const { testAllowlist, resolve, testCa, ...rest } = opts;
    this.o = { ...DEFAULT_GUARDED_FETCH, ...stripUndefined(rest) };
    if ((testAllowlist?.length || testCa) && process.env.NODE_ENV === 'production') {
      throw new Error('GuardedHttpClient: testAllowlist and testCa are for tests only and are refused when NODE_ENV is production');
    }
    this.ca = testCa;
    this.allow = new Set((testAllowlist ?? []).map((e) => `${canonicalAddress(e.address) ?? e.address}|${e.port}`));
    this.resolve = resolve ?? ((host) => dns.lookup(host, { all: true, verbatim: true }));
  }

  async fetchPage(rawUrl: string, opts: { signal?: AbortSignal } = {}): Promise<FetchedPage> {
    const timeout = AbortSignal.timeout(this.o.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    try {
      let url = parseUrl(rawUrl);
      for (let hop = 0; ; hop++) {
        const target = await this.check(url, signal);
        const res = await this.request(target, signal);
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.destroy();
          if (hop >= this.o.maxRedirects)
            throw new WebFetchError('too_many_redirects', `Refused: more than ${this.o.maxRedirects} redirects.`);
          url = parseUrl(res.headers.location, url);
          continue;
        }
        return await this.read(rawUrl, url, res, signal);
      }
    } catch (err) {
      if (err instanceof WebFetchError) throw err;
      if (opts.signal?.aborted) throw new WebFetchError('cancelled', 'Cancelled.');
      if (timeout.aborted) throw new WebFetchError('timeout', `Timed out after ${this.o.timeoutMs} ms.`);
      throw new WebFetchError('network', `Network error: ${(err as Error).message}`);
    }
  }

  /** Scheme, userinfo, port, then every address of the host. */
  private async check(url: URL, signal: AbortSignal): Promise<Target> {
    if (url.username || url.password) throw new WebFetchError('invalid_url', 'Refused: URLs with a user name or password are not fetched.');
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    if (!hostname) throw new WebFetchError('invalid_url', 'Refused: the URL has no host.');
    let addresses: { address: string; family: number }[];
    if (net.isIP(hostname)) {
      addresses = [{ address: hostname, family: net.isIP(hostname) }];
    } else {
      // A name the URL parser did not read as an address but that looks numeric (it would be read
      // by inet_aton-style resolvers in surprising ways): refuse it rather than resolve it.
      if (/^[0-9.]+$/.test(hostname) || /^0x[0-9a-f.]*$/i.test(hostname))
        throw new WebFetchError('invalid_url', 'Refused: the host is not a valid name or address.');
      try {
        addresses = await raceAbort(this.resolve(hostname), signal);
      } catch (err) {
        if (signal.aborted) throw err;
        throw new WebFetchError('dns', `The host ${hostname} could not be resolved.`);
      }
      if (addresses.length === 0) throw new WebFetchError('dns', `The host ${hostname} could not be resolved.`);
    }
    for (const a of addresses) {
      if (this.allow.has(`${canonicalAddress(a.address) ?? a.address}|${port}`)) continue;
      const reason = blockedReason(a.address);
      if (reason) {
        throw new WebFetchError(
          'blocked',
          `Refused: ${hostname} is not a public internet address (${reason}); private, internal and local addresses are never fetched.`,
        );
      }
    }
    // Checked after the address so that an allowlisted test server may use any port.
    if (!ALLOWED_PORTS.includes(port) && !addresses.every((a) => this.allow.has(`${canonicalAddress(a.address) ?? a.address}|${port}`))) {
      throw new WebFetchError('invalid_url', `Refused: port ${port} is not allowed (allowed: ${ALLOWED_PORTS.join(', ')}).`);
    }
    return { url, hostname, port, addresses };
  }

  private request(t: Target, signal: AbortSignal): Promise<http.IncomingMessage> {
    const pinned = t.addresses.map((a) => ({ address: a.address, family: a.family }));
    // Hands the socket the checked addresses only: no second DNS answer is ever used.
    const lookup: LookupFunction = (_host, options, cb) => {
      if (options.all) (cb as (e: null, a: typeof pinned) => void)(null, pinned);
      else cb(null, pinned[0].address, pinned[0].family);
    };
    const mod = t.url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = mod.request(
        {
          protocol: t.url.protocol,
          hostname: t.hostname,
          port: t.port,
          path: `${t.url.pathname}${t.url.search}`,
          method: 'GET',
          agent: false,
          lookup,
          signal,
          servername: net.isIP(t.hostname) ? undefined : t.hostname,
          ...(this.ca && t.url.protocol === 'https:' ? { ca: this.ca } : {}),
          headers: {
            'user-agent': this.o.userAgent,
            accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.1',
            'accept-encoding': 'gzip, deflate, br',
            'accept-language': 'en',
          },
        },
        resolve,
      );
      req.on('error', reject);
      req.end();
    });
  }

  private async read(requestedUrl: string, url: URL, res: http.IncomingMessage, signal: AbortSignal): Promise<FetchedPage> {
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      res.destroy();
      throw new WebFetchError('http_status', `The site answered HTTP ${status}.`, status);
    }
    const [typeRaw, ...params] = String(res.headers['content-type'] ?? '').split(';');
    const contentType = typeRaw.trim().toLowerCase();
    const kind = HTML_TYPES.has(contentType) ? 'html' : TEXT_TYPES.has(contentType) ? 'text' : isJsonType(contentType) ? 'json' : null;
    if (!kind) {
      res.destroy();
      throw new WebFetchError(
        'unsupported_content_type',
        `Not fetched: the content type ${contentType || '(none)'} is not HTML, text or JSON.`,
      );
    }
    const { bytes, truncated } = await readCapped(decoded(res), this.o.maxBytes, signal);
    const charset = params
      .map((p) => p.trim().toLowerCase())
      .find((p) => p.startsWith('charset='))
      ?.slice(8)
      .replace(/"/g, '');
    const raw = decodeText(bytes, charset);
    let title: string | null = null;
    let text: string;
    if (kind === 'html') {
      title = htmlTitle(raw);
      text = documentText(raw);
    } else if (kind === 'json') {
      try {
        text = JSON.stringify(JSON.parse(raw), null, 2);
      } catch {
        text = raw;
      }
    } else {
      text = raw;
    }
    let cut = truncated;
    if (text.length > this.o.maxTextChars) {
      text = text.slice(0, this.o.maxTextChars);
      cut = true;
    }
    return { requestedUrl, url: url.toString(), status, contentType, title, text, truncated: cut };
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Longer URLs are refused (no real page needs more; it bounds what a model can smuggle in one). */
export const MAX_URL_LENGTH = 2048;

function parseUrl(raw: string, base?: URL): URL {
  if (raw.length > MAX_URL_LENGTH) throw new WebFetchError('invalid_url', `Refused: the URL is longer than ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    throw new WebFetchError('invalid_url', 'Not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebFetchError('invalid_url', `Refused: only http and https URLs are fetched (not ${url.protocol}).`);
  url.hash = '';
  return url;
}

function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function decoded(res: http.IncomingMessage): Readable {
  const enc = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const pipeTo = (z: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress) => {
    res.on('error', (e) => z.destroy(e));
    return res.pipe(z);
  };
  if (enc === 'gzip' || enc === 'x-gzip') return pipeTo(zlib.createGunzip());
  if (enc === 'deflate') return pipeTo(zlib.createInflate());
  if (enc === 'br') return pipeTo(zlib.createBrotliDecompress());
  return res;
}

async function readCapped(stream: Readable, max: number, signal: AbortSignal): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  const onAbort = () => stream.destroy(signal.reason as Error);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const chunk of stream) {
      const buf = chunk as Buffer;
      if (size + buf.length > max) {
        chunks.push(buf.subarray(0, max - size));
        size = max;
        truncated = true;
        break;
      }
      chunks.push(buf);
      size += buf.length;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    stream.destroy();
  }
  return { bytes: Buffer.concat(chunks, size), truncated };
}

function decodeText(bytes: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function htmlTitle(html: string): string | null {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  if (!m) return null;
  const t = inlineText(m[1]);
  return t ? t.slice(0, 300) : null;
}
