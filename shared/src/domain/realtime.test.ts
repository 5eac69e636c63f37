import { describe, it, expect } from 'vitest';
import { canSubscribe, parseRealtimePath, pathMatches, realtimePaths } from './realtime';

const oid = '11111111-1111-4111-8111-111111111111';
const uid = '22222222-2222-4222-8222-222222222222';
const other = '33333333-3333-4333-8333-333333333333';
const listId = '44444444-4444-4444-8444-444444444444';

describe('realtime paths', () => {
  it('builds the documented paths', () => {
    expect(realtimePaths.executions(oid)).toBe(`org/${oid}/executions`);
    expect(realtimePaths.executions(oid, 'enrichment')).toBe(`org/${oid}/executions/enrichment`);
    expect(realtimePaths.executions(oid, 'score', 'idea')).toBe(`org/${oid}/executions/score/idea`);
    expect(realtimePaths.lists(oid, listId)).toBe(`org/${oid}/lists/${listId}`);
    expect(realtimePaths.entities(oid, 'company')).toBe(`org/${oid}/entities/company`);
    expect(realtimePaths.activities(oid)).toBe(`org/${oid}/activities`);
    expect(realtimePaths.notifications(uid)).toBe(`user/${uid}/notifications`);
  });

  it('parses every catalogue path and rejects anything else', () => {
    for (const p of [
      `org/${oid}/executions`,
      `org/${oid}/executions/play`,
      `org/${oid}/executions/enrichment/idea`,
      `org/${oid}/lists`,
      `org/${oid}/lists/${listId}`,
      `org/${oid}/entities`,
      `org/${oid}/entities/contact`,
      `org/${oid}/activities`,
      `user/${uid}/notifications`,
    ])
      expect(parseRealtimePath(p), p).not.toBeNull();
    for (const p of [
      '',
      'org',
      `org/${oid}`,
      `org/not-a-uuid/activities`,
      `org/${oid}/secrets`,
      `org/${oid}/executions/bogus`,
      `org/${oid}/executions/play/planet`,
      `org/${oid}/lists/x`,
      `org/${oid}/activities/extra`,
      `user/${uid}/activities`,
      `user/${uid}/notifications/x`,
      `team/${oid}/activities`,
      `org/${oid}/activities/`,
      `org/${oid}//activities`,
      `org/${oid}/activities/../x`,
    ])
      expect(parseRealtimePath(p), p).toBeNull();
  });

  it('a client subscribes only under its own organization and user', () => {
    const me = { oid, uid };
    expect(canSubscribe(`org/${oid}/activities`, me)).toBe('ok');
    expect(canSubscribe(`org/${oid.toUpperCase()}/activities`, me)).toBe('ok');
    expect(canSubscribe(`user/${uid}/notifications`, me)).toBe('ok');
    expect(canSubscribe(`org/${other}/activities`, me)).toBe('refused');
    expect(canSubscribe(`user/${other}/notifications`, me)).toBe('refused');
    expect(canSubscribe(`user/${oid}/notifications`, me)).toBe('refused');
    expect(canSubscribe('org/*/activities', me)).toBe('invalid');
  });

  it('a subscription matches its own path and the paths below it, segment by segment', () => {
    expect(pathMatches(`org/${oid}/executions`, `org/${oid}/executions/play/contact`)).toBe(true);
    expect(pathMatches(`org/${oid}/executions/enrichment`, `org/${oid}/executions/enrichment/idea`)).toBe(true);
    expect(pathMatches(`org/${oid}/executions/enrichment`, `org/${oid}/executions/enrichment`)).toBe(true);
    expect(pathMatches(`org/${oid}/executions/enrich`, `org/${oid}/executions/enrichment`)).toBe(false);
    expect(pathMatches(`org/${oid}/activities`, `org/${other}/activities`)).toBe(false);
  });
});
