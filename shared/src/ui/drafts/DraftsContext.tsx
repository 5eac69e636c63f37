// The user's open email drafts (spec 000 §2 'Floating draft-email panels', §4 'Generating an AI
// email'): `GET /email/pending` is the list of panels; which ones are expanded and their order
// (the last opened is the rightmost) are this client's. A play run writes drafts in the worker:
// its executions' realtime events refetch the list, and an AI email that is still 'processing' is
// verified (`POST /entity/check-ai-generated`), which makes it a draft (or an error). A poll every
// few seconds while something is processing covers a missed event. A panel the user closed leaves
// the dock (the draft stays, listed in its record's Activities tab) until it is opened again; the
// closed ones are kept per user in this browser's storage, so they stay closed across pages and
// reloads.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmailDraftDto, ExecutionDto } from '../../contracts';
import { REALTIME_EVENT_KINDS } from '../../domain';
import { DRAFT_PANEL, EMAIL_MESSAGES, isDraftShown, isTerminalExecutionStatus, realtimePaths } from '../../domain';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { serverMessage } from '../server-message';
import { useRealtimeEvents } from '../realtime';
import { usePluginMode } from '../PluginMode';

export const PENDING_EMAILS_KEY = ['emails', 'pending'] as const;
/** How often the list is re-read while a draft is being written (a missed realtime event). */
export const PROCESSING_POLL_MS = 4000;
const VERIFY_CONCURRENCY = 4;
export const REFRESH_THROTTLE_MS = 300;

export interface DraftTarget {
  contactId?: string | null;
  companyId?: string | null;
  /** A reply to the message being read: its subject (the draft's becomes 'Re: …') and Graph id. */
  replyTo?: { subject: string; messageId?: string | null };
}

export interface DraftsState {
  /** The user's open drafts (not cancelled, sent or scheduled), in panel order (rightmost first). */
  drafts: EmailDraftDto[];
  /** Those with a panel in the dock: the drafts less the ones the user closed. */
  docked: EmailDraftDto[];
  /** Takes a draft's panel out of the dock (the draft stays) until it is opened again. */
  dismiss(id: string): void;
  isExpanded(id: string): boolean;
  setExpanded(id: string, expanded: boolean): void;
  /** Brings a draft's panel to the front, expanded (back in the dock if it was closed). */
  open(id: string): void;
  /** 'Draft Email to {name}' / 'create email with defaults': a new draft to a contact or a company's key contact. */
  create(target: DraftTarget): Promise<EmailDraftDto | null>;
  /** Puts the server's answer for a draft in the list (a hidden status removes its panel). */
  update(draft: EmailDraftDto): void;
  remove(id: string): void;
}

const Ctx = createContext<DraftsState | null>(null);

/** Where a user's closed panels are kept (this browser's storage, per user). */
export const dismissedDraftsKey = (userId: string) => `dealscout:drafts:dismissed:${userId}`;

function readDismissed(userId: string): Set<string> {
  try {
    const raw: unknown = JSON.parse(globalThis.localStorage?.getItem(dismissedDraftsKey(userId)) ?? '[]');
    return new Set(Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
}

function writeDismissed(userId: string, ids: ReadonlySet<string>) {
  try {
    if (ids.size === 0) globalThis.localStorage?.removeItem(dismissedDraftsKey(userId));
    else globalThis.localStorage?.setItem(dismissedDraftsKey(userId), JSON.stringify([...ids]));
  } catch {
    /* storage full or blocked: closed for this page only */
  }
}

/** The drafts' state, or null in a client without panels (then the openers are hidden). */
export function useDrafts(): DraftsState | null {
  return useContext(Ctx);
}

export function DraftsProvider({ userId, children }: { userId: string; children: ReactNode }) {
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const pending = useQuery({
    queryKey: PENDING_EMAILS_KEY,
    queryFn: async () => (await api.emails.pending()).emails,
    refetchInterval: (q) => ((q.state.data ?? []).some((d) => d.status === 'processing') ? PROCESSING_POLL_MS : false),
  });

  const [order, setOrder] = useState<string[]>([]);
  const [expanded, setExpandedIds] = useState<ReadonlySet<string>>(new Set());
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(() => readDismissed(userId));
  const changeDismissed = useCallback(
    (fn: (old: ReadonlySet<string>) => ReadonlySet<string>) => {
      setDismissed((old) => {
        const next = fn(old);
        if (next !== old) writeDismissed(userId, next);
        return next;
      });
    },
    [userId],
  );
  // Drafts that are gone (sent, discarded) are forgotten, so the kept list stays small.
  useEffect(() => {
    if (!pending.isSuccess || pending.isPlaceholderData) return;
    const live = new Set(pending.data.map((d) => d.channelEmailId));
    changeDismissed((old) => ([...old].some((id) => !live.has(id)) ? new Set([...old].filter((id) => live.has(id))) : old));
  }, [pending.isSuccess, pending.isPlaceholderData, pending.data, changeDismissed]);

  // A draft seen for the first time takes its place at the front (rightmost); opening one moves it there.
  useEffect(() => {
    const list = pending.data ?? [];
    setOrder((old) => {
      const known = new Set(old);
      const fresh = list
        .filter((d) => !known.has(d.channelEmailId))
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
        .map((d) => d.channelEmailId);
      return fresh.length ? [...fresh, ...old] : old;
    });
  }, [pending.data]);

  const drafts = useMemo(() => {
    const list = (pending.data ?? []).filter((d) => isDraftShown(d.status));
    const rank = new Map(order.map((id, i) => [id, i]));
    // Drafts not placed yet (until the effect above runs) come first, newest first; then the order.
    const fresh = list.filter((d) => !rank.has(d.channelEmailId)).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const placed = list.filter((d) => rank.has(d.channelEmailId)).sort((a, b) => rank.get(a.channelEmailId)! - rank.get(b.channelEmailId)!);
    return [...fresh, ...placed];
  }, [pending.data, order]);

  const setList = useCallback(
    (fn: (list: EmailDraftDto[]) => EmailDraftDto[]) => {
      queryClient.setQueryData<EmailDraftDto[]>(PENDING_EMAILS_KEY, (old) => fn(old ?? []));
    },
    [queryClient],
  );
  const update = useCallback(
    (d: EmailDraftDto) => {
      setList((list) => {
        const i = list.findIndex((x) => x.channelEmailId === d.channelEmailId);
        if (!isDraftShown(d.status)) return list.filter((x) => x.channelEmailId !== d.channelEmailId);
        if (i < 0) return [...list, d];
        // An older answer never replaces a newer one.
        if (list[i].updatedAt > d.updatedAt) return list;
        const next = [...list];
        next[i] = d;
        return next;
      });
    },
    [setList],
  );
  const remove = useCallback((id: string) => setList((list) => list.filter((x) => x.channelEmailId !== id)), [setList]);
  const setExpanded = useCallback((id: string, on: boolean) => {
    setExpandedIds((old) => {
      const next = new Set(old);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const open = useCallback(
    (id: string) => {
      setOrder((old) => [id, ...old.filter((x) => x !== id)]);
      setExpanded(id, true);
      changeDismissed((old) => (old.has(id) ? new Set([...old].filter((x) => x !== id)) : old));
    },
    [setExpanded, changeDismissed],
  );
  const dismiss = useCallback(
    (id: string) => {
      setExpanded(id, false);
      changeDismissed((old) => (old.has(id) ? old : new Set([...old, id])));
    },
    [setExpanded, changeDismissed],
  );
  const docked = useMemo(() => drafts.filter((d) => !dismissed.has(d.channelEmailId)), [drafts, dismissed]);
  const create = useCallback(
    async (target: DraftTarget) => {
      try {
        const res = await api.emails.create({
          contactId: target.contactId ?? null,
          companyId: target.companyId ?? null,
          ...(target.replyTo ? { replyTo: target.replyTo } : {}),
        });
        update(res.email);
        open(res.email.channelEmailId);
        return res.email;
      } catch (e) {
        notify.error(serverMessage(e) ?? EMAIL_MESSAGES.invalidEntity);
        return null;
      }
    },
    [api, update, open, notify],
  );

  // Verifying AI emails: each processing draft with an execution, a few at a time, once per list read.
  const verifying = useRef(new Set<string>());
  const verify = useCallback(
    async (list: readonly EmailDraftDto[]) => {
      const todo = list.filter((d) => d.status === 'processing' && d.executionId && !verifying.current.has(d.channelEmailId));
      todo.forEach((d) => verifying.current.add(d.channelEmailId));
      const work = [...todo];
      const worker = async () => {
        for (let d = work.shift(); d; d = work.shift()) {
          try {
            const res = await api.emails.checkAiGenerated({
              executionId: d.executionId!,
              channelEmailId: d.channelEmailId,
              contactId: d.contact?.id ?? null,
            });
            update(res.email);
            if (res.email.status === 'error' && res.email.statusMessage) notify.error(res.email.statusMessage);
          } catch {
            // Still being written ('The email is still being written.'): the next read tries again.
          } finally {
            verifying.current.delete(d.channelEmailId);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(VERIFY_CONCURRENCY, todo.length) }, worker));
    },
    [api, update, notify],
  );
  useEffect(() => {
    if (pending.data) void verify(pending.data);
  }, [pending.data, verify]);

  // A play execution of this user ended: its draft is written (or it failed): read the list again,
  // at most every REFRESH_THROTTLE_MS (a run over many targets ends many executions at once).
  const refresh = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (refresh.current) clearTimeout(refresh.current);
    },
    [],
  );
  useRealtimeEvents(
    ({ oid }) => realtimePaths.executions(oid, 'play'),
    (e) => {
      const x = e.data as ExecutionDto | null;
      if (!x || x.createdById !== userId || !isTerminalExecutionStatus(x.status) || refresh.current) return;
      refresh.current = setTimeout(() => {
        refresh.current = null;
        void queryClient.invalidateQueries({ queryKey: PENDING_EMAILS_KEY });
      }, REFRESH_THROTTLE_MS);
    },
    { kinds: [REALTIME_EVENT_KINDS.executionUpdated] },
  );

  const isExpanded = useCallback((id: string) => expanded.has(id), [expanded]);
  const value = useMemo<DraftsState>(
    () => ({ drafts, docked, dismiss, isExpanded, setExpanded, open, create, update, remove }),
    [drafts, docked, dismiss, isExpanded, setExpanded, open, create, update, remove],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

/** Space between the page's bottom and the minimised panels' band. */
const DOCK_CLEARANCE = 8;

/** The height (px) a page keeps free at its bottom for the dock: 0 without docked panels or under a plugin. */
export function useDraftDockReserve(): number {
  const drafts = useDrafts();
  const plugin = usePluginMode();
  return !plugin && drafts && drafts.docked.length > 0 ? DRAFT_PANEL.minimisedHeight + DOCK_CLEARANCE : 0;
}
