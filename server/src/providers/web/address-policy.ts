// Which IP addresses the guarded client may connect to: public unicast internet addresses only.
// Two independent checks must both pass: our own explicit tables below (what we promise to block,
// readable in one place) and ipaddr.js's range() being 'unicast' (its list of special-purpose
// ranges from the IANA registries, kept up to date by a widely used library).
import ipaddr from 'ipaddr.js';

type Block = [cidr: string, reason: string];

/** IPv4 ranges refused (RFC 6890 special-purpose and other non-internet ranges). */
export const IPV4_BLOCKS: readonly Block[] = [
  ['0.0.0.0/8', '"this network" (0.0.0.0/8)'],
  ['10.0.0.0/8', 'private (10.0.0.0/8)'],
  ['100.64.0.0/10', 'carrier-grade NAT (100.64.0.0/10)'],
  ['127.0.0.0/8', 'loopback (127.0.0.0/8)'],
  ['169.254.0.0/16', 'link-local / cloud metadata (169.254.0.0/16)'],
  ['172.16.0.0/12', 'private (172.16.0.0/12)'],
  ['192.0.0.0/24', 'IETF protocol assignments (192.0.0.0/24)'],
  ['192.0.2.0/24', 'documentation (192.0.2.0/24)'],
  ['192.31.196.0/24', 'AS112 (192.31.196.0/24)'],
  ['192.52.193.0/24', 'AMT (192.52.193.0/24)'],
  ['192.88.99.0/24', '6to4 relay anycast (192.88.99.0/24)'],
  ['192.168.0.0/16', 'private (192.168.0.0/16)'],
  ['192.175.48.0/24', 'AS112 (192.175.48.0/24)'],
  ['198.18.0.0/15', 'benchmarking (198.18.0.0/15)'],
  ['198.51.100.0/24', 'documentation (198.51.100.0/24)'],
  ['203.0.113.0/24', 'documentation (203.0.113.0/24)'],
  ['224.0.0.0/4', 'multicast (224.0.0.0/4)'],
  ['240.0.0.0/4', 'reserved (240.0.0.0/4)'],
  ['255.255.255.255/32', 'broadcast'],
];

/**
 * IPv6: only global unicast (2000::/3) is considered at all — that alone refuses ::, ::1,
 * IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48,
 * discard 100::/64, unique-local fc00::/7, link-local fe80::/10, site-local fec0::/10 and multicast
 * ff00::/8 — and these parts of 2000::/3 are refused as well (embedded IPv4 forms and special use).
 */
export const IPV6_GLOBAL_UNICAST = '2000::/3';
export const IPV6_BLOCKS: readonly Block[] = [
  ['2001::/23', 'IETF protocol assignments incl. Teredo (2001::/23)'],
  ['2001:db8::/32', 'documentation (2001:db8::/32)'],
  ['2002::/16', '6to4, embeds an IPv4 address (2002::/16)'],
  ['3fff::/20', 'documentation (3fff::/20)'],
  ['5f00::/16', 'segment routing (5f00::/16)'],
];

const v4Blocks = IPV4_BLOCKS.map(([cidr, reason]) => [ipaddr.IPv4.parseCIDR(cidr), reason] as const);
const v6Blocks = IPV6_BLOCKS.map(([cidr, reason]) => [ipaddr.IPv6.parseCIDR(cidr), reason] as const);
const v6Global = ipaddr.IPv6.parseCIDR(IPV6_GLOBAL_UNICAST);

/**
 * Why an address may not be connected to, or null when it is a public unicast address.
 * Accepts any textual form ipaddr.js parses (including IPv4 in hex/octal/long forms and IPv6 with
 * embedded IPv4); anything unparsable is refused.
 */
export function blockedReason(ip: string): string | null {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(ip.replace(/^\[|\]$/g, ''));
  } catch {
    return 'not an IP address';
  }
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return `IPv6 embedding an IPv4 address (${v6.toIPv4Address().toString()})`;
    if (!v6.match(v6Global)) {
      const range = v6.range();
      return range === 'unicast' ? 'not global unicast IPv6 (outside 2000::/3)' : `IPv6 ${range}`;
    }
    for (const [cidr, reason] of v6Blocks) if (v6.match(cidr)) return reason;
    const range = v6.range();
    return range === 'unicast' ? null : `IPv6 ${range}`;
  }
  const v4 = addr as ipaddr.IPv4;
  for (const [cidr, reason] of v4Blocks) if (v4.match(cidr)) return reason;
  const range = v4.range();
  return range === 'unicast' ? null : `IPv4 ${range}`;
}

/** The canonical text of an address (for comparing allowlist entries), or null when it is not one. */
export function canonicalAddress(ip: string): string | null {
  try {
    const a = ipaddr.parse(ip.replace(/^\[|\]$/g, ''));
    return a.kind() === 'ipv6' ? (a as ipaddr.IPv6).toNormalizedString() : a.toString();
  } catch {
    return null;
  }
}
