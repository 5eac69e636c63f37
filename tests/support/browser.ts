// Headless Chromium for the end-to-end tests: CHROMIUM_PATH, else Debian's /usr/bin/chromium,
// else the Chromium shipped inside the @sparticuz/chromium npm package.
//
// The e2e project's global setup (tests/support/browser-setup.ts) starts one Chromium for the
// whole run; every journey file connects to it and works in its own browser contexts (separate
// cookies, storage and pages), instead of starting a browser of its own.
import { chromium, type Browser } from 'playwright-core';
import { inject } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's Playwright endpoint (empty when the project did not start one). */
    browserWsEndpoint: string;
  }
}

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

export async function executablePath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const p of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) if (fs.existsSync(p)) return p;
  // Unpacks into $TMPDIR: keep it inside the project so it is found again next time.
  const tmp = path.resolve('tests/.chromium');
  fs.mkdirSync(tmp, { recursive: true });
  process.env.TMPDIR = tmp;
  const mod = (await import('@sparticuz/chromium')) as unknown as { default: { executablePath(): Promise<string> } };
  return mod.default.executablePath();
}

/** The shared Chromium's endpoint inside a vitest run; outside one (a bench script) there is none. */
function sharedEndpoint(): string | undefined {
  try {
    return inject('browserWsEndpoint');
  } catch {
    return undefined;
  }
}

/**
 * The run's shared Chromium (closing the answer only disconnects this file), or a Chromium of
 * this file's own when no shared one was started.
 */
export async function launchBrowser(): Promise<Browser> {
  const endpoint = sharedEndpoint();
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: await executablePath(), args: CHROMIUM_ARGS, headless: true });
}

export const ARTIFACTS = path.resolve('tests/artifacts');
fs.mkdirSync(ARTIFACTS, { recursive: true });
