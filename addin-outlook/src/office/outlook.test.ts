// The Office adapter against office-addin-mock (Microsoft's mock of the Office.js API), the way
// Microsoft's unit-testing guide for add-ins does it: the mock object stands in for `Office`.
import { describe, expect, it, vi } from 'vitest';
import { OfficeMockObject } from 'office-addin-mock';
import { createOutlookHost, OfficeCallError, type OfficeApi } from './outlook';

type Callback = (r: { status: string; value?: unknown; error?: { code: number; message: string } }) => void;
const ok = (cb: Callback, value?: unknown) => cb({ status: 'succeeded', value });

function hostOf(data: Record<string, unknown>) {
  const mock = new OfficeMockObject(
    {
      EventType: { ItemChanged: 'olkItemSelectedChanged' },
      CoercionType: { Html: 'html', Text: 'text' },
      onReady: async () => ({ host: 'Outlook', platform: 'OfficeOnline' }),
      ...data,
    },
    'outlook' as never,
  );
  return { mock, host: createOutlookHost(() => mock as unknown as OfficeApi) };
}

const readMessage = {
  itemType: 'message',
  itemId: 'AAMk-1',
  subject: 'Q3 numbers',
  from: { displayName: 'Jane Doe', emailAddress: 'jane@acme.com' },
  to: [
    { displayName: 'Me', emailAddress: 'me@corp.com' },
    { displayName: '', emailAddress: 'bob@acme.com' },
  ],
  cc: [
    { displayName: 'Cara', emailAddress: 'cara@other.com' },
    { displayName: 'Nobody', emailAddress: '' },
  ],
  displayReplyForm(this: { replied?: unknown }, form: unknown) {
    this.replied = form;
  },
};

function composeMessage() {
  return {
    itemType: 'message',
    subject: {
      value: 'Draft subject',
      getAsync(this: { value: string }, cb: Callback) {
        ok(cb, this.value);
      },
      setAsync(this: { value: string }, v: string, cb: Callback) {
        this.value = v;
        ok(cb);
      },
    },
    to: { getAsync: (cb: Callback) => ok(cb, [{ displayName: 'Jane Doe', emailAddress: 'jane@acme.com' }]) },
    cc: { getAsync: (cb: Callback) => ok(cb, []) },
    body: {
      html: '<p>old</p>',
      inserted: '',
      setAsync(this: { html: string; options: unknown }, v: string, options: unknown, cb: Callback) {
        this.html = v;
        this.options = options;
        ok(cb);
      },
      setSelectedDataAsync(this: { inserted: string }, v: string, _o: unknown, cb: Callback) {
        this.inserted = v;
        ok(cb);
      },
    },
  };
}

describe('Outlook adapter (office-addin-mock)', () => {
  it('reads a selected message: subject, sender, To and Cc as plain data', async () => {
    const { host } = hostOf({ context: { mailbox: { item: readMessage, userProfile: { emailAddress: 'me@corp.com' } } } });
    expect(await host.ready()).toEqual({ host: 'Outlook', platform: 'OfficeOnline' });
    expect(host.inOutlook()).toBe(true);
    expect(host.userEmail()).toBe('me@corp.com');
    expect(await host.currentItem()).toEqual({
      mode: 'read',
      kind: 'message',
      id: 'AAMk-1',
      subject: 'Q3 numbers',
      from: { displayName: 'Jane Doe', email: 'jane@acme.com' },
      to: [
        { displayName: 'Me', email: 'me@corp.com' },
        { displayName: '', email: 'bob@acme.com' },
      ],
      cc: [{ displayName: 'Cara', email: 'cara@other.com' }],
    });
  });

  it('reads a meeting: the organizer and the attendees', async () => {
    const { host } = hostOf({
      context: {
        mailbox: {
          item: {
            itemType: 'appointment',
            subject: 'Intro call',
            organizer: { displayName: 'Ola', emailAddress: 'ola@acme.com' },
            requiredAttendees: [{ displayName: 'Raj', emailAddress: 'raj@acme.com' }],
            optionalAttendees: [],
          },
        },
      },
    });
    expect(await host.currentItem()).toMatchObject({
      mode: 'read',
      kind: 'appointment',
      from: { email: 'ola@acme.com' },
      to: [{ email: 'raj@acme.com' }],
      cc: [],
    });
  });

  it('reads a message being written through its async getters', async () => {
    const { host } = hostOf({ context: { mailbox: { item: composeMessage() } } });
    expect(await host.currentItem()).toEqual({
      mode: 'compose',
      kind: 'message',
      subject: 'Draft subject',
      to: [{ displayName: 'Jane Doe', email: 'jane@acme.com' }],
      cc: [],
    });
  });

  it('no item (a folder switch, nothing selected) is null', async () => {
    // (The mock takes no null: a mailbox without an item is what Office.js gives then.)
    const { host } = hostOf({ context: { mailbox: { userProfile: { emailAddress: 'me@corp.com' } } } });
    expect(await host.currentItem()).toBeNull();
  });

  it('sets the subject, replaces or inserts the body as HTML', async () => {
    const { mock, host } = hostOf({ context: { mailbox: { item: composeMessage() } } });
    await host.setSubject('Intro: Dealscout');
    await host.setBody('<p>Hello Jane</p>');
    await host.insertBody('<p>PS</p>');
    const item = mock.context.mailbox.item;
    expect(item.subject.value).toBe('Intro: Dealscout');
    expect(item.body.html).toBe('<p>Hello Jane</p>');
    expect(item.body.options).toEqual({ coercionType: 'html' });
    expect(item.body.inserted).toBe('<p>PS</p>');
  });

  it('a failed Office call rejects with its error; compose calls need a compose item', async () => {
    const item = composeMessage();
    item.subject.setAsync = (_v: string, cb: Callback) => cb({ status: 'failed', error: { code: 9041, message: 'The item was closed' } });
    const { host } = hostOf({ context: { mailbox: { item } } });
    await expect(host.setSubject('x')).rejects.toEqual(new OfficeCallError(9041, 'The item was closed'));
    const read = hostOf({ context: { mailbox: { item: readMessage } } }).host;
    await expect(read.setBody('<p>x</p>')).rejects.toThrow('No email is being written');
  });

  it('opens the reply form with an HTML body in read mode', () => {
    const { mock, host } = hostOf({ context: { mailbox: { item: { ...readMessage } } } });
    host.displayReplyForm('<p>Thanks!</p>');
    expect(mock.context.mailbox.item.replied).toEqual({ htmlBody: '<p>Thanks!</p>' });
  });

  it("gives an item's Graph id through convertToRestId (REST v2.0); null without it", () => {
    const seen: unknown[] = [];
    const { host } = hostOf({
      MailboxEnums: { RestVersion: { v2_0: 'v2.0' } },
      context: {
        mailbox: {
          item: readMessage,
          convertToRestId: (id: string, v: unknown) => {
            seen.push([id, v]);
            return id.replace('AAMk-', 'AAMk_rest_');
          },
        },
      },
    });
    expect(host.graphId('AAMk-1')).toBe('AAMk_rest_1');
    expect(seen).toEqual([['AAMk-1', 'v2.0']]);
    expect(hostOf({ context: { mailbox: { item: readMessage } } }).host.graphId('AAMk-1')).toBeNull();
  });

  it('opens a dialog, resolves with the message its page sends, and closes it', async () => {
    const handlers = new Map<string, (arg: unknown) => void>();
    const dialog = {
      closed: false,
      addEventHandler: (t: string, h: (arg: unknown) => void) => void handlers.set(t, h),
      close() {
        this.closed = true;
      },
    };
    const opened: unknown[] = [];
    const { host } = hostOf({
      EventType: {
        ItemChanged: 'olkItemSelectedChanged',
        DialogMessageReceived: 'dialogMessageReceived',
        DialogEventReceived: 'dialogEventReceived',
      },
      context: {
        mailbox: { item: composeMessage() },
        ui: {
          displayDialogAsync: (url: string, options: unknown, cb: Callback) => {
            opened.push([url, options]);
            ok(cb, dialog);
          },
        },
      },
    });
    const result = host.openDialog('https://ds.example.com/consent', { width: 30, height: 60 });
    await vi.waitFor(() => expect(handlers.size).toBe(2));
    expect(opened).toEqual([['https://ds.example.com/consent', { width: 30, height: 60, displayInIframe: false }]]);
    handlers.get('dialogMessageReceived')!({ message: 'connected', origin: 'https://ds.example.com' });
    expect(await result).toBe('connected');
    expect(dialog.closed).toBe(true);
  });

  it('a dialog the user closes resolves null; one that cannot open rejects', async () => {
    const handlers = new Map<string, (arg: unknown) => void>();
    const dialog = { addEventHandler: (t: string, h: (arg: unknown) => void) => void handlers.set(t, h), close: vi.fn() };
    let fail = false;
    const { host } = hostOf({
      context: {
        mailbox: { item: composeMessage() },
        ui: {
          displayDialogAsync: (_u: string, _o: unknown, cb: Callback) =>
            fail
              ? cb({ status: 'failed', error: { code: 12007, message: 'A dialog box is already opened from this host window.' } })
              : ok(cb, dialog),
        },
      },
    });
    const result = host.openDialog('https://ds.example.com/consent');
    await vi.waitFor(() => expect(handlers.size).toBe(2));
    handlers.get('dialogEventReceived')!({ error: 12006 });
    expect(await result).toBeNull();
    expect(dialog.close).not.toHaveBeenCalled();
    fail = true;
    await expect(host.openDialog('https://ds.example.com/consent')).rejects.toEqual(
      new OfficeCallError(12007, 'A dialog box is already opened from this host window.'),
    );
  });

  it('roaming settings: get, set and save, remove', async () => {
    const store = new Map<string, unknown>();
    const saveAsync = vi.fn((cb: Callback) => ok(cb));
    const { host } = hostOf({
      context: {
        mailbox: { userProfile: { emailAddress: 'me@corp.com' } },
        roamingSettings: {
          get: (k: string) => store.get(k),
          set: (k: string, v: unknown) => void store.set(k, v),
          remove: (k: string) => void store.delete(k),
          saveAsync,
        },
      },
    });
    expect(host.settings.get('serverUrl')).toBeNull();
    await host.settings.set('serverUrl', 'https://ds.example.com');
    expect(host.settings.get('serverUrl')).toBe('https://ds.example.com');
    await host.settings.set('serverUrl', null);
    expect(host.settings.get('serverUrl')).toBeNull();
    expect(saveAsync).toHaveBeenCalledTimes(2);
  });

  it('ItemChanged: the handler runs when a pinned pane’s selection changes, until unsubscribed', async () => {
    const handlers = new Map<string, () => void>();
    const removed: string[] = [];
    const { host } = hostOf({
      context: {
        mailbox: {
          item: readMessage,
          addHandlerAsync: (type: string, h: () => void, cb: Callback) => {
            handlers.set(type, h);
            ok(cb);
          },
          removeHandlerAsync: (type: string, cb: Callback) => {
            handlers.delete(type);
            removed.push(type);
            ok(cb);
          },
        },
      },
    });
    const seen = vi.fn();
    const off = await host.onItemChanged(seen);
    handlers.get('olkItemSelectedChanged')!();
    expect(seen).toHaveBeenCalledTimes(1);
    off();
    expect(removed).toEqual(['olkItemSelectedChanged']);
  });

  it('outside Outlook: no mailbox, no item, settings in localStorage', async () => {
    const memory = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => memory.get(k) ?? null,
      setItem: (k: string, v: string) => void memory.set(k, v),
      removeItem: (k: string) => void memory.delete(k),
    });
    try {
      const host = createOutlookHost(() => undefined);
      expect(await host.ready()).toEqual({ host: null, platform: null });
      expect(host.inOutlook()).toBe(false);
      expect(await host.currentItem()).toBeNull();
      await host.settings.set('serverUrl', 'http://127.0.0.1:3000');
      expect(memory.get('dealscout.addin.serverUrl')).toBe('http://127.0.0.1:3000');
      expect(host.settings.get('serverUrl')).toBe('http://127.0.0.1:3000');
      const open = vi.fn();
      vi.stubGlobal('open', open);
      expect(await host.openDialog('https://ds.example.com/consent')).toBeNull();
      expect(open).toHaveBeenCalledWith('https://ds.example.com/consent', '_blank', 'noopener');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
