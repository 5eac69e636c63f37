// @vitest-environment happy-dom
import './test-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { fakeApi, renderWithApi } from './test-render';
import { useNotify, type Notify } from './toast';

afterEach(cleanup);

let notify: Notify;
function Grab() {
  notify = useNotify();
  return null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The texts of the toasts on screen (the live region repeats them for screen readers). */
const shownTexts = () => [...document.querySelectorAll('[data-testid^="toast-"]')].map((e) => e.textContent);
const has = (text: string) => shownTexts().includes(text);

describe('toasts (spec 000 §9: 3000 ms, copy toast 500 ms)', () => {
  it('the copy toast is gone 0.5 s after it appeared, not after the enter animation plus 0.5 s', async () => {
    renderWithApi(<Grab />, fakeApi({}));
    const t0 = Date.now();
    act(() => notify.success('Value copied to clipboard', 500));
    await waitFor(() => expect(has('Value copied to clipboard')).toBe(true));
    await waitFor(() => expect(has('Value copied to clipboard')).toBe(false), { timeout: 2000 });
    const shownFor = Date.now() - t0;
    expect(shownFor).toBeGreaterThanOrEqual(490);
    expect(shownFor).toBeLessThan(900);
  });

  it('a new message replaces the shown one of the same kind; other kinds stay', async () => {
    renderWithApi(<Grab />, fakeApi({}));
    act(() => notify.success('Company updated'));
    act(() => notify.error('Error executing enrichment'));
    await waitFor(() => expect(has('Company updated')).toBe(true));
    act(() => notify.success('Contact updated'));
    await waitFor(() => expect(has('Contact updated')).toBe(true));
    expect(has('Company updated')).toBe(false);
    expect(screen.getAllByTestId('toast-success')).toHaveLength(1);
    expect(has('Error executing enrichment')).toBe(true);
  });

  it('the replacing message gets its full time again', async () => {
    renderWithApi(<Grab />, fakeApi({}));
    act(() => notify.info('First', 400));
    await waitFor(() => expect(has('First')).toBe(true));
    await sleep(300);
    act(() => notify.info('Second', 400));
    await sleep(250);
    // 550 ms after the first: it would have gone, the second keeps the place.
    expect(has('Second')).toBe(true);
    await waitFor(() => expect(has('Second')).toBe(false), { timeout: 1000 });
  });

  it('a persistent message (timeout 0 or below) stays and is not replaced by a timed one', async () => {
    renderWithApi(<Grab />, fakeApi({}));
    act(() => notify.error('Cannot connect to socket server. Please reload the page.', -1));
    act(() => notify.error('Error executing enrichment', 200));
    await waitFor(() => expect(has('Error executing enrichment')).toBe(true));
    await waitFor(() => expect(has('Error executing enrichment')).toBe(false), { timeout: 1000 });
    expect(has('Cannot connect to socket server. Please reload the page.')).toBe(true);
  });
});
