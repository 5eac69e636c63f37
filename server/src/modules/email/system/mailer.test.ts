import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import net from 'node:net';
import { createTestApp, createOrg, createUser, mailsTo, TestClient, type TestContext } from '../../../../test/helpers';

/** A minimal SMTP server that accepts every message and keeps its raw DATA. */
function smtpSink(): Promise<{ port: number; messages: string[]; close(): Promise<void> }> {
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let data = '';
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let i: number;
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            messages.push(data);
            data = '';
            socket.write('250 queued\r\n');
          } else data += `${line}\n`;
          continue;
        }
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') socket.write('250 sink\r\n');
        else if (cmd === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (cmd === 'QUIT') {
          socket.end('221 bye\r\n');
        } else socket.write('250 ok\r\n');
      }
    });
    socket.on('error', () => {});
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        messages,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    );
  });
}

describe('system mail through SMTP', () => {
  let sink: Awaited<ReturnType<typeof smtpSink>>;
  let ctx: TestContext;
  let orgId: string;
  beforeAll(async () => {
    sink = await smtpSink();
    ctx = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${sink.port}`, MAIL_FROM: 'Dealscout <mailer@dealscout.test>' } });
    orgId = (await createOrg(ctx)).organization.id;
  });
  afterAll(async () => {
    await ctx.close();
    await sink.close();
  });

  it('sends the mail and marks the outbox row sent', async () => {
    const user = await createUser(ctx, orgId);
    await new TestClient(ctx.app).post('/api/v1/auth/forgotpassword', { email: user.email });
    const [mail] = await mailsTo(ctx, user.email);
    expect(mail).toMatchObject({ status: 'sent', kind: 'password-reset', error: null });
    expect(mail.sentAt).toBeInstanceOf(Date);
    const raw = sink.messages.find((m) => m.includes(`To: ${user.email}`));
    expect(raw).toBeDefined();
    expect(raw).toContain('From: Dealscout <mailer@dealscout.test>');
    expect(raw).toContain('Subject: Reset your Dealscout password');
    expect(raw!.replace(/=\r?\n/g, '')).toContain('/reset-password?token=');
    // Once sent, the stored copy no longer holds the live link (the token tables keep only hashes).
    expect(mail.text).not.toContain('token=');
    expect(mail.text).toContain('[link removed after sending]');
  });

  it('an invitation mail, once sent, is stored without its link', async () => {
    const { admin } = await createOrg(ctx);
    const c = new TestClient(ctx.app);
    await c.login(admin.email);
    const invitee = `sent-invite-${Date.now()}@example.com`;
    expect((await c.post('/api/v1/organization/invite', { emails: [invitee], role: 'User' })).statusCode).toBe(200);
    const [mail] = await mailsTo(ctx, invitee);
    expect(mail.status).toBe('sent');
    expect(mail.text).not.toMatch(/\/invite\/[A-Za-z0-9_-]{20,}/);
    expect(mail.text).toContain('[link removed after sending]');
    expect(sink.messages.find((m) => m.includes(`To: ${invitee}`))!.replace(/=\r?\n/g, '')).toMatch(/\/invite\/[A-Za-z0-9_%-]{20,}/);
  });
});

describe('system mail when SMTP fails', () => {
  let ctx: TestContext;
  let orgId: string;
  beforeAll(async () => {
    // A port nothing listens on: the connection is refused.
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    ctx = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    orgId = (await createOrg(ctx)).organization.id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('keeps the mail in the outbox marked failed with the error (never dropped), and the answer is unchanged', async () => {
    const admin = await createUser(ctx, orgId, { role: 'Admin' });
    const c = new TestClient(ctx.app);
    await c.login(admin.email);
    const invitee = 'smtp-down@example.com';
    const res = await c.post('/api/v1/organization/invite', { emails: [invitee], role: 'User' });
    expect(res.statusCode).toBe(200);
    const [mail] = await mailsTo(ctx, invitee);
    expect(mail).toMatchObject({ status: 'failed', kind: 'invitation' });
    expect(mail.error).toBeTruthy();
    expect(mail.text).toContain('/invite/');
  });
});
