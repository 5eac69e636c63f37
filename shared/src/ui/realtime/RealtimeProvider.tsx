// Realtime in the clients: one socket per signed-in session (the shared RealtimeClient of
// shared/src/client/realtime.ts), subscribed to the organization's activities, executions and
// entities and the user's notifications; every event updates or invalidates the TanStack Query
// caches (cache.ts). Features listen to more with useRealtimeEvents(path, handler).
//
//   <RealtimeProvider identity={{ uid: user.id, oid: user.organizationId }}>…</RealtimeProvider>
//   useRealtimeEvents(({ oid }) => realtimePaths.executions(oid, 'enrichment'), (e) => …);
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { RealtimeEvent } from '../../contracts';
import { realtimePaths } from '../../domain';
import { createRealtimeClient, realtimeUrl, type RealtimeClient, type RealtimeClientOptions, type RealtimeStatus } from '../../client';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { applyRealtimeEvent, invalidateAfterReset } from './cache';

export interface RealtimeIdentity {
  /** The signed-in user's id. */
  uid: string;
  /** Their organization's id. */
  oid: string;
}

interface RealtimeContextValue {
  client: RealtimeClient | null;
  identity: RealtimeIdentity | null;
  status: RealtimeStatus;
}

const RealtimeContext = createContext<RealtimeContextValue>({ client: null, identity: null, status: { status: 'idle' } });

/** The paths every client listens to for its caches (ARCHITECTURE.md 'Realtime' paths). */
export function cachePaths(who: RealtimeIdentity): string[] {
  return [
    realtimePaths.activities(who.oid),
    realtimePaths.notifications(who.uid),
    realtimePaths.executions(who.oid),
    realtimePaths.entities(who.oid),
  ];
}

export interface RealtimeProviderProps {
  /** The signed-in user; null (signed out) opens nothing. */
  identity: RealtimeIdentity | null;
  /** Socket address; defaults to this page's origin (the web app). The add-in and extension pass the server's. */
  url?: string;
  /** Options for the client (tests pass a socket factory and short delays). */
  clientOptions?: Partial<Omit<RealtimeClientOptions, 'url' | 'getToken'>>;
  children: ReactNode;
}

export function RealtimeProvider({ identity, url, clientOptions, children }: RealtimeProviderProps) {
  const api = useApi();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [client, setClient] = useState<RealtimeClient | null>(null);
  const [status, setStatus] = useState<RealtimeStatus>({ status: 'idle' });
  const uid = identity?.uid ?? null;
  const oid = identity?.oid ?? null;
  // Read when the socket opens; a new options object on each render must not reopen it.
  const optionsRef = useRef(clientOptions);
  const notifyRef = useRef(notify);
  notifyRef.current = notify;

  useEffect(() => {
    if (!uid || !oid) return undefined;
    const rt = createRealtimeClient({
      url: url ?? realtimeUrl(globalThis.location?.origin ?? ''),
      getToken: () => api.notifications.token(),
      ...optionsRef.current,
    });
    const offs = [
      rt.onStatus((s) => {
        setStatus(s);
        // Spec: when the socket cannot connect. It stays up until dismissed; the client keeps trying.
        if (s.status === 'failed') notifyRef.current.error(s.message, -1);
      }),
      rt.onReset(() => void invalidateAfterReset(queryClient)),
      ...cachePaths({ uid, oid }).map((p) => rt.subscribe(p, (e) => applyRealtimeEvent(queryClient, e))),
    ];
    rt.start();
    setClient(rt);
    return () => {
      for (const off of offs) off();
      rt.stop();
      setClient(null);
      setStatus({ status: 'idle' });
    };
  }, [uid, oid, url, api, queryClient]);

  const value = useMemo<RealtimeContextValue>(
    () => ({ client, identity: uid && oid ? { uid, oid } : null, status }),
    [client, uid, oid, status],
  );
  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}

/** The socket's state ('open', 'reconnecting', 'failed'…); 'idle' outside a provider. */
export function useRealtimeStatus(): RealtimeStatus {
  return useContext(RealtimeContext).status;
}

export type RealtimePathSpec = string | null | undefined | ((who: RealtimeIdentity) => string | null | undefined);

export interface RealtimeEventsOptions {
  /** Only these event kinds reach the handler ('execution.updated'…). */
  kinds?: readonly string[];
}

/**
 * Calls `handler` for every event on `path` and below it while the component is mounted. `path`
 * may be a function of the signed-in identity: `({ oid }) => realtimePaths.executions(oid, 'enrichment')`.
 * The handler may change on every render (it is kept in a ref); a null path listens to nothing.
 * Caches are already updated by the provider; use this for what a feature does beyond that.
 */
export function useRealtimeEvents(
  path: RealtimePathSpec,
  handler: (event: RealtimeEvent) => void,
  options: RealtimeEventsOptions = {},
): void {
  const { client, identity } = useContext(RealtimeContext);
  const resolved = typeof path === 'function' ? (identity ? path(identity) : null) : path;
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  const kinds = options.kinds?.join(',') ?? '';
  useEffect(() => {
    if (!client || !resolved) return undefined;
    const only = kinds ? new Set(kinds.split(',')) : null;
    return client.subscribe(resolved, (e) => {
      if (!only || only.has(e.kind)) handlerRef.current(e);
    });
  }, [client, resolved, kinds]);
}
