// @vitest-environment happy-dom
import './test-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { fakeApi, renderWithApi } from './test-render';
import { useNotify, type Notify } from './toast';

// Fake timers: the toasts' times are checked to the millisecond without depending on how busy the
// machine is (a loaded CI machine stretched real sleeps past a toast's life).
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

let notify: Notify;
function Grab() {
  notify = useNotify();
  return null;
}

/** Moves the clock and lets React render what the timers did. */
const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });
/** The texts of the toasts on screen (the live region repeats them for screen readers). */
const shownTexts = () => [...document.querySelectorAll('[data-testid^="toast-"]')].map((e) => e.textContent);
const has = (text: string) => shownTexts().includes(text);

describe('toasts (spec 000 §9: 3000 ms, copy toast 500 ms)', () => {
  it.each([
    {
      what: 'the copy toast is shown at once and gone 0.5 s later, not after an enter animation plus 0.5 s',
      message: 'Value copied to clipboard',
      timeout: 500,
      life: 500,
    },
    { what: 'other toasts stay 3000 ms', message: 'Company updated', timeout: undefined, life: 3000 },
  ])('$what', ({ message, timeout, life }) => {
    renderWithApi(<Grab />, fakeApi({}));
    act(() => notify.success(message, timeout));
    advance(0);
    expect(has(message)).toBe(true);
    advance(life - 1);
    expect(has(message)).toBe(true);
    advance(1);
    expect(has(message)).toBe(false);
  });

  it('a new message replaces the shown one of the same kind; other kinds stay', () => {
    renderWithApi(<Grab />, fakeApi({}));
    act(() => notify.success('Company updated'));
    act(() => notify.error('Error executing enrichment'));
    advance(0);
    expect(has('Company updated')).toBe(true);
    act(() => notify.success('Contact updated'));
    advance(0);
    expect(has('Contact updated')).toBe(true);
    expect(has('Company updated')).toBe(false);
    expect(screen.getAllByTestId('toast-success')).toHaveLength(1);
    expect(has('Error executing enrichment')).toBe(true);
  });

  it('the replacing message gets its full time again', () => {
    renderWithApi(<Grab />, fakeApi({}));
    act(() => notify.info('First', 400));
    advance(300);
    expect(has('First')).toBe(true);
    act(() => notify.info('Second', 400));
    advance(250);
    // 550 ms after the first: it would have gone, the second keeps the place.
    expect(has('First')).toBe(false);
    expect(has('Second')).toBe(true);
    advance(150);
    expect(has('Second')).toBe(false);
  });

  it('a persistent message (timeout 0 or below) stays and is not replaced by a timed one', () => {
    renderWithApi(<Grab />, fakeApi({}));
    act(() => notify.error('Cannot connect to socket server. Please reload the page.', -1));
    act(() => notify.error('Error executing enrichment', 200));
    advance(0);
    expect(has('Error executing enrichment')).toBe(true);
    advance(200);
    expect(has('Error executing enrichment')).toBe(false);
    advance(60_000);
    expect(has('Cannot connect to socket server. Please reload the page.')).toBe(true);
  });
});
