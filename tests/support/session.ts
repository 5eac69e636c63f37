// Signing in and calling the API as the signed-in user, for the end-to-end journeys (one copy
// instead of one per file).
import type { BrowserContext, Page } from 'playwright-core';

export interface Credentials {
  email: string;
  password: string;
}

/** Signs in through the login form and waits for the app shell. */
export async function signIn(page: Page, baseUrl: string, who: Credentials): Promise<Page> {
  await page.goto(`${baseUrl}/login`);
  await page.getByTestId('login-email').fill(who.email);
  await page.getByTestId('login-password').fill(who.password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('app-shell').waitFor();
  return page;
}

/** A new page of `ctx`, signed in. */
export async function signedInPage(ctx: BrowserContext, baseUrl: string, who: Credentials): Promise<Page> {
  return signIn(await ctx.newPage(), baseUrl, who);
}

/**
 * Calls the API from inside the page, as the app does (its session cookie and CSRF token), and
 * answers the status and the JSON body.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of several endpoints
export async function pageApi(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; json: any }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const csrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('ds_csrf='))!
          .slice(8),
      );
      const headers: Record<string, string> = { 'x-csrf-token': csrf };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, json: await res.json() };
    },
    { method, url, body },
  );
}
