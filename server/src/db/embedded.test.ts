// The embedded PostgreSQL (npm start without DATABASE_URL) is sized from the machine's memory
// (embeddedMemoryFlags), its WAL sized for bulk work, and a started server really runs with those settings.
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import pg from 'pg';
import { embeddedMemoryFlags, startEmbeddedPostgres } from './embedded';

const GB = 1024 ** 3;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

describe('embedded PostgreSQL memory', () => {
  it('gives shared_buffers a quarter of the memory, between 128 MB and 4 GB, and the cache estimate three quarters', () => {
    expect(embeddedMemoryFlags(8 * GB)).toEqual(['-c', 'shared_buffers=2048MB', '-c', 'effective_cache_size=6144MB']);
    expect(embeddedMemoryFlags(24 * GB)).toEqual(['-c', 'shared_buffers=4096MB', '-c', 'effective_cache_size=18432MB']);
    expect(embeddedMemoryFlags(0.25 * GB)).toEqual(['-c', 'shared_buffers=128MB', '-c', 'effective_cache_size=192MB']);
    // EMBEDDED_PG_SHARED_BUFFERS_MB overrides the size; the cache estimate is never below it.
    expect(embeddedMemoryFlags(GB, 512)).toEqual(['-c', 'shared_buffers=512MB', '-c', 'effective_cache_size=768MB']);
    expect(embeddedMemoryFlags(GB, 2048)).toEqual(['-c', 'shared_buffers=2048MB', '-c', 'effective_cache_size=2048MB']);
  });

  it('a started server runs with them', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dealscout-embedded-'));
    fs.chmodSync(dir, 0o755);
    const db = await startEmbeddedPostgres({ dataDir: dir, port: await freePort(), persistent: false, sharedBuffersMb: 48 });
    try {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query<{ name: string; setting: string; unit: string }>(
        `select name, setting, unit from pg_settings
          where name in ('shared_buffers', 'effective_cache_size', 'max_wal_size', 'checkpoint_timeout', 'wal_compression') order by name`,
      );
      await client.end();
      // Both in 8 kB pages: 48 MB = 6144 pages; the cache estimate three quarters of the memory.
      // WAL sized for bulk work (embeddedServerFlags): 4 GB, checkpoints every 15 minutes.
      expect(rows.map((r) => [r.name, r.setting, r.unit])).toEqual([
        ['checkpoint_timeout', '900', 's'],
        ['effective_cache_size', String(Number(embeddedMemoryFlags(undefined, 48)[3].match(/\d+/)![0]) * 128), '8kB'],
        ['max_wal_size', '4096', 'MB'],
        ['shared_buffers', '6144', '8kB'],
        ['wal_compression', 'off', null],
      ]);
    } finally {
      await db.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
