// Headless Chromium for the end-to-end tests: CHROMIUM_PATH, else Debian's /usr/bin/chromium,
// else the Chromium shipped inside the @sparticuz/chromium npm package.
import { chromium, type Browser } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

async function executablePath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const p of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) if (fs.existsSync(p)) return p;
  // Unpacks into $TMPDIR: keep it inside the project so it is found again next time.
  const tmp = path.resolve('tests/.chromium');
  fs.mkdirSync(tmp, { recursive: true });
  process.env.TMPDIR = tmp;
  const mod = (await import('@sparticuz/chromium')) as unknown as { default: { executablePath(): Promise<string> } };
  return mod.default.executablePath();
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: await executablePath(), args: CHROMIUM_ARGS, headless: true });
}

export const ARTIFACTS = path.resolve('tests/artifacts');
fs.mkdirSync(ARTIFACTS, { recursive: true });
