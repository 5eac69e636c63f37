// @vitest-environment happy-dom
// The email the pane is about: read when the pane opens — or taken as read before the pane rendered
// (the signed-in pane's start) — and read again when a pinned pane's selection changes.
import '../../../shared/src/ui/test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { MailItem, OutlookHost } from '../office/outlook';
import { useMailItem } from './useMailItem';

afterEach(cleanup);

const item = (subject: string): MailItem => ({
  mode: 'read',
  kind: 'message',
  id: subject,
  subject,
  from: { displayName: 'Jane Doe', email: 'jane@acme.example' },
  to: [],
  cc: [],
});

function host(current: MailItem) {
  let changed: (() => void) | null = null;
  let now = current;
  const h = {
    currentItem: vi.fn(async () => now),
    onItemChanged: async (handler: () => void) => {
      changed = handler;
      return () => {};
    },
  } as unknown as OutlookHost;
  return { h, select: (next: MailItem) => ((now = next), act(() => changed?.())) };
}

describe('useMailItem', () => {
  it('reads the email when the pane opens', async () => {
    const { h } = host(item('Q3'));
    const { result } = renderHook(() => useMailItem(h));
    expect(result.current.loading).toBe(true);
    await waitFor(() => expect(result.current.item?.subject).toBe('Q3'));
    expect(result.current.selection).toBe(1);
  });

  it('an email read before the first render: shown at once, not read again until the selection changes', async () => {
    const { h, select } = host(item('Q3'));
    const { result } = renderHook(() => useMailItem(h, item('Q3')));
    expect(result.current).toMatchObject({ loading: false, item: { subject: 'Q3' }, selection: 1 });
    await act(async () => {});
    expect(h.currentItem).not.toHaveBeenCalled();
    select(item('Q4'));
    await waitFor(() => expect(result.current.item?.subject).toBe('Q4'));
    expect(result.current.selection).toBe(2);
  });
});
