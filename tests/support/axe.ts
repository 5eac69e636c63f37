// axe-core in the browser journeys: WCAG 2.1 A and AA rules on what is on screen (drawers, dialogs,
// menus and popovers included when the journey has them open). A journey fails on any serious or
// critical finding; moderate and minor ones are returned for the report but do not fail it.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import type { Frame, Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Runs axe on the page (or frame) and returns its serious and critical findings, one line each. */
export async function axeFindings(target: Page | Frame, opts: { include?: string } = {}): Promise<AxeFinding[]> {
  // What is on screen once it has settled: a menu fading in, a dialog closing (its aria-hidden still on
  // the app) or a drawer sliding are judged once their animations end (infinite ones — spinners — aside),
  // within two seconds.
  await target.evaluate(async () => {
    const until = performance.now() + 2000;
    while (performance.now() < until) {
      const running = document
        .getAnimations()
        .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
      if (running.length === 0) return;
      await Promise.all(running.map((a) => Promise.race([a.finished.catch(() => {}), new Promise((r) => setTimeout(r, 100))])));
    }
  });
  // A modal that has just closed takes its aria-hidden off the app only once its exit has run: with no
  // modal open, wait (up to three seconds) until nothing beside the app is left hidden. One that stays is a
  // finding.
  await target.evaluate(async () => {
    const until = performance.now() + 3000;
    const settled = () =>
      document.querySelector('[aria-modal="true"]') !== null ||
      ![...document.body.children].some((e) => e.tagName !== 'I' && e.getAttribute('aria-hidden') === 'true');
    while (!settled() && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
  });
  const has = await target.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (!has) await target.evaluate(AXE_SOURCE);
  const results = await target.evaluate(async (include) => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: unknown,
            o: unknown,
          ): Promise<{
            violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; html: string }> }>;
          }>;
        };
      }
    ).axe;
    const r = await axe.run(include ? { include: [include] } : document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    // Fluent's focus manager (Tabster) puts aria-hidden, focusable <i data-tabster-dummy> sentinels
    // around focus zones; they hand the focus on the moment they get it. axe's aria-hidden-focus
    // flags them: a known false positive that Accessibility Insights suppresses the same way
    // (microsoft/accessibility-insights-web#7605). Only those nodes are dropped.
    const sentinel = (html: string) => /data-tabster-dummy|data-is-focus-trap-zone-bumper/.test(html);
    return r.violations
      .map((v) => ({ ...v, nodes: v.id === 'aria-hidden-focus' ? v.nodes.filter((n) => !sentinel(n.html)) : v.nodes }))
      .filter((v) => v.nodes.length > 0)
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => `${JSON.stringify(n.target)} ${n.html.slice(0, 160)}`),
      }));
  }, opts.include ?? null);
  return results.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Fails with every serious or critical finding (rule, help, the first elements) named. */
export async function expectNoAxeFindings(target: Page | Frame, where: string, opts: { include?: string } = {}): Promise<void> {
  const findings = await axeFindings(target, opts);
  if (findings.length > 0) {
    throw new Error(
      `axe-core (WCAG 2.1 A/AA) on ${where}: ${findings.map((f) => `${f.impact} ${f.id} (${f.help}) at ${f.nodes.join(', ')}`).join('; ')}`,
    );
  }
}
