// The bench's HTTP client: signs in like the web app (session cookie + CSRF header) and times POSTs.
export class Client {
  private headers: Record<string, string> = { 'content-type': 'application/json' };
  constructor(private readonly base: string) {}

  async login(email: string, password: string): Promise<void> {
    const res = await fetch(`${this.base}/api/v1/auth/login`, {
      method: 'POST',
      headers: this.headers,
      body: JSON.stringify({ email, password }),
      signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { csrfToken: string };
    const cookies = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    this.headers = { ...this.headers, cookie: cookies, 'x-csrf-token': body.csrfToken };
  }

  /** POST; the time covers the whole answer received (parsing comes after). */
  async post(p: string, body: unknown): Promise<{ ms: number; text: string }> {
    const t0 = performance.now();
    const res = await fetch(`${this.base}${p}`, {
      method: 'POST',
      headers: this.headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    });
    const text = await res.text();
    const ms = performance.now() - t0;
    if (!res.ok) throw new Error(`${p}: ${res.status} ${text.slice(0, 500)}`);
    return { ms, text };
  }

  fetchRaw(p: string, body: unknown): Promise<Response> {
    return fetch(`${this.base}${p}`, {
      method: 'POST',
      headers: this.headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(300_000),
    });
  }
}
