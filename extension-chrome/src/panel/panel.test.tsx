// @vitest-environment happy-dom
import '../../../shared/src/ui/test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, configure, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { render } from '@testing-library/react';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { DrawerProvider, useNotify } from '@dealscout/shared/ui';
import { fakeApi, renderWithApi } from '../../../shared/src/ui/test-render';
import type { LookupBody } from '@dealscout/shared/contracts';
import { MemoryHost } from '../host/memory-host';
import type { PageRecord } from '../extract/types';
import { usePageRecord } from './usePageRecord';
import { PANEL_TEXTS, RecordPanel } from './RecordPanel';
import { PanelApp, SESSION_ENDED } from './PanelApp';

afterEach(cleanup);
configure({ asyncUtilTimeout: 5000 });

const acme: PageRecord = {
  kind: 'company',
  source: 'salesforce',
  crmId: '0015g00000XyZaBAAV',
  name: 'Acme Robotics',
  website: 'http://www.acme-robotics.com',
  domain: 'acme-robotics.com',
  url: 'https://x.lightning.force.com/lightning/r/Account/0015g00000XyZaBAAV/view',
};
const globex: PageRecord = {
  kind: 'company',
  source: 'affinity',
  crmId: '98765',
  name: 'Globex',
  website: 'https://globex.io',
  domain: 'globex.io',
  url: 'https://t.affinity.co/companies/98765',
};
const jane: PageRecord = {
  kind: 'person',
  source: 'salesforce',
  crmId: '0035g00000QwErTAAV',
  name: 'Jane van Dyke',
  firstName: 'Jane',
  lastName: 'van Dyke',
  email: 'jane@acme-robotics.com',
  company: null,
  url: 'https://x.lightning.force.com/lightning/r/Contact/0035g00000QwErTAAV/view',
};

describe('usePageRecord: the panel follows the active tab', { timeout: 20_000 }, () => {
  it('asks the active tab, follows activation and the tab’s own messages, ignores other tabs and late answers', async () => {
    const host = new MemoryHost();
    host.active = 1;
    host.pages.set(1, acme);
    const { result } = renderHook(() => usePageRecord(host));
    await waitFor(() => expect(result.current).toEqual({ loading: false, tabId: 1, record: acme }));

    // Another tab with no content script of ours (a news site).
    act(() => host.activate(2));
    await waitFor(() => expect(result.current).toEqual({ loading: false, tabId: 2, record: null }));
    // The first tab's app moves on while it is in the background: not what the panel shows.
    act(() => host.navigate(1, globex));
    expect(result.current.record).toBeNull();

    // A tab whose script answers slowly, then a quick switch to a third tab: the late answer loses.
    host.pages.set(3, globex);
    host.delays.set(3, 150);
    host.pages.set(4, jane);
    act(() => host.activate(3));
    act(() => host.activate(4));
    await waitFor(() => expect(result.current.record).toEqual(jane));
    await new Promise((r) => setTimeout(r, 250));
    expect(result.current).toEqual({ loading: false, tabId: 4, record: jane });

    // The active tab's single-page app shows another record.
    act(() => host.navigate(4, acme));
    expect(result.current.record).toEqual(acme);
    act(() => host.navigate(4, null));
    expect(result.current.record).toBeNull();
  });
});

describe('RecordPanel', { timeout: 20_000 }, () => {
  const page = (record: PageRecord | null) => ({ loading: false, tabId: 1, record });

  it('without a record it says which pages it reads', () => {
    renderWithApi(
      <DrawerProvider>
        <RecordPanel page={page(null)} userId="u1" />
      </DrawerProvider>,
      fakeApi({}),
      { pluginMode: true },
    );
    expect(screen.getByTestId('panel-no-record').textContent).toContain(PANEL_TEXTS.noRecord);
  });

  it('an unknown company: looked up by CRM id and domain, then Create company prefilled from the page', async () => {
    const user = userEvent.setup();
    const lookup = vi.fn(async (_b: LookupBody) => ({ success: true as const, match: null }));
    renderWithApi(
      <DrawerProvider>
        <RecordPanel page={page(acme)} userId="u1" />
      </DrawerProvider>,
      fakeApi({ entity: { lookup }, companies: { owners: vi.fn(async () => ({ success: true as const, owners: [] })) } }),
      { pluginMode: true },
    );
    await screen.findByTestId('panel-unknown');
    expect(lookup).toHaveBeenCalledWith({
      entityType: 'company',
      source: 'salesforce',
      crmId: '0015g00000XyZaBAAV',
      website: 'acme-robotics.com',
    });
    expect(screen.getByTestId('panel-unknown-name').textContent).toBe('Acme Robotics');
    expect(screen.getByText(PANEL_TEXTS.unknownCompany)).toBeTruthy();
    await user.click(screen.getByTestId('panel-create'));
    const dialog = await screen.findByTestId('company-dialog', {}, { timeout: 10_000 });
    const inputs = [...dialog.querySelectorAll('input')].map((i) => i.value);
    expect(inputs).toContain('Acme Robotics');
    expect(inputs).toContain('http://www.acme-robotics.com');
    // Full width under the plugin.
    expect(dialog.style.width).toBe('100%');
  });

  it('an unknown person: looked up by CRM id and email, then Create contact prefilled', async () => {
    const user = userEvent.setup();
    const lookup = vi.fn(async (_b: LookupBody) => ({ success: true as const, match: null }));
    renderWithApi(
      <DrawerProvider>
        <RecordPanel page={page(jane)} userId="u1" />
      </DrawerProvider>,
      fakeApi({ entity: { lookup }, companies: { owners: vi.fn(async () => ({ success: true as const, owners: [] })) } }),
      { pluginMode: true },
    );
    await screen.findByTestId('panel-unknown');
    expect(lookup).toHaveBeenCalledWith({
      entityType: 'contact',
      source: 'salesforce',
      crmId: '0035g00000QwErTAAV',
      email: 'jane@acme-robotics.com',
    });
    await user.click(screen.getByTestId('panel-create'));
    const dialog = await screen.findByTestId('contact-dialog', {}, { timeout: 10_000 });
    const inputs = [...dialog.querySelectorAll('input')].map((i) => i.value);
    expect(inputs).toEqual(expect.arrayContaining(['Jane', 'van Dyke', 'jane@acme-robotics.com']));
  });

  it('a failed lookup says so and retries', async () => {
    const user = userEvent.setup();
    const lookup = vi.fn().mockRejectedValueOnce(new Error('network')).mockResolvedValue({ success: true, match: null });
    renderWithApi(
      <DrawerProvider>
        <RecordPanel page={page(acme)} userId="u1" />
      </DrawerProvider>,
      fakeApi({ entity: { lookup } }),
      { pluginMode: true },
    );
    await screen.findByTestId('panel-lookup-error');
    await user.click(screen.getByText('Try again'));
    await screen.findByTestId('panel-unknown');
  });
});

describe('PanelApp: sign-in with a bearer token kept in extension storage', { timeout: 20_000 }, () => {
  const user = {
    id: 'u1',
    organizationId: 'o1',
    email: 'ann@acme.example',
    firstName: 'Ann',
    lastName: 'Lee',
    role: 'Admin',
    isAdmin: true,
    status: 'active',
    settings: {},
    calendar: {},
  };
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('signs in against the configured server, stores the token, sends it, and a 401 signs the panel out saying why', async () => {
    const u = userEvent.setup();
    const calls: { url: string; auth: string | null; body: unknown }[] = [];
    let tokenValid = true;
    const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const headers = new Headers(init?.headers);
      calls.push({ url, auth: headers.get('authorization'), body: init?.body ? JSON.parse(String(init.body)) : null });
      if (url.endsWith('/api/v1/auth/token'))
        return json(200, { success: true, token: 'tok-1', tokenId: 't1', expiresAt: '2027-01-01T00:00:00.000Z', user });
      if (url.endsWith('/api/v1/entity/lookup'))
        return tokenValid ? json(200, { success: true, match: null }) : json(401, { success: false, message: 'Unauthorized' });
      return json(404, { success: false, message: 'Not found' });
    });
    vi.stubGlobal('fetch', fetchMock);
    // No realtime socket in this test.
    vi.stubGlobal(
      'WebSocket',
      class {
        close() {}
        addEventListener() {}
      },
    );
    const host = new MemoryHost();
    host.settings = { serverUrl: 'https://dealscout.example.com' };
    render(<PanelApp host={host} />);
    expect((await screen.findByTestId('signin-server')).textContent).toBe('https://dealscout.example.com');

    await u.type(screen.getByTestId('login-email'), 'ann@acme.example');
    await u.type(screen.getByTestId('login-password'), 'Secret123');
    await u.click(screen.getByTestId('login-submit'));
    await screen.findByTestId('panel-no-record');
    expect(calls[0]).toEqual({
      url: 'https://dealscout.example.com/api/v1/auth/token',
      auth: null,
      body: { email: 'ann@acme.example', password: 'Secret123', label: 'Chrome extension' },
    });
    expect(host.session).toMatchObject({
      serverUrl: 'https://dealscout.example.com',
      token: 'tok-1',
      user: { id: 'u1', organizationId: 'o1', email: 'ann@acme.example' },
    });

    // A page record: the lookup carries the bearer token.
    host.active = 7;
    act(() => host.navigate(7, acme));
    act(() => host.activate(7));
    await screen.findByTestId('panel-unknown');
    expect(calls.find((c) => c.url.endsWith('/entity/lookup'))?.auth).toBe('Bearer tok-1');

    // The token is revoked elsewhere: the next call's 401 signs the panel out and says why.
    tokenValid = false;
    act(() => host.navigate(7, globex));
    expect((await screen.findByTestId('signin-notice')).textContent).toBe(SESSION_ENDED);
    expect(host.session).toBeNull();
    vi.unstubAllGlobals();
  });

  it("puts its toasts at the bottom, clear of the panel's header and toolbar", async () => {
    const host = new MemoryHost();
    host.settings = { serverUrl: 'https://dealscout.example.com' };
    let notify: ReturnType<typeof useNotify> | null = null;
    function Grab() {
      notify = useNotify();
      return null;
    }
    render(
      <>
        <PanelApp host={host} />
        <FluentProvider theme={webLightTheme}>
          <Grab />
        </FluentProvider>
      </>,
    );
    await screen.findByTestId('signin-server');
    act(() => notify!.success('1 enrichment execution(s) started'));
    const toast = await screen.findByTestId('toast-success');
    expect(toast.closest('[data-toaster-position]')?.getAttribute('data-toaster-position')).toBe('bottom');
  });

  it('a session of another server is not used', async () => {
    const host = new MemoryHost();
    host.settings = { serverUrl: 'https://new.example.com' };
    host.session = {
      serverUrl: 'https://old.example.com',
      token: 't',
      tokenId: 'i',
      expiresAt: '2027-01-01T00:00:00.000Z',
      user: { id: 'u', organizationId: 'o', email: 'a@b.co', firstName: 'A', lastName: 'B' },
    };
    render(<PanelApp host={host} />);
    expect((await screen.findByTestId('signin-server')).textContent).toBe('https://new.example.com');
  });
});
