import { open, api, shot } from './lib.mjs';
const { browser, page } = await open();
await page.getByTestId('nav-companies').click();
await page.locator('[data-testid="record-table-row"]').first().click();
await page.locator('[data-testid="record-drawer"][data-visibility="Visible"]').waitFor();
await page.waitForTimeout(800);
const r = await page.evaluate(() => {
  const tb = document.querySelector('[role="toolbar"]');
  const out = { toolbar: tb.getBoundingClientRect().width, kids: [] };
  for (const k of tb.children) out.kids.push([k.className.slice(0, 20), Math.round(k.getBoundingClientRect().width), Math.round(k.getBoundingClientRect().y), k.textContent.slice(0, 40)]);
  return out;
});
console.log(JSON.stringify(r));
await shot(page, 'toolbar');
await browser.close();
