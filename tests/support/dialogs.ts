// Waiting for a dialog to close after its primary action, in the browser journeys. When it stays
// open, the failure says what the dialog shows (an error message, a busy button) and keeps a
// screenshot in tests/artifacts, instead of only the locator's timeout.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS } from './browser';

export async function dialogClosed(page: Page, testId: string, timeout = 30_000): Promise<void> {
  const dialog = page.getByTestId(testId);
  try {
    await dialog.waitFor({ state: 'detached', timeout });
  } catch (err) {
    const shows = await dialog.innerText({ timeout: 2_000 }).catch(() => '(nothing readable)');
    const busy = await dialog
      .locator('button[disabled], [aria-busy="true"]')
      .count()
      .catch(() => 0);
    await page.screenshot({ path: path.join(ARTIFACTS, `still-open-${testId}.png`), fullPage: true }).catch(() => {});
    throw new Error(`${testId} is still open after ${timeout} ms (${busy} disabled or busy controls); it shows: ${shows.slice(0, 600)}`, {
      cause: err,
    });
  }
}
