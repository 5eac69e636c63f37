// A failure that stays where it happened. A connect refused on the provider's page (Salesforce,
// Office 365) comes back as a redirect with a reason; a toast alone would be gone in three seconds
// and leave the card saying 'Not connected'. The card keeps the reason and what to do next until the
// user acts: tries again, dismisses it, or the connection succeeds. The reason is kept in this
// browser (localStorage, per failure key), so a reload or a visit to another page does not lose it.
import { useCallback, useEffect, useState } from 'react';
import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import { CRM_MESSAGES } from '../domain';

export interface KeptFailure {
  message: string;
  /** ISO time it happened. */
  at: string;
}

const storageKey = (key: string) => `dealscout.failure.${key}`;

function read(key: string): KeptFailure | null {
  try {
    const raw: unknown = JSON.parse(globalThis.localStorage?.getItem(storageKey(key)) ?? 'null');
    if (raw && typeof raw === 'object' && typeof (raw as KeptFailure).message === 'string' && typeof (raw as KeptFailure).at === 'string')
      return raw as KeptFailure;
  } catch {
    /* a damaged entry reads as none */
  }
  return null;
}

const listeners = new Map<string, Set<(f: KeptFailure | null) => void>>();

/** Keeps (or forgets, with null) the failure under `key` and tells every card showing it. */
export function keepFailure(key: string, message: string | null, at = new Date().toISOString()): void {
  const value = message ? { message, at } : null;
  try {
    if (value) globalThis.localStorage?.setItem(storageKey(key), JSON.stringify(value));
    else globalThis.localStorage?.removeItem(storageKey(key));
  } catch {
    /* storage full or refused: the card still shows it for this page */
  }
  for (const l of listeners.get(key) ?? []) l(value);
}

/** The failure kept under `key`, and a way to forget it. */
export function useKeptFailure(key: string): [KeptFailure | null, () => void] {
  const [failure, setFailure] = useState<KeptFailure | null>(() => read(key));
  useEffect(() => {
    setFailure(read(key));
    const set = listeners.get(key) ?? new Set();
    set.add(setFailure);
    listeners.set(key, set);
    return () => {
      set.delete(setFailure);
    };
  }, [key]);
  const forget = useCallback(() => keepFailure(key, null), [key]);
  return [failure, forget];
}

/** What to do after a failed connect, from the reason the server gave. */
export function connectNextStep(provider: string, message: string): string {
  if (message === CRM_MESSAGES.authorizationDenied) return `Connect again and choose Allow on ${provider}'s page.`;
  if (message === CRM_MESSAGES.authorizationExpired)
    return `Start again with Connect and finish on ${provider}'s page within fifteen minutes.`;
  if (message === CRM_MESSAGES.salesforceNotConfigured)
    return 'Ask whoever runs Dealscout to register the Salesforce connected app, then connect again.';
  if (/already connected\. Disconnect it/.test(message)) return 'Disconnect the other CRM in its card first, then connect again.';
  if (/^Could not reach/.test(message))
    return `${provider} did not answer. Try again in a few minutes; if it keeps failing, check that ${provider} is up.`;
  if (/instance URL/.test(message))
    return 'Check the login you chose (production or sandbox) and that your Salesforce org has My Domain enabled, then connect again.';
  if (provider === 'Office 365')
    return (
      "Connect again and accept the permissions Microsoft asks for. If your organization requires an administrator's " +
      'approval, ask your Microsoft 365 admin to approve Dealscout first.'
    );
  return `Try again. If it keeps failing, check that your ${provider} user is allowed to use connected apps.`;
}

export interface FailureNoticeProps {
  title: string;
  failure: KeptFailure;
  nextStep: string;
  onDismiss: () => void;
  /** Shown as 'Try again' when given. */
  onRetry?: () => void;
  'data-testid'?: string;
}

/** The kept failure on its card: the reason, when, what to do next; Try again and Dismiss. */
export function FailureNotice({ title, failure, nextStep, onDismiss, onRetry, 'data-testid': testId }: FailureNoticeProps) {
  const when = new Date(failure.at).toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
  return (
    <MessageBar intent="error" layout="multiline" role="alert" data-testid={testId}>
      <MessageBarBody>
        <MessageBarTitle>{title}</MessageBarTitle>
        <span data-testid={testId ? `${testId}-reason` : undefined}>{failure.message}</span>{' '}
        <span data-testid={testId ? `${testId}-next` : undefined}>{nextStep}</span> <time dateTime={failure.at}>({when})</time>
      </MessageBarBody>
      <MessageBarActions
        containerAction={
          <Button
            appearance="transparent"
            icon={<DismissRegular />}
            aria-label="Dismiss"
            onClick={onDismiss}
            data-testid={testId ? `${testId}-dismiss` : undefined}
          />
        }
      >
        {onRetry && (
          <Button onClick={onRetry} data-testid={testId ? `${testId}-retry` : undefined}>
            Try again
          </Button>
        )}
      </MessageBarActions>
    </MessageBar>
  );
}
