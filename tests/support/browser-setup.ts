// The e2e project's global setup: one headless Chromium for the whole run, served over
// Playwright's protocol (BrowserType.launchServer). Journey files connect to it and open their own
// contexts, so a run starts Chromium once instead of once per file.
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, executablePath } from './browser';

export default async function setup(project: TestProject) {
  const server = await chromium.launchServer({ executablePath: await executablePath(), args: CHROMIUM_ARGS, headless: true });
  project.provide('browserWsEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
  };
}
