// The deployment guide's pieces: every file docs/DEPLOY.md names is in the repository, the
// environment template names every setting the server reads (server/src/config.ts), and the
// systemd units stop as the guide says.
import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigSchema } from '../../server/src/config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const guide = read('docs/DEPLOY.md');

describe('docs/DEPLOY.md', () => {
  it('names only files that exist', () => {
    const named = new Set(
      [...guide.matchAll(/(?:`|\()((?:deploy|server|tests|docs)\/[A-Za-z0-9_@./-]+?)(?:`|\)|#)/g)].map((m) => m[1].replace(/[.,]$/, '')),
    );
    expect([...named].filter((f) => f.startsWith('deploy/')).length).toBeGreaterThanOrEqual(5);
    expect([...named].filter((f) => !existsSync(path.join(root, f)))).toEqual([]);
  });

  it('is linked from README', () => {
    expect(read('README.md')).toContain('docs/DEPLOY.md');
  });
});

describe('deploy/dealscout.env.example', () => {
  const template = read('deploy/dealscout.env.example');
  const named = new Set([...template.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));

  it('names every setting config.ts reads, and no other', () => {
    const settings = Object.keys(ConfigSchema.shape);
    expect(settings.filter((k) => !named.has(k))).toEqual([]);
    expect([...named].filter((k) => !settings.includes(k))).toEqual([]);
  });

  it('sets the secrets production requires, each generated, none filled in', () => {
    for (const secret of ['REALTIME_SECRET', 'SECRETS_KEY', 'DATABASE_URL', 'METRICS_TOKEN']) {
      expect(template).toMatch(new RegExp(`^${secret}=`, 'm'));
    }
    expect(template).toMatch(/^REALTIME_SECRET=$/m);
    expect(template).toMatch(/^SECRETS_KEY=$/m);
    expect(template).toContain('openssl rand');
    expect(template).toMatch(/^NODE_ENV=production$/m);
  });
});

describe('deploy/systemd units', () => {
  const grace = Number(/^SHUTDOWN_GRACE_SECONDS=(\d+)/m.exec(read('deploy/dealscout.env.example'))![1]);
  it.each(['dealscout-api@.service', 'dealscout-worker@.service'])('%s restarts on failure and waits out the graceful stop', (unit) => {
    const text = read(`deploy/systemd/${unit}`);
    expect(text).toMatch(/^Restart=on-failure$/m);
    expect(text).toMatch(/^KillSignal=SIGTERM$/m);
    expect(text).toMatch(/^EnvironmentFile=\/etc\/dealscout\/dealscout\.env$/m);
    expect(text).toMatch(/^ExecStart=\/usr\/bin\/node --import tsx server\/src\/main\.ts --role (api|worker)$/m);
    // main.ts forces its exit SHUTDOWN_GRACE_SECONDS + 15 s after SIGTERM: systemd must not kill it sooner.
    const timeout = Number(/^TimeoutStopSec=(\d+)$/m.exec(text)![1]);
    expect(timeout).toBeGreaterThan(grace + 15);
  });
});

describe('deploy/grafana/dealscout.json', () => {
  it('charts only series the server exports', () => {
    const exported = new Set(
      ['server/src/lib/metrics.ts', 'server/src/modules/system/metrics.ts'].flatMap((f) =>
        [...read(f).matchAll(/name: '(dealscout_\w+)'/g)].map((m) => m[1]),
      ),
    );
    const dashboard = JSON.parse(read('deploy/grafana/dealscout.json')) as { panels: { targets: { expr: string }[] }[] };
    const charted = dashboard.panels.flatMap((p) => p.targets.flatMap((t) => [...t.expr.matchAll(/\b(dealscout_\w+)/g)].map((m) => m[1])));
    expect(charted.length).toBeGreaterThan(10);
    expect(charted.map((n) => n.replace(/_(bucket|count|sum)$/, '')).filter((n) => !exported.has(n))).toEqual([]);
  });
});
