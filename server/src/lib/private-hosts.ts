// OUTBOUND_ALLOWED_PRIVATE_HOSTS, parsed where the settings are read (config.ts); the outbound
// policy that uses it lives in providers/web/outbound.ts.
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** One OUTBOUND_ALLOWED_PRIVATE_HOSTS entry: a host name, an IP address or a CIDR range, optionally with a port. */
export type AllowedPrivateHost =
  { kind: 'name'; name: string; port: number | null } | { kind: 'cidr'; range: [ipaddr.IPv4 | ipaddr.IPv6, number]; port: number | null };

/**
 * Parses OUTBOUND_ALLOWED_PRIVATE_HOSTS: comma-separated `llm.internal`, `llm.internal:8000`,
 * `10.0.5.7`, `10.0.5.0/24`, `127.0.0.1:11434`, `[fd00::5]:8000`, `fd00::/8`. Throws on a malformed entry.
 */
export function parseAllowedPrivateHosts(raw: string | undefined): AllowedPrivateHost[] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry): AllowedPrivateHost => {
      let host = entry;
      let port: number | null = null;
      const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
      if (bracket) {
        host = bracket[1];
        port = bracket[2] ? Number(bracket[2]) : null;
      } else if ((entry.match(/:/g) ?? []).length === 1) {
        const [h, p] = entry.split(':');
        if (!/^\d+$/.test(p)) throw new Error(`OUTBOUND_ALLOWED_PRIVATE_HOSTS: bad port in '${entry}'`);
        host = h;
        port = Number(p);
      }
      if (port !== null && (port < 1 || port > 65535)) throw new Error(`OUTBOUND_ALLOWED_PRIVATE_HOSTS: bad port in '${entry}'`);
      if (host.includes('/')) {
        try {
          return { kind: 'cidr', range: ipaddr.parseCIDR(host), port };
        } catch {
          throw new Error(`OUTBOUND_ALLOWED_PRIVATE_HOSTS: bad range '${entry}'`);
        }
      }
      if (ipaddr.isValid(host) && net.isIP(host)) {
        const a = ipaddr.parse(host);
        return { kind: 'cidr', range: [a, a.kind() === 'ipv4' ? 32 : 128], port };
      }
      if (!/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(host)) throw new Error(`OUTBOUND_ALLOWED_PRIVATE_HOSTS: bad host '${entry}'`);
      return { kind: 'name', name: host.toLowerCase(), port };
    });
}
