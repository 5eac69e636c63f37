// The keyboard walk of a page in the browser journeys: every action on screen (buttons, links,
// inputs, selects, checkboxes, tabs, anything with tabindex 0) is tagged, then Tab alone walks the
// page until it comes back to where it began. Answers the actions Tab never reached and the ones it
// focused without a visible focus indicator (nothing of the element's or its close ancestors' look
// changes with the focus: outline, shadow, border, underline, or the focus rings Fluent draws with
// pseudo-elements).
import type { Page } from 'playwright-core';

export interface KeyboardWalk {
  /** How many actions were on screen. */
  actions: number;
  /** Actions Tab never reached (their name). */
  unreached: string[];
  /** Focused without a visible focus indicator (their name). */
  withoutIndicator: string[];
}

export async function keyboardWalk(page: Page, opts: { maxTabs?: number } = {}): Promise<KeyboardWalk> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  const actions = await page.evaluate(() => {
    const selector =
      'button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], [role="checkbox"], ' +
      '[role="link"], [role="tab"], [role="combobox"], [role="switch"], [tabindex="0"]';
    const out: { id: string; name: string }[] = [];
    let n = 0;
    for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      const r = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || cs.visibility === 'hidden' || cs.display === 'none') continue;
      // Visually hidden native inputs (a Fluent checkbox's input is under its indicator) count as the control.
      if ((el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true') continue;
      if (el.closest('[aria-hidden="true"], [inert], [data-tabster-dummy]')) continue;
      if (el.tabIndex < 0) continue;
      const id = `k${n++}`;
      el.setAttribute('data-kbd', id);
      out.push({
        id,
        name: (
          el.getAttribute('aria-label') ||
          (el as HTMLInputElement).labels?.[0]?.textContent ||
          el.textContent ||
          el.getAttribute('data-testid') ||
          el.tagName
        )
          .trim()
          .slice(0, 40),
      });
    }
    return out;
  });

  // An element is judged once: the blur and focus below would put a time input back on its first part
  // each time, and Tab walks a time input's parts (hours, minutes, AM/PM) before leaving it.
  const focusLook = (judged: string[]) =>
    page.evaluate((judged) => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const kbd = el.closest('[data-kbd]')?.getAttribute('data-kbd') ?? null;
      if (kbd && judged.includes(kbd)) return { kbd, name: '', visible: true };
      const look = (node: Element, pseudo?: string) => {
        const cs = getComputedStyle(node, pseudo);
        return [
          cs.outlineStyle,
          cs.outlineWidth,
          cs.outlineColor,
          cs.boxShadow,
          cs.borderTopColor,
          cs.borderBottomColor,
          cs.borderBottomWidth,
          cs.textDecorationLine,
          cs.transform,
          cs.opacity,
          cs.content,
        ].join('|');
      };
      const parts: string[] = [look(el), look(el, '::after'), look(el, '::before')];
      for (let a = el.parentElement, d = 0; a && d < 3; a = a.parentElement, d++)
        parts.push(look(a, '::after'), look(a, '::before'), look(a));
      const focused = parts.join('#');
      // The same element without focus (focus comes back at once: the walk goes on from it).
      el.blur();
      const unfocusedParts: string[] = [look(el), look(el, '::after'), look(el, '::before')];
      for (let a = el.parentElement, d = 0; a && d < 3; a = a.parentElement, d++)
        unfocusedParts.push(look(a, '::after'), look(a, '::before'), look(a));
      el.focus({ preventScroll: true });
      return {
        kbd,
        name: (el.getAttribute('aria-label') ?? el.textContent ?? el.getAttribute('data-testid') ?? el.tagName).trim().slice(0, 40),
        visible: focused !== unfocusedParts.join('#'),
      };
    }, judged);

  const reached = new Set<string>();
  const withoutIndicator: string[] = [];
  let first: string | null = null;
  // Every action once, and then some (a page may hold focusable parts the count above does not see).
  const maxTabs = opts.maxTabs ?? actions.length * 2 + 20;
  for (let i = 0; i < maxTabs; i++) {
    await page.keyboard.press('Tab');
    const f = await focusLook([...reached]);
    if (!f) continue;
    const key = f.kbd ?? `?${f.name}`;
    if (first === key && i > 3) break; // back at the start: the whole page was walked
    first ??= key;
    if (f.kbd) reached.add(f.kbd);
    if (!f.visible && !withoutIndicator.includes(f.name)) withoutIndicator.push(f.name);
  }
  return { actions: actions.length, unreached: actions.filter((a) => !reached.has(a.id)).map((a) => a.name), withoutIndicator };
}
