// One toaster per client; every toast times out after 3000 ms unless told otherwise
// (spec 000 §9 'Toast default timeout').
import { useCallback, useMemo } from 'react';
import { Toast, ToastTitle, Toaster, useToastController, type ToastIntent } from '@fluentui/react-components';

export const TOASTER_ID = 'dealscout-toaster';
export const TOAST_TIMEOUT = 3000;

export function AppToaster() {
  return <Toaster toasterId={TOASTER_ID} position="top-end" offset={{ vertical: 60 }} timeout={TOAST_TIMEOUT} pauseOnHover />;
}

export interface Notify {
  success(message: string, timeout?: number): void;
  error(message: string, timeout?: number): void;
  warning(message: string, timeout?: number): void;
  info(message: string, timeout?: number): void;
}

export function useNotify(): Notify {
  const { dispatchToast } = useToastController(TOASTER_ID);
  const show = useCallback(
    (intent: ToastIntent, message: string, timeout = TOAST_TIMEOUT) => {
      dispatchToast(
        <Toast data-testid={`toast-${intent}`}>
          <ToastTitle>{message}</ToastTitle>
        </Toast>,
        { intent, timeout },
      );
    },
    [dispatchToast],
  );
  return useMemo(
    () => ({
      success: (m: string, t?: number) => show('success', m, t),
      error: (m: string, t?: number) => show('error', m, t),
      warning: (m: string, t?: number) => show('warning', m, t),
      info: (m: string, t?: number) => show('info', m, t),
    }),
    [show],
  );
}
