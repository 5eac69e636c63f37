// Running plays end to end: POST /play/execute → executions and jobs → the worker's play handler →
// the real LLM adapter against the fake OpenAI-compatible server → one email draft per target;
// the email draft routes (pending, save, status, generate, check-ai-generated, check-valid-entity).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { EmailDraftDto, PlayExecuteResponse } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { startTestWorker, eventually, type TestWorker } from '../../../test/execution-harness';
import { FakeOpenAiServer, lastUserText } from '../../../test/fakes/openai-server';
import { newCompany, newContact, newField, setValue, link } from '../../../test/records';
import { createQueues } from '../../jobs/definitions';
import { executionJobDefinitions } from '../executions/runner';
import { createPlayHandler } from './handler';
import { executePlay } from './execute';
import type { ExecutionRow } from '../executions/execution.presenter';

const env = { EXECUTION_RETRY_DELAY_SECONDS: '0', EXECUTION_RETRY_LIMIT: '1', LLM_MAX_ATTEMPTS: '1', JOB_POLL_SECONDS: '0.5' };
const text = (t: string) => ({ type: 'text', text: t });

describe('plays: running and drafts', () => {
  let ctx: TestContext;
  let fake: FakeOpenAiServer;
  let worker: TestWorker;
  let rep: TestClient;
  let colleague: TestClient;
  let rival: TestClient;
  let orgId: string;
  let repId: string;

  const pending = async (c: TestClient) => (await c.get('/api/v1/email/pending')).json().emails as EmailDraftDto[];
  const publish = async (c: TestClient, body: Record<string, unknown>) => {
    const res = await c.post('/api/v1/play', { status: 'published', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().play.id as string;
  };
  /** A company with a key contact (the first link is key and primary). */
  const companyWithKey = async (c: TestClient, first: string) => {
    const co = await newCompany(c, { name: `${first} Holdings` });
    const ct = await newContact(c, { firstName: first, lastName: 'Owner' });
    await link(c, co.id, ct.id);
    return { co, ct };
  };
  const execute = (c: TestClient, body: Record<string, unknown>) => c.post('/api/v1/play/execute', body);

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-test'] });
    ctx = await createTestApp({
      boss: true,
      env: { ...env, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.url, OPENAI_MODELS: 'gpt-test' },
    });
    await createQueues(ctx.boss!, executionJobDefinitions([]), ctx.config);
    worker = await startTestWorker(ctx.dbUrl, ctx.config, [createPlayHandler({ config: ctx.config })]);
    const o = await createOrg(ctx, { name: 'Run Plays Co' });
    orgId = o.organization.id;
    repId = o.admin.id;
    rep = await signedIn(ctx, o.admin.email);
    colleague = await signedIn(ctx, (await createUser(ctx, o.organization.id)).email);
    rival = await signedIn(ctx, (await createOrg(ctx, { name: 'Rival Co' })).admin.email);
  });
  afterAll(async () => {
    await worker?.stop();
    await ctx?.close();
    await fake?.close();
  });

  it("checks a run: 'Invalid selection.', 'Invalid play', missing information, unknown and foreign targets", async () => {
    const playId = await publish(rep, { name: 'Checks', instructions: [text('Write')] });
    const { co } = await companyWithKey(rep, 'Checky');
    const lonely = await newCompany(rep, { name: 'Lonely Inc' });
    expect((await execute(rep, { targetIds: [co.id], entityType: 'company' })).json().message).toBe('Invalid selection.');
    expect((await execute(rep, { playId, targetIds: [], entityType: 'company' })).json().message).toBe('Invalid selection.');
    expect((await execute(rep, { playId, targetIds: [co.id], entityType: 'idea' })).statusCode).toBe(400);
    const foreignPlay = await execute(rival, { playId, targetIds: [co.id], entityType: 'company' });
    expect([foreignPlay.statusCode, foreignPlay.json().message]).toEqual([404, 'Invalid play']);
    const draftPlay = (await rep.post('/api/v1/play', { name: 'Unpublished', instructions: [text('x')], status: 'draft' })).json().play.id;
    expect((await execute(rep, { playId: draftPlay, targetIds: [co.id], entityType: 'company' })).json().message).toBe('Invalid play');

    const res = await execute(rep, { playId, targetIds: [lonely.id, randomUUID()], entityType: 'company' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as PlayExecuteResponse;
    expect(body.message).toBe('1 entities have missing information and could not be processed.');
    expect(body.items).toEqual([
      { success: false, playExecutionId: null, entityId: lonely.id, message: 'No key contact found for Lonely Inc' },
      { success: false, playExecutionId: null, entityId: body.items[1].entityId, message: 'Entity not found.' },
    ]);
    // Who was skipped, what they lack, and the record to fix (the spec's message stays as it is).
    expect(body.skipped).toEqual([
      {
        entityId: lonely.id,
        entityType: 'company',
        name: 'Lonely Inc',
        missing: ['keyContact'],
        message: 'No key contact found for Lonely Inc',
        fix: { entityType: 'company', id: lonely.id, action: 'open' },
      },
    ]);
    const contactAlone = await newContact(rep, { firstName: 'Solo', lastName: 'Person' });
    const c2 = (await execute(rep, { playId, targetIds: [contactAlone.id], entityType: 'contact' })).json() as PlayExecuteResponse;
    expect(c2.items[0].message).toBe('No primary company found for Solo Person');
    expect(c2.skipped).toEqual([
      {
        entityId: contactAlone.id,
        entityType: 'contact',
        name: 'Solo Person',
        missing: ['primaryCompany'],
        message: 'No primary company found for Solo Person',
        fix: { entityType: 'contact', id: contactAlone.id, action: 'open' },
      },
    ]);
    // Records imported without some details (a CRM sync): each missing detail named, the fix is the edit dialog —
    // of the key contact itself when it is the one without an address.
    const { co: mute, ct: muteKey } = await companyWithKey(rep, 'Mute');
    const { ct: nameless } = await companyWithKey(rep, 'Nameless');
    await ctx.em().execute(`update contact set email = '' where id = ?`, [muteKey.id]);
    await ctx.em().execute(`update contact set first_name = '', last_name = '' where id = ?`, [nameless.id]);
    const c3 = (await execute(rep, { playId, targetIds: [nameless.id], entityType: 'contact' })).json() as PlayExecuteResponse;
    expect(c3.message).toBe('1 entities have missing information and could not be processed.');
    expect(c3.skipped).toEqual([
      {
        entityId: nameless.id,
        entityType: 'contact',
        name: nameless.email,
        missing: ['firstName', 'lastName'],
        message: 'Invalid contact details please check firstName, lastName or email',
        fix: { entityType: 'contact', id: nameless.id, action: 'edit' },
      },
    ]);
    const c4 = (await execute(rep, { playId, targetIds: [mute.id, co.id], entityType: 'company' })).json() as PlayExecuteResponse;
    expect(c4.message).toBe('1 entities have missing information and could not be processed.');
    expect(c4.skipped).toEqual([
      {
        entityId: mute.id,
        entityType: 'company',
        name: 'Mute Holdings',
        missing: ['keyContactEmail'],
        message: 'No key contact found for Mute Holdings',
        fix: { entityType: 'contact', id: muteKey.id, action: 'edit' },
      },
    ]);
    // Check-valid-entity gives the same answers.
    expect((await rep.post('/api/v1/entity/check-valid-entity', { companyId: lonely.id })).json().message).toBe(
      'No key contact found for Lonely Inc',
    );
    expect((await rep.post('/api/v1/entity/check-valid-entity', { contactId: contactAlone.id })).json().message).toBe(
      'No primary company found for Solo Person',
    );
    expect((await rep.post('/api/v1/entity/check-valid-entity', { contactId: randomUUID() })).json().message).toBe('Entity not found.');
    expect((await rival.post('/api/v1/entity/check-valid-entity', { companyId: co.id })).statusCode).toBe(404);
    expect((await rep.post('/api/v1/entity/check-valid-entity', {})).json().message).toBe('Invalid contact or company.');
    const ok = await rep.post('/api/v1/entity/check-valid-entity', { companyId: co.id, playId });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().contact.firstName).toBe('Checky');
  });

  it('an Ai play over three companies writes one draft each from the model, with what made it; a retried job never makes a second', async () => {
    const f = await newField(rep, 'company', 'string', 'Sector');
    const { co: a, ct: ca } = await companyWithKey(rep, 'Alice');
    const { co: b } = await companyWithKey(rep, 'Bruno');
    const { co: c } = await companyWithKey(rep, 'Chen');
    for (const [co, s] of [
      [a, 'dental clinics'],
      [b, 'logistics'],
      [c, 'software'],
    ] as const)
      await setValue(rep, 'company', co.id, f.id, s);
    fake.when((r) => lastUserText(r).includes('Alice'), {
      json: { subject: 'About Alice Holdings', body: 'Dear Alice,\n\nWe admire your dental clinics.\n\nBest' },
    });
    const playId = await publish(rep, {
      name: 'Founder note',
      instructions: [
        text('Write to the owner of a company in '),
        { type: 'field-box', id: 'fieldbox0001', fieldId: f.id, required: true },
        text('.'),
      ],
    });

    const res = await execute(rep, { playId, targetIds: [a.id, b.id, c.id], entityType: 'company', executionId: 'run-1' });
    const body = res.json() as PlayExecuteResponse;
    expect(body.message).toBe('Play execution started.');
    expect(body.items.every((i) => i.success && i.playExecutionId)).toBe(true);
    // The same run again (a retried request): the same executions, no new ones.
    const again = (
      await execute(rep, { playId, targetIds: [a.id, b.id, c.id], entityType: 'company', executionId: 'run-1' })
    ).json() as PlayExecuteResponse;
    expect(again.items.map((i) => i.playExecutionId)).toEqual(body.items.map((i) => i.playExecutionId));

    const drafts = await eventually(async () => {
      const d = (await pending(rep)).filter((e) => e.play?.id === playId);
      return d.length === 3 ? d : undefined;
    }, 'three drafts');
    const alice = drafts.find((d) => d.contact?.id === ca.id)!;
    expect(alice).toMatchObject({
      subject: 'About Alice Holdings',
      to: ca.email,
      companyId: a.id,
      isAiEmailGenerated: true,
      status: 'processing',
      title: 'Alice Owner',
    });
    expect(alice.emailBody).toBe('<p>Dear Alice,</p><p>We admire your dental clinics.</p><p>Best</p>');
    expect(alice.provenance).toMatchObject({
      model: 'gpt-test',
      playVersion: 1,
      renderedPrompt: 'Write to the owner of a company in dental clinics.',
      values: [{ box: 'fieldbox0001', kind: 'field', label: 'Sector', value: 'dental clinics' }],
    });
    const sent = fake.requests.find((r) => lastUserText(r).includes('Alice'))!;
    expect(sent.body.response_format?.type).toBe('json_schema');
    expect(lastUserText(sent)).toContain('Write to the owner of a company in dental clinics.');
    // The colleague and the rival see none of them.
    expect(await pending(colleague)).toEqual([]);
    expect(await pending(rival)).toEqual([]);
    expect((await rep.get(`/api/v1/play/${playId}`)).json().play.useCount).toBe(3);

    // Verification makes the AI email a draft.
    const verify = await rep.post('/api/v1/entity/check-ai-generated', {
      executionId: alice.executionId,
      channelEmailId: alice.channelEmailId,
      contactId: ca.id,
    });
    expect([verify.statusCode, verify.json().email.status]).toEqual([200, 'draft']);
    expect(
      (await colleague.post('/api/v1/entity/check-ai-generated', { executionId: alice.executionId, channelEmailId: alice.channelEmailId }))
        .statusCode,
    ).toBe(404);

    // Running the job's commit again (a retry that reached the commit) writes no second draft.
    const handler = createPlayHandler({ config: ctx.config });
    const [row] = await ctx.em().execute<ExecutionRow[]>(`select * from execution where id = ?`, [alice.executionId]);
    await handler.commit!(
      ctx.em(),
      row,
      {
        kind: 'done',
        subject: 'Again',
        body: '<p>x</p>',
        model: 'gpt-test',
        isAi: true,
        rendered: { text: '', values: [] },
        playId,
        playName: 'Founder note',
        playVersion: 1,
        contact: { id: ca.id, email: ca.email, firstName: 'Alice', lastName: 'Owner' },
        companyId: a.id,
        companyName: 'x',
      },
      [],
    );
    expect(await ctx.em().execute(`select id from channel_email where execution_id = ?`, [alice.executionId])).toHaveLength(1);
  });

  it(
    'a run larger than its first chunk: the first targets are committed in a transaction of their own, then the ' +
      'rest; each target once, a repeated run answers the same executions, one draft each',
    async () => {
      const cos = [];
      for (const n of ['Chunka', 'Chunkb', 'Chunkc', 'Chunkd']) cos.push((await companyWithKey(rep, n)).co);
      const keyless = await newCompany(rep, { name: 'Chunkless Inc' });
      const unknown = randomUUID();
      // Slow answers: the executions are still running when the run is repeated.
      fake.when((r) => lastUserText(r).includes('Chunk'), { json: { subject: 'Hi', body: 'Hello' }, latencyMs: 1500 });
      const playId = await publish(rep, { name: 'Chunked', instructions: [text('Write briefly')] });
      const em = ctx.em();
      em.setFilterParams('tenant', { organizationId: orgId });
      // Two targets in the first chunk (one of them without a key contact), four in the rest (one unknown).
      const targetIds = [cos[0].id, keyless.id, cos[1].id, cos[2].id, unknown, cos[3].id];
      const body = { playId, targetIds, entityType: 'company' as const, executionId: 'chunked-run' };
      const answer = await executePlay(em, ctx.boss!, { organizationId: orgId, userId: repId }, body, { firstChunk: 2 });
      expect(answer.message).toBe('1 entities have missing information and could not be processed.');
      expect(answer.items.map((i) => [i.entityId, i.success, i.message ?? null])).toEqual([
        [cos[0].id, true, null],
        [keyless.id, false, 'No key contact found for Chunkless Inc'],
        [cos[1].id, true, null],
        [cos[2].id, true, null],
        [unknown, false, 'Entity not found.'],
        [cos[3].id, true, null],
      ]);
      const ids = answer.items.filter((i) => i.success).map((i) => i.playExecutionId!);
      expect(new Set(ids).size).toBe(4);
      // Their first events (status draft: queued) were written by two transactions, the first chunk's first.
      const events = await ctx.em().execute<{ tx: string; seq: string; id: string }[]>(
        `select xmin::text as tx, seq::text as seq, data->>'id' as id from realtime_event where organization_id = ? and data->>'status'
          = 'draft' and data->>'id' in (?, ?, ?, ?) order by seq`,
        [orgId, ...ids],
      );
      expect(events.map((e) => e.id)).toEqual(ids);
      expect(events.map((e) => e.tx)).toEqual([events[0].tx, events[1].tx, events[1].tx, events[1].tx]);
      expect(events[0].tx).not.toBe(events[1].tx);
      // The same run again while they run: the same executions (duplicates), in both parts, and no new ones.
      const again = await executePlay(em, ctx.boss!, { organizationId: orgId, userId: repId }, body, { firstChunk: 2 });
      expect(again.items.map((i) => i.playExecutionId)).toEqual(answer.items.map((i) => i.playExecutionId));
      expect(await ctx.em().execute(`select id from execution where type_id = ?`, [playId])).toHaveLength(4);
      // One draft per execution, and the play counted four uses.
      const drafts = await eventually(async () => {
        const d = (await pending(rep)).filter((e) => e.play?.id === playId);
        return d.length === 4 ? d : undefined;
      }, 'four drafts');
      expect(new Set(drafts.map((d) => d.executionId))).toEqual(new Set(ids));
      const written = await ctx.em().execute<{ n: number }[]>(`select count(*)::int as n from channel_email where play_id = ?`, [playId]);
      expect(written[0].n).toBe(4);
      expect((await rep.get(`/api/v1/play/${playId}`)).json().play.useCount).toBe(4);
    },
  );

  it('a required field box without a value fails that target with a clear message; a Non-Ai play fills its template without a model', async () => {
    const f = await newField(rep, 'contact', 'string', 'Hobby');
    const { co: withValue, ct } = await companyWithKey(rep, 'Dora');
    const { co: without } = await companyWithKey(rep, 'Eli');
    await setValue(rep, 'contact', ct.id, f.id, 'sailing');
    const before = fake.requests.length;
    const playId = await publish(rep, {
      name: 'Template',
      llmProvider: 'non_ai',
      title: 'Hello there',
      instructions: [text('Hi, I hear you enjoy '), { type: 'field-box', id: 'fieldbox0002', fieldId: f.id, required: true }, text('!')],
    });
    const body = (
      await execute(rep, { playId, targetIds: [withValue.id, without.id], entityType: 'company' })
    ).json() as PlayExecuteResponse;
    const [ok, bad] = body.items;
    const failed = await eventually(async () => {
      const [x] = await ctx
        .em()
        .execute<{ status: string; status_message: string }[]>(`select status, status_message from execution where id = ?`, [
          bad.playExecutionId,
        ]);
      return x.status === 'error' ? x : undefined;
    }, 'the failed execution');
    expect(failed.status_message).toBe('The field "Hobby" has no value for this target.');
    const draft = await eventually(
      async () => (await pending(rep)).find((e) => e.executionId === ok.playExecutionId),
      'the template draft',
    );
    expect(draft).toMatchObject({
      subject: 'Hello there',
      emailBody: '<p>Hi, I hear you enjoy sailing!</p>',
      isAiEmailGenerated: false,
      status: 'draft',
    });
    expect(fake.requests.length).toBe(before);
  });

  it(
    "the user's email signature (Profile → email settings) goes under every draft of their plays: in the model's " +
      'prompt and under an Ai or a template body',
    async () => {
      const signerUser = await createUser(ctx, orgId, { firstName: 'Sam', lastName: 'Signer' });
      const signer = await signedIn(ctx, signerUser.email);
      const saved = await signer.put('/api/v1/user/email-settings', { signature: 'Sam Signer\r\nPartner, Run Plays Co\r\n+1 555 0100' });
      expect(saved.statusCode, saved.body).toBe(200);
      const { co: h, ct: hc } = await companyWithKey(signer, 'Hana');
      const { co: i } = await companyWithKey(signer, 'Ivo');
      fake.when((r) => lastUserText(r).includes('Hana'), {
        json: { subject: 'Hello Hana', body: 'Dear Hana,\n\nA short note.\n\nBest regards,' },
      });
      const aiPlay = await publish(signer, { name: 'Signed note', instructions: [text('Write a short note')] });
      const tplPlay = await publish(signer, {
        name: 'Signed template',
        llmProvider: 'non_ai',
        title: 'Hi',
        instructions: [text('Hi there, a quick note.')],
      });
      const ai = (await execute(signer, { playId: aiPlay, targetIds: [h.id], entityType: 'company' })).json() as PlayExecuteResponse;
      const tpl = (await execute(signer, { playId: tplPlay, targetIds: [i.id], entityType: 'company' })).json() as PlayExecuteResponse;
      const aiDraft = await eventually(
        async () => (await pending(signer)).find((e) => e.executionId === ai.items[0].playExecutionId),
        'the Ai draft',
      );
      const tplDraft = await eventually(
        async () => (await pending(signer)).find((e) => e.executionId === tpl.items[0].playExecutionId),
        'the template draft',
      );
      expect(aiDraft).toMatchObject({
        to: hc.email,
        emailBody: '<p>Dear Hana,</p><p>A short note.</p><p>Best regards,</p><p>Sam Signer<br>Partner, Run Plays Co<br>+1 555 0100</p>',
      });
      expect(tplDraft.emailBody).toBe('<p>Hi there, a quick note.</p><p>Sam Signer<br>Partner, Run Plays Co<br>+1 555 0100</p>');
      // The model was told the signature is added under its text (so it does not write one itself).
      const prompt = lastUserText(fake.requests.find((r) => lastUserText(r).includes('Hana'))!);
      expect(prompt).toContain("the sender's signature is added below your text");
      expect(prompt).toContain('Sam Signer\nPartner, Run Plays Co');
      // Without a signature nothing is added (the other drafts of this file), and the preview shows what a run writes.
      const preview = await signer.post('/api/v1/play/preview', {
        playId: tplPlay,
        name: 'Signed template',
        contactId: hc.id,
        instructions: [],
        llmProvider: 'non_ai',
        title: 'Hi',
        subjectPrompt: '',
      });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json().body).toBe('<p>Hi there, a quick note.</p><p>Sam Signer<br>Partner, Run Plays Co<br>+1 555 0100</p>');
      await signer.put('/api/v1/user/email-settings', { signature: '' });
      const again = (
        await execute(signer, { playId: tplPlay, targetIds: [i.id], entityType: 'company', executionId: 'unsigned' })
      ).json() as PlayExecuteResponse;
      const unsigned = await eventually(
        async () => (await pending(signer)).find((e) => e.executionId === again.items[0].playExecutionId),
        'the unsigned draft',
      );
      expect(unsigned.emailBody).toBe('<p>Hi there, a quick note.</p>');
    },
  );

  it('drafts: create, save on change (sanitized), status, discard, generate with a play; only the owner', async () => {
    const { co, ct } = await companyWithKey(rep, 'Fay');
    const created = await rep.post('/api/v1/email/draft', { companyId: co.id });
    expect(created.statusCode, created.body).toBe(201);
    const d = created.json().email as EmailDraftDto;
    expect(d).toMatchObject({ to: ct.email, companyId: co.id, status: 'draft', title: 'Fay Owner', contact: { id: ct.id } });
    const saved = await rep.put(`/api/v1/email/draft/${d.channelEmailId}`, {
      subject: 'Hi',
      body: '<p style="font-family: Garamond">Hello<script>alert(1)</script><img src=x onerror=alert(1)></p>',
      cc: ['a@example.com'],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().email).toMatchObject({
      subject: 'Hi',
      emailBody: '<p style="font-family:Garamond">Hello</p>',
      cc: ['a@example.com'],
    });
    expect((await rep.put(`/api/v1/email/draft/${d.channelEmailId}`, { cc: ['not-an-email'] })).json().message).toBe(
      'Invalid email information.',
    );
    expect((await rep.put(`/api/v1/email/draft/${d.channelEmailId}`, { subject: 'nul\u0000' })).statusCode).toBe(400);
    expect((await colleague.put(`/api/v1/email/draft/${d.channelEmailId}`, { subject: 'mine' })).json().message).toBe(
      'Invalid Channel email.',
    );
    expect((await rival.put(`/api/v1/email/draft/${d.channelEmailId}`, { subject: 'mine' })).statusCode).toBe(404);
    expect(
      (await rep.get('/api/v1/email/pending')).json().emails.find((e: EmailDraftDto) => e.channelEmailId === d.channelEmailId).subject,
    ).toBe('Hi');

    // Generate with a play: processing, then the model's email; verified → draft.
    fake.when((r) => lastUserText(r).includes('Fay'), { json: { subject: 'For Fay', body: 'Hello Fay' } });
    const playId = await publish(rep, { name: 'Gen', instructions: [text('Write briefly')] });
    const gen = await rep.post('/api/v1/email/generate', { channelEmailId: d.channelEmailId, playId });
    expect([gen.statusCode, gen.json().email.status]).toEqual([200, 'processing']);
    const executionId = gen.json().email.executionId as string;
    const written = await eventually(async () => {
      const e = (await pending(rep)).find((x) => x.channelEmailId === d.channelEmailId)!;
      return e.subject === 'For Fay' ? e : undefined;
    }, 'the generated draft');
    expect(written).toMatchObject({
      emailBody: '<p>Hello Fay</p>',
      isAiEmailGenerated: true,
      executionId,
      play: { id: playId, name: 'Gen' },
    });
    await eventually(async () => {
      const r = await rep.post('/api/v1/entity/check-ai-generated', { executionId, channelEmailId: d.channelEmailId });
      return r.statusCode === 200 && r.json().email.status === 'draft' ? true : undefined;
    }, 'the verified draft');

    // Status: bad values, foreign, then discard (cancelled: no longer pending).
    expect((await rep.post('/api/v1/email/update-email-status', { id: d.channelEmailId, status: 'sent' })).json().message).toBe(
      'Failed to update email status.',
    );
    expect((await rep.post('/api/v1/email/update-email-status', { id: 'x', status: 'draft' })).json().message).toBe(
      'Invalid Channel email.',
    );
    expect((await colleague.post('/api/v1/email/update-email-status', { id: d.channelEmailId, status: 'cancelled' })).statusCode).toBe(404);
    const discard = await rep.post('/api/v1/email/update-email-status', { id: d.channelEmailId, status: 'cancelled' });
    expect(discard.json()).toMatchObject({ id: d.channelEmailId, status: 'cancelled', companyId: co.id, subject: 'For Fay', executionId });
    expect((await pending(rep)).some((e) => e.channelEmailId === d.channelEmailId)).toBe(false);
    expect((await rep.put(`/api/v1/email/draft/${d.channelEmailId}`, { subject: 'late' })).json().message).toBe(
      'Invalid email information.',
    );
  });

  it("a reply drafted from the message being read keeps 'Re: <subject>' (a play writes its body) unless the user edits it", async () => {
    const { ct } = await companyWithKey(rep, 'Ria');
    const created = await rep.post('/api/v1/email/draft', {
      contactId: ct.id,
      replyTo: { subject: 'Re: Quick question about Ria Holdings', messageId: 'AAkALgReplyTo1' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const d = created.json().email as EmailDraftDto;
    expect(d).toMatchObject({ subject: 'Re: Quick question about Ria Holdings', reply: { messageId: 'AAkALgReplyTo1' } });
    fake.when((r) => lastUserText(r).includes('Ria'), { json: { subject: 'A brand new subject', body: 'Hello Ria' } });
    const playId = await publish(rep, { name: 'Reply play', instructions: [text('Write a reply')] });
    const generated = async () => {
      const gen = (await rep.post('/api/v1/email/generate', { channelEmailId: d.channelEmailId, playId })).json().email as EmailDraftDto;
      return eventually(async () => {
        const r = await rep.post('/api/v1/entity/check-ai-generated', { executionId: gen.executionId, channelEmailId: d.channelEmailId });
        return r.statusCode === 200 && r.json().email.status === 'draft' ? (r.json().email as EmailDraftDto) : undefined;
      }, 'the written reply');
    };
    expect(await generated()).toMatchObject({
      subject: 'Re: Quick question about Ria Holdings',
      emailBody: '<p>Hello Ria</p>',
      reply: { messageId: 'AAkALgReplyTo1' },
    });
    // The user's own subject stays through a regeneration.
    await rep.put(`/api/v1/email/draft/${d.channelEmailId}`, { subject: 'Numbers for next week' });
    expect((await generated()).subject).toBe('Numbers for next week');
    // A subject without a prefix gets one, never doubled; a message id is optional; a draft that is not a reply has none.
    const plain = (await rep.post('/api/v1/email/draft', { contactId: ct.id, replyTo: { subject: 'RE: Re: Numbers' } })).json()
      .email as EmailDraftDto;
    expect(plain).toMatchObject({ subject: 'RE: Numbers', reply: { messageId: null } });
    expect((await rep.post('/api/v1/email/draft', { contactId: ct.id })).json().email).toMatchObject({ subject: '', reply: null });
    // Bad input: a 400 with the spec's message, nothing made.
    const before = (await pending(rep)).length;
    const bad = await rep.post('/api/v1/email/draft', { contactId: ct.id, replyTo: { subject: 'x', messageId: "x' or 1=1" } });
    expect([bad.statusCode, bad.json().message]).toEqual([400, 'Invalid email information.']);
    expect((await rep.post('/api/v1/email/draft', { contactId: ct.id, replyTo: { subject: 'nul\u0000' } })).statusCode).toBe(400);
    expect((await pending(rep)).length).toBe(before);
  });

  it('a failed model call makes a regenerated draft an error with the spec message', async () => {
    const { co } = await companyWithKey(rep, 'Gus');
    const d = (await rep.post('/api/v1/email/draft', { companyId: co.id })).json().email as EmailDraftDto;
    fake.when((r) => lastUserText(r).includes('Gus'), { raw: '{not json' });
    const playId = await publish(rep, { name: 'Broken', instructions: [text('Write')] });
    const gen = (await rep.post('/api/v1/email/generate', { channelEmailId: d.channelEmailId, playId })).json().email as EmailDraftDto;
    const e = await eventually(async () => {
      const r = await rep.post('/api/v1/entity/check-ai-generated', { executionId: gen.executionId, channelEmailId: d.channelEmailId });
      return r.statusCode === 200 && r.json().email.status === 'error' ? (r.json().email as EmailDraftDto) : undefined;
    }, 'the error draft');
    expect(e.statusMessage).toBe('Error processing data: Email could not be executed properly. Please review your play.');
    // Saving an errored draft makes it a draft again.
    expect((await rep.put(`/api/v1/email/draft/${d.channelEmailId}`, { subject: 'by hand' })).json().email.status).toBe('draft');
  });
});
