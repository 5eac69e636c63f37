import { chromium } from 'playwright-core';
import fs from 'node:fs';
export const URL0 = `http://localhost:${fs.readFileSync('/tmp/i16-port','utf8').trim()}`;
export async function open(email='casey@x.example', password='First1234') {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu','--disable-background-networking','--disable-dev-shm-usage'], headless: true });
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await ctx.newPage();
  page.on('console', (m) => { if (m.type() === 'error') console.log('CONSOLE', m.text()); });
  await page.goto(`${URL0}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('app-shell').waitFor();
  return { browser, ctx, page };
}
export async function api(page, method, url, body) {
  return page.evaluate(async ({ method, url, body }) => {
    const csrf = decodeURIComponent(document.cookie.split('; ').find((c) => c.startsWith('ds_csrf=')).slice(8));
    const headers = { 'x-csrf-token': csrf };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: await res.json().catch(() => null) };
  }, { method, url, body });
}
export const shot = (page, n) => page.screenshot({ path: `/tmp/i16-${n}.png` });
