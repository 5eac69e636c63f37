// The server's message of a failed request: one small module, so what only shows a failed request's
// message does not load the modules it used to come from.
/** The server's message of a failed request, if it sent one (ApiError keeps the JSON body). */
export function serverMessage(error: unknown): string | null {
  if (error && typeof error === 'object' && 'body' in error) {
    const body = (error as { body: unknown }).body;
    if (body && typeof body === 'object' && 'message' in body && typeof (body as { message: unknown }).message === 'string') {
      const m = (body as { message: string }).message.trim();
      return m.length > 0 ? m : null;
    }
  }
  return null;
}
