// How a failed save is reported (spec 002 §8 'Saving companies and contacts'): a 409 is the
// duplicate-domain conflict, any other error shows the server's message, else the generic failure.
import { COMPANY_MESSAGES, CONTACT_MESSAGES } from '../../domain';
import { serverMessage } from '../server-message';

/** The HTTP status of an ApiError (or any error carrying one). */
export function errorStatus(error: unknown): number | null {
  if (error && typeof error === 'object' && 'status' in error && typeof (error as { status: unknown }).status === 'number') {
    return (error as { status: number }).status;
  }
  return null;
}

/** The message to show for a failed company or contact save. */
export function saveErrorMessage(error: unknown, fallback: string): string {
  const message = serverMessage(error);
  if (errorStatus(error) === 409) {
    // The contact-email conflict keeps its own wording; every other conflict is the domain one.
    return message === CONTACT_MESSAGES.duplicateEmail ? message : COMPANY_MESSAGES.duplicateDomain;
  }
  // A 401 is handled by the client (sign-out); its message is not a save failure to show here.
  return message ?? fallback;
}

export interface FieldIssue {
  path: string;
  message: string;
}

/** Field issues of a validation error answer (`{ issues: [{ path, message }] }`). */
export function fieldIssues(error: unknown): FieldIssue[] {
  if (!error || typeof error !== 'object' || !('body' in error)) return [];
  const body = (error as { body: unknown }).body;
  if (!body || typeof body !== 'object' || !('issues' in body) || !Array.isArray((body as { issues: unknown }).issues)) return [];
  return (body as { issues: unknown[] }).issues.filter(
    (i): i is FieldIssue =>
      !!i && typeof i === 'object' && typeof (i as FieldIssue).path === 'string' && typeof (i as FieldIssue).message === 'string',
  );
}

/**
 * Issues under one part of the body ('company' or 'contact'), keyed by field name. Paths may be
 * 'company.name', 'company/name' or, for the dialog's own entity, a bare 'name'.
 */
export function issuesFor(issues: FieldIssue[], part: string, own: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues) {
    const segments = i.path.split(/[./]/).filter(Boolean);
    if (segments.length === 0) continue;
    if (segments.length >= 2 && segments[segments.length - 2] === part) out[segments[segments.length - 1]] ??= i.message;
    else if (segments.length === 1 && own) out[segments[0]] ??= i.message;
  }
  return out;
}
