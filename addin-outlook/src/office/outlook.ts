// The only code of the pane that touches Office.js (a lint rule keeps it so). It
// turns the callback APIs of the Outlook mailbox into promises over plain data: the selected item
// (read or compose, message or meeting), its people, the compose subject and body, the reply form,
// roaming settings and ItemChanged for a pinned pane. The item is re-read on every call (it changes
// under a pinned pane) and may be null (no selection, a folder switch, an inline reply elsewhere).

/** The part of the `Office` global the adapter uses (office-addin-mock objects and the e2e double fit it). */
export type OfficeApi = typeof Office;

export interface MailPerson {
  displayName: string;
  email: string;
}

export type MailItem =
  | {
      mode: 'read';
      kind: 'message' | 'appointment';
      id: string | null;
      subject: string;
      from: MailPerson | null;
      to: MailPerson[];
      cc: MailPerson[];
    }
  | { mode: 'compose'; kind: 'message' | 'appointment'; subject: string; to: MailPerson[]; cc: MailPerson[] };

export interface HostInfo {
  /** 'Outlook' inside Outlook; null when the pane is opened in a plain browser. */
  host: string | null;
  platform: string | null;
}

export interface OutlookHost {
  /** Resolves once Office.js has initialized (Office.onReady). */
  ready(): Promise<HostInfo>;
  /** True inside an Outlook mailbox (false in a plain browser). */
  inOutlook(): boolean;
  /** The signed-in mailbox's own address (left out of an email's people). */
  userEmail(): string | null;
  /** The selected or composed item, read afresh; null when there is none. */
  currentItem(): Promise<MailItem | null>;
  /** Calls `handler` when a pinned pane's selection changes; resolves to an unsubscribe. */
  onItemChanged(handler: () => void): Promise<() => void>;
  /** Compose mode: replaces the subject. */
  setSubject(subject: string): Promise<void>;
  /** Compose mode: replaces the body with HTML. */
  setBody(html: string): Promise<void>;
  /** Compose mode: inserts HTML at the cursor. */
  insertBody(html: string): Promise<void>;
  /**
   * Opens `url` in an Office dialog (displayDialogAsync; a new window outside Outlook). Resolves
   * with the first message the dialog page sends (`messageParent`), after closing the dialog, or
   * null when the user closes it (or outside Outlook, at once).
   */
  openDialog(url: string, size?: { width: number; height: number }): Promise<string | null>;
  /** Read mode: opens Outlook's reply form with this HTML body. */
  displayReplyForm(html: string): void;
  /**
   * An item id as Microsoft Graph reads it (Office.js gives EWS-format ids: convertToRestId, REST
   * v2.0 = Graph); null outside Outlook or when the conversion is not available.
   */
  graphId(itemId: string): string | null;
  /** Per-mailbox settings that roam with the user (localStorage outside Outlook). */
  settings: {
    get(key: string): string | null;
    set(key: string, value: string | null): Promise<void>;
  };
}

export class OfficeCallError extends Error {
  constructor(
    public readonly code: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'OfficeCallError';
  }
}

/** One Office.js callback call as a promise: resolves with the value, rejects with the error. */
function call<T>(start: (cb: (r: Office.AsyncResult<T>) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    start((r) => {
      if (String(r.status) === 'failed') reject(new OfficeCallError(r.error?.code ?? null, r.error?.message ?? 'The Outlook call failed'));
      else resolve(r.value);
    });
  });
}

type Address = { displayName?: string | null; emailAddress?: string | null };

function person(a: Address | null | undefined): MailPerson | null {
  const email = (a?.emailAddress ?? '').trim();
  if (!email) return null;
  return { displayName: (a?.displayName ?? '').trim(), email };
}

function people(list: readonly Address[] | null | undefined): MailPerson[] {
  return (list ?? []).map(person).filter((p): p is MailPerson => p !== null);
}

/** A compose field (Recipients / Subject) read through its getAsync. */
function hasGetAsync(v: unknown): v is { getAsync: (cb: (r: Office.AsyncResult<unknown>) => void) => void } {
  return typeof v === 'object' && v !== null && typeof (v as { getAsync?: unknown }).getAsync === 'function';
}

const HTML = 'html';
const DIALOG_MESSAGE = 'dialogMessageReceived';
const DIALOG_EVENT = 'dialogEventReceived';
const ITEM_CHANGED = 'olkItemSelectedChanged';

function storageFallback(): OutlookHost['settings'] {
  const prefix = 'dealscout.addin.';
  return {
    get: (key) => globalThis.localStorage?.getItem(prefix + key) ?? null,
    set: async (key, value) => {
      if (value === null) globalThis.localStorage?.removeItem(prefix + key);
      else globalThis.localStorage?.setItem(prefix + key, value);
    },
  };
}

/** The adapter over an `Office` object (the real one by default). */
export function createOutlookHost(
  getOffice: () => OfficeApi | undefined = () => (globalThis as { Office?: OfficeApi }).Office,
): OutlookHost {
  const office = () => getOffice();
  const mailbox = () => office()?.context?.mailbox ?? null;
  const item = () => mailbox()?.item ?? null;
  const fallback = storageFallback();

  function composeItem(): Office.MessageCompose & Office.AppointmentCompose {
    const it = item() as unknown as (Office.MessageCompose & Office.AppointmentCompose) | null;
    if (!it || !hasGetAsync(it.subject)) throw new OfficeCallError(null, 'No email is being written');
    return it;
  }

  return {
    async ready() {
      const o = office();
      if (!o?.onReady) return { host: null, platform: null };
      const info = await o.onReady();
      return { host: info?.host ? String(info.host) : null, platform: info?.platform ? String(info.platform) : null };
    },

    inOutlook: () => mailbox() !== null,

    userEmail: () => mailbox()?.userProfile?.emailAddress ?? null,

    async currentItem() {
      const it = item() as unknown as Record<string, unknown> | null;
      if (!it) return null;
      const kind = String(it.itemType ?? 'message') === 'appointment' ? 'appointment' : 'message';
      if (hasGetAsync(it.subject)) {
        // Compose: every field is read through its own call.
        const toField = kind === 'appointment' ? it.requiredAttendees : it.to;
        const ccField = kind === 'appointment' ? it.optionalAttendees : it.cc;
        const [subject, to, cc] = await Promise.all([
          call<string>((cb) => (it.subject as Office.Subject).getAsync(cb)),
          hasGetAsync(toField)
            ? call<Office.EmailAddressDetails[]>((cb) => (toField as Office.Recipients).getAsync(cb))
            : Promise.resolve([]),
          hasGetAsync(ccField)
            ? call<Office.EmailAddressDetails[]>((cb) => (ccField as Office.Recipients).getAsync(cb))
            : Promise.resolve([]),
        ]);
        return { mode: 'compose', kind, subject: subject ?? '', to: people(to), cc: people(cc) };
      }
      // Read: the fields are plain values.
      const from = kind === 'appointment' ? it.organizer : (it.from ?? it.sender);
      return {
        mode: 'read',
        kind,
        id: typeof it.itemId === 'string' ? it.itemId : null,
        subject: typeof it.subject === 'string' ? it.subject : '',
        from: person(from as Address | null),
        to: people((kind === 'appointment' ? it.requiredAttendees : it.to) as Address[] | undefined),
        cc: people((kind === 'appointment' ? it.optionalAttendees : it.cc) as Address[] | undefined),
      };
    },

    async onItemChanged(handler) {
      const mb = mailbox();
      if (!mb?.addHandlerAsync) return () => {};
      const type = (office()?.EventType?.ItemChanged ?? ITEM_CHANGED) as Office.EventType;
      const listener = () => handler();
      await call<void>((cb) => mb.addHandlerAsync(type, listener, cb));
      return () => {
        mb.removeHandlerAsync(type, () => {});
      };
    },

    async setSubject(subject) {
      const it = composeItem();
      await call<void>((cb) => it.subject.setAsync(subject, cb));
    },

    async setBody(html) {
      const it = composeItem();
      const coercionType = (office()?.CoercionType?.Html ?? HTML) as Office.CoercionType;
      await call<void>((cb) => it.body.setAsync(html, { coercionType }, cb));
    },

    async insertBody(html) {
      const it = composeItem();
      const coercionType = (office()?.CoercionType?.Html ?? HTML) as Office.CoercionType;
      await call<void>((cb) => it.body.setSelectedDataAsync(html, { coercionType }, cb));
    },

    async openDialog(url, size = { width: 40, height: 70 }) {
      const ui = office()?.context?.ui;
      if (!ui?.displayDialogAsync) {
        globalThis.open?.(url, '_blank', 'noopener');
        return null;
      }
      const dialog = await call<Office.Dialog>((cb) =>
        ui.displayDialogAsync(url, { width: size.width, height: size.height, displayInIframe: false }, cb),
      );
      const types = office()?.EventType;
      return new Promise<string | null>((resolve) => {
        let done = false;
        const finish = (value: string | null, close: boolean) => {
          if (done) return;
          done = true;
          if (close) dialog.close();
          resolve(value);
        };
        dialog.addEventHandler((types?.DialogMessageReceived ?? DIALOG_MESSAGE) as Office.EventType, (arg) => {
          finish('message' in arg ? String(arg.message) : null, true);
        });
        // 12006: the user closed the dialog (other codes: it could not load the page); either way nothing came back.
        dialog.addEventHandler((types?.DialogEventReceived ?? DIALOG_EVENT) as Office.EventType, () => finish(null, false));
      });
    },

    graphId(itemId) {
      const mb = mailbox() as (Office.Mailbox & { convertToRestId?: (id: string, v: unknown) => string }) | null;
      if (!mb || typeof mb.convertToRestId !== 'function') return null;
      try {
        const v2 = office()?.MailboxEnums?.RestVersion?.v2_0 ?? 'v2.0';
        return mb.convertToRestId(itemId, v2) || null;
      } catch {
        return null;
      }
    },

    displayReplyForm(html) {
      const it = item() as unknown as Office.MessageRead | null;
      if (!it || typeof it.displayReplyForm !== 'function') throw new OfficeCallError(null, 'No email is selected');
      it.displayReplyForm({ htmlBody: html });
    },

    settings: {
      get(key) {
        const rs = office()?.context?.roamingSettings;
        if (!rs) return fallback.get(key);
        const v: unknown = rs.get(key);
        return typeof v === 'string' ? v : null;
      },
      async set(key, value) {
        const rs = office()?.context?.roamingSettings;
        if (!rs) return fallback.set(key, value);
        if (value === null) rs.remove(key);
        else rs.set(key, value);
        await call<void>((cb) => rs.saveAsync(cb));
      },
    },
  };
}
