// One toaster per client (spec 000 §9: toasts time out after 3000 ms, the copy toast after 500 ms).
//  - Placement: top centre, over the header band's empty middle, where it covers neither the
//    drawer's title and buttons (top right) nor the page's toolbar, table or pagination bar. The
//    side panel has no such band (its header and toolbar fill its width): bottom centre there.
//  - Timing: the spec's timeout is how long the message is on screen. Fluent's own timer only
//    starts after the enter animation (and pauses while hovered or focused), and its enter and exit
//    motions (collapse plus a delayed fade: 600 ms each way) kept the 0.5 s copy toast visible for
//    about 1.1 s. So our own timer dismisses, and the toaster runs without motions
//    (MotionBehaviourProvider 'skip'): a toast appears at once and is gone at once.
//  - Replacement: a new message replaces the shown one of the same kind (the intent, unless the
//    caller names a kind): the older one is dismissed as the new one comes, so they do not pile up.
//  - Details: a toast may carry a body under its title (e.g. who a play run skipped, with links to
//    fix each); such a toast has a Dismiss action, and callers keep it until dismissed (timeout 0).
import { useCallback, useMemo, useRef, type ReactNode } from 'react';
import {
  Link,
  Toast,
  ToastBody,
  ToastTitle,
  ToastTrigger,
  Toaster,
  useToastController,
  type ToastIntent,
} from '@fluentui/react-components';
import { MotionBehaviourProvider } from '@fluentui/react-motion';

export const TOASTER_ID = 'dealscout-toaster';
export const TOAST_TIMEOUT = 3000;

/**
 * `position`: top centre by default; the Chrome side panel puts its toasts at the bottom, since its
 * top is the panel's own header and toolbar (Enrich, Add to list), which a toast there covered.
 */
export function AppToaster({ position = 'top' }: { position?: 'top' | 'bottom' }) {
  return (
    <MotionBehaviourProvider value="skip">
      <Toaster toasterId={TOASTER_ID} position={position} offset={{ vertical: position === 'top' ? 6 : 12 }} timeout={-1} limit={4} />
    </MotionBehaviourProvider>
  );
}

export interface NotifyOptions {
  /** Messages of one kind replace each other; defaults to the intent (persistent ones to their text). */
  kind?: string;
  /** Shown under the message (the toast then has a Dismiss action). */
  body?: ReactNode;
}

export interface Notify {
  /** `timeout` in ms; 0 or below: stays until dismissed. */
  success(message: string, timeout?: number, options?: NotifyOptions): void;
  error(message: string, timeout?: number, options?: NotifyOptions): void;
  warning(message: string, timeout?: number, options?: NotifyOptions): void;
  info(message: string, timeout?: number, options?: NotifyOptions): void;
}

interface Shown {
  toastId: string;
  timer: ReturnType<typeof setTimeout> | null;
}

// Shown toasts by kind, for every useNotify() of the page (one toaster).
const shown = new Map<string, Shown>();
let nextId = 0;

function content(intent: ToastIntent, message: string, body?: ReactNode) {
  const dismiss = body ? (
    <ToastTrigger>
      <Link as="button" data-testid="toast-dismiss">
        Dismiss
      </Link>
    </ToastTrigger>
  ) : undefined;
  return (
    <Toast data-testid={`toast-${intent}`}>
      <ToastTitle action={dismiss}>{message}</ToastTitle>
      {body ? <ToastBody>{body}</ToastBody> : null}
    </Toast>
  );
}

export function useNotify(): Notify {
  const { dispatchToast, dismissToast } = useToastController(TOASTER_ID);
  const ctl = useRef({ dispatchToast, dismissToast });
  ctl.current = { dispatchToast, dismissToast };
  const show = useCallback((intent: ToastIntent, message: string, timeout = TOAST_TIMEOUT, options: NotifyOptions = {}) => {
    const persistent = timeout <= 0;
    const kind = options.kind ?? (persistent ? `${intent}:${message}` : intent);
    const { dispatchToast: dispatch, dismissToast: dismiss } = ctl.current;
    const arm = (entry: Shown) => {
      if (entry.timer) clearTimeout(entry.timer);
      entry.timer = persistent
        ? null
        : setTimeout(() => {
            if (shown.get(kind) === entry) shown.delete(kind);
            dismiss(entry.toastId);
          }, timeout);
    };
    // The shown one of this kind goes at once (dismissing a toast that is already gone, e.g.
    // after its toaster unmounted, does nothing).
    const current = shown.get(kind);
    if (current) {
      if (current.timer) clearTimeout(current.timer);
      shown.delete(kind);
      dismiss(current.toastId);
    }
    const entry: Shown = { toastId: `toast-${++nextId}`, timer: null };
    shown.set(kind, entry);
    dispatch(content(intent, message, options.body), {
      toastId: entry.toastId,
      intent,
      timeout: -1,
      // Closed another way (Escape, the toaster unmounting): the kind is free again.
      onStatusChange: (_e, { status }) => {
        if ((status === 'dismissed' || status === 'unmounted') && shown.get(kind) === entry) {
          if (entry.timer) clearTimeout(entry.timer);
          shown.delete(kind);
        }
      },
    });
    arm(entry);
  }, []);
  return useMemo(
    () => ({
      success: (m: string, t?: number, o?: NotifyOptions) => show('success', m, t, o),
      error: (m: string, t?: number, o?: NotifyOptions) => show('error', m, t, o),
      warning: (m: string, t?: number, o?: NotifyOptions) => show('warning', m, t, o),
      info: (m: string, t?: number, o?: NotifyOptions) => show('info', m, t, o),
    }),
    [show],
  );
}
