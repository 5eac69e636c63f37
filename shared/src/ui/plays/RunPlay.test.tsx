// @vitest-environment happy-dom
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PlayDto, PlayExecuteResponse } from '../../contracts';
import { fakeApi, renderWithApi } from '../test-render';
import { DrawerProvider, useDrawer } from '../DrawerContext';
import { RunPlayList } from './RunPlayPopover';

afterEach(cleanup);

const PLAY = '33333333-3333-4333-8333-333333333333';
const ACME = 'c0000000-0000-4000-8000-000000000001';
const BARE = 'c0000000-0000-4000-8000-000000000002';
const MUTE = 'c0000000-0000-4000-8000-000000000003';
const MUTE_KEY = 'c0000000-0000-4000-8000-0000000000a3';

const play: PlayDto = {
  id: PLAY,
  name: 'Founder note',
  description: 'A short note',
  template: '',
  instructions: [],
  subject: '',
  subjectPrompt: '',
  playType: 'openai',
  llmModelId: 'default',
  status: 'published',
  useCount: 0,
  version: 1,
  enrichmentsIncluded: [],
  isProvidedByProduct: false,
  createdBy: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  updatedAt: '2026-11-26T10:00:00.000Z',
  templates: [],
};

function Target() {
  const { target } = useDrawer();
  return <output data-testid="drawer-target">{target ? `${target.entityType}:${target.id}:${target.edit ? 'edit' : 'open'}` : ''}</output>;
}

describe('Run Play: the toast says who was skipped, what they lack, and links to fix each', { timeout: 20_000 }, () => {
  it("keeps the spec's message, lists the skipped companies with their fix, counts the rest; a fix opens the record (edit dialog or drawer)", async () => {
    const user = userEvent.setup();
    const answer: PlayExecuteResponse = {
      success: true,
      message: '8 entities have missing information and could not be processed.',
      missing: 8,
      items: [{ success: true, playExecutionId: 'x1', entityId: ACME }],
      skipped: [
        {
          entityId: BARE,
          entityType: 'company',
          name: 'Bare Inc',
          missing: ['website'],
          message: 'Invalid company details please check url or name',
          fix: { entityType: 'company', id: BARE, action: 'edit' },
        },
        {
          entityId: ACME,
          entityType: 'company',
          name: 'Lonely Inc',
          missing: ['keyContact'],
          message: 'No key contact found for Lonely Inc',
          fix: { entityType: 'company', id: ACME, action: 'open' },
        },
        {
          entityId: MUTE,
          entityType: 'company',
          name: 'Mute Holdings',
          missing: ['keyContactEmail'],
          message: 'No key contact found for Mute Holdings',
          fix: { entityType: 'contact', id: MUTE_KEY, action: 'edit' },
        },
        ...[4, 5, 6].map((n) => ({
          entityId: `c-${n}`,
          entityType: 'company' as const,
          name: `Co ${n}`,
          missing: ['name' as const, 'website' as const],
          message: 'x',
          fix: { entityType: 'company' as const, id: `c-${n}`, action: 'edit' as const },
        })),
      ],
    };
    const execute = vi.fn(async () => answer);
    renderWithApi(
      <DrawerProvider>
        <RunPlayList entityType="company" targetIds={[ACME, BARE, MUTE]} />
        <Target />
      </DrawerProvider>,
      fakeApi({
        plays: {
          published: async () => ({ success: true as const, plays: [play] }),
          execute,
          estimate: vi.fn(async () => ({
            success: true as const,
            modelCalls: 3,
            creditsRemaining: null,
            creditsTotal: null,
            exceedsCredits: false,
            concurrency: 1,
            expectedSeconds: 3,
            message: '3 model call(s)',
          })),
        },
      }),
    );
    await user.click(await screen.findByTestId('run-play-option'));
    await user.click(screen.getByTestId('run-play-run'));
    const toast = await screen.findByTestId('toast-warning');
    // The spec's words, kept exactly, then who.
    expect(toast.textContent).toContain('8 entities have missing information and could not be processed.');
    const items = within(toast).getAllByTestId('play-skipped-item');
    expect(
      items.map((i) => [
        within(i).getByTestId('play-skipped-name').textContent,
        within(i).getByTestId('play-skipped-missing').textContent,
        within(i).getByTestId('play-skipped-fix').textContent,
      ]),
    ).toEqual([
      ['Bare Inc', 'Missing website', 'Edit company'],
      ['Lonely Inc', 'Missing key contact', 'Set a key contact'],
      ['Mute Holdings', "Missing key contact's email", 'Edit the key contact'],
      ['Co 4', 'Missing name and website', 'Edit company'],
      ['Co 5', 'Missing name and website', 'Edit company'],
    ]);
    expect(within(toast).getByTestId('play-skipped-more').textContent).toBe('and 3 more');
    // Each fix opens its record: the edit dialog for its own details, the drawer for a missing link.
    await user.click(within(items[0]).getByTestId('play-skipped-fix'));
    expect(screen.getByTestId('drawer-target').textContent).toBe(`company:${BARE}:edit`);
    await user.click(within(items[1]).getByTestId('play-skipped-fix'));
    expect(screen.getByTestId('drawer-target').textContent).toBe(`company:${ACME}:open`);
    await user.click(within(items[2]).getByTestId('play-skipped-fix'));
    expect(screen.getByTestId('drawer-target').textContent).toBe(`contact:${MUTE_KEY}:edit`);
    // It stays until dismissed (a list with links cannot vanish after 3 s).
    await new Promise((r) => setTimeout(r, 3200));
    expect(screen.queryByTestId('toast-warning')).not.toBeNull();
    await user.click(within(screen.getByTestId('toast-warning')).getByTestId('toast-dismiss'));
    await waitFor(() => expect(screen.queryByTestId('toast-warning')).toBeNull());
  });
});
