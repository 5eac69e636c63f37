// Outbound calls to a URL a user typed (an organization's own AI provider base URL today; CRM
// instance URLs and data-provider URLs later): the same address policy as the research agents'
// page fetches (./address-policy.ts — public unicast addresses only), with the connection pinned to
// the checked addresses and every redirect hop checked again, plus one operator escape hatch:
// OUTBOUND_ALLOWED_PRIVATE_HOSTS lists the private hosts (in-house model servers, gateways) that
// may be reached anyway. Settings the operator writes (OPENAI_BASE_URL, SEARCH_BASE_URL…) are not
// checked: only what users enter is.
//
// Built on undici (the library behind Node's own fetch): its Agent takes a custom connector, so the
// check runs where the socket is opened — for the first request, for every redirect and for every
// new pooled connection — and the socket connects to the very address that was checked (no second
// DNS answer a rebinding server could change). TLS still verifies the certificate against the name.
import net from 'node:net';
import dns from 'node:dns/promises';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import ipaddr from 'ipaddr.js';
import { blockedReason } from './address-policy';
import type { AllowedPrivateHost } from '../../lib/private-hosts';

export { parseAllowedPrivateHosts, type AllowedPrivateHost } from '../../lib/private-hosts';

/** Thrown (as the `cause` of fetch's TypeError) when a URL's host may not be reached. */
export class OutboundRefusedError extends Error {
  readonly code = 'OUTBOUND_REFUSED';
}

export interface OutboundOptions {
  allowedPrivateHosts: readonly AllowedPrivateHost[];
  /** Resolves a name to all its addresses (tests of name resolution); default dns.lookup. */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
  /** Connection timeout in ms (undici's default 10 s). */
  connectTimeoutMs?: number;
}

function addressAllowed(address: string, port: number, allowed: readonly AllowedPrivateHost[]): boolean {
  let a: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    a = ipaddr.process(address);
  } catch {
    return false;
  }
  return allowed.some(
    (e) => e.kind === 'cidr' && (e.port === null || e.port === port) && a.kind() === e.range[0].kind() && a.match(e.range),
  );
}

/**
 * The addresses a connection to host:port may use, each checked: a public address, or a private one
 * the operator allowed. Throws OutboundRefusedError with a message fit for the user.
 */
export async function checkOutboundHost(
  hostname: string,
  port: number,
  opts: OutboundOptions,
): Promise<{ address: string; family: number }[]> {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!host) throw new OutboundRefusedError('The URL has no host.');
  const nameAllowed = opts.allowedPrivateHosts.some((e) => e.kind === 'name' && e.name === host && (e.port === null || e.port === port));
  let addresses: { address: string; family: number }[];
  if (net.isIP(host)) {
    addresses = [{ address: host, family: net.isIP(host) }];
  } else {
    if (/^[0-9.]+$/.test(host) || /^0x[0-9a-f.]*$/i.test(host))
      throw new OutboundRefusedError(`The host ${host} is not a valid name or address.`);
    try {
      addresses = await (opts.resolve ?? ((h: string) => dns.lookup(h, { all: true, verbatim: true })))(host);
    } catch {
      throw new OutboundRefusedError(`The host ${host} could not be resolved.`);
    }
    if (addresses.length === 0) throw new OutboundRefusedError(`The host ${host} could not be resolved.`);
  }
  if (nameAllowed) return addresses;
  for (const a of addresses) {
    if (addressAllowed(a.address, port, opts.allowedPrivateHosts)) continue;
    const reason = blockedReason(a.address);
    if (reason) {
      throw new OutboundRefusedError(
        `${host} is not a public internet address (${reason}). Private, internal and local addresses are refused ` +
          `unless the server's operator allows the host (OUTBOUND_ALLOWED_PRIVATE_HOSTS).`,
      );
    }
  }
  return addresses;
}

/** Checks a URL typed by a user before anything is sent (scheme, no user:password@, host policy). */
export async function checkOutboundUrl(raw: string, opts: OutboundOptions): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefusedError('Not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefusedError('Only http and https URLs are allowed.');
  if (url.username || url.password) throw new OutboundRefusedError('URLs with a user name or password are not allowed.');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  await checkOutboundHost(url.hostname, port, opts);
}

export type OutboundFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A fetch whose every connection is checked by checkOutboundHost and pinned to the checked address
 * (redirects included: each new connection passes the connector). Give it to what takes a `fetch`
 * (the LLM adapter, SDKs) or call it directly. One Agent (connection pool) per returned function.
 */
export function createOutboundFetch(opts: OutboundOptions): OutboundFetch {
  const base = buildConnector({ timeout: opts.connectTimeoutMs ?? 10_000 });
  const agent = new Agent({
    connect: (connectOpts, callback) => {
      const protocol = connectOpts.protocol;
      const port = connectOpts.port ? Number(connectOpts.port) : protocol === 'https:' ? 443 : 80;
      const hostname = connectOpts.hostname.replace(/^\[|\]$/g, '');
      checkOutboundHost(hostname, port, opts).then(
        (addresses) => {
          const pinned = addresses[0];
          base(
            {
              ...connectOpts,
              hostname: pinned.address,
              // SNI and the certificate check use the name, the socket the checked address.
              servername: connectOpts.servername || (net.isIP(hostname) ? undefined : hostname),
            } as Parameters<typeof base>[0],
            callback,
          );
        },
        (err: unknown) => callback(err as Error, null),
      );
    },
  });
  return ((input: string | URL | Request, init?: RequestInit) =>
    undiciFetch(
      input as Parameters<typeof undiciFetch>[0],
      { ...(init as object), dispatcher: agent } as Parameters<typeof undiciFetch>[1],
    )) as unknown as OutboundFetch;
}

/** True when an error (or its cause chain) is an outbound refusal. */
export function outboundRefusal(err: unknown): OutboundRefusedError | null {
  for (let e: unknown = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    if (e instanceof OutboundRefusedError) return e;
  }
  return null;
}

const shared = new Map<string, OutboundFetch>();
/** The process's outbound fetch for an allowlist (one connection pool per allowlist). */
export function outboundFetchFor(config: {
  OUTBOUND_ALLOWED_PRIVATE_HOSTS: string;
  allowedPrivateHosts: readonly AllowedPrivateHost[];
}): OutboundFetch {
  let f = shared.get(config.OUTBOUND_ALLOWED_PRIVATE_HOSTS);
  if (!f) {
    f = createOutboundFetch({ allowedPrivateHosts: config.allowedPrivateHosts });
    shared.set(config.OUTBOUND_ALLOWED_PRIVATE_HOSTS, f);
  }
  return f;
}
