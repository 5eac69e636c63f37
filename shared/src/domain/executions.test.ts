import { describe, it, expect } from 'vitest';
import {
  initialExecutionStatus,
  isTerminalExecutionStatus,
  cellStatusFor,
  resultStatusOfExecution,
  ideaEnrichmentResult,
  executionEffect,
  executionFailedNotice,
  EXECUTION_TYPES,
} from './executions';

describe('execution records (spec 002 §3, §9)', () => {
  it('start as scheduled (enrichment, list) or draft (play, score)', () => {
    expect(EXECUTION_TYPES.map((t) => [t, initialExecutionStatus(t)])).toEqual([
      ['enrichment', 'scheduled'],
      ['play', 'draft'],
      ['list', 'scheduled'],
      ['score', 'draft'],
      ['crmsync', 'draft'],
    ]);
  });
  it('completed, error and cancelled are terminal', () => {
    expect(['completed', 'error', 'cancelled'].every(isTerminalExecutionStatus)).toBe(true);
    expect(['draft', 'scheduled', 'processing'].some(isTerminalExecutionStatus)).toBe(false);
  });
  it('failure notices use the spec texts for enrichment and play', () => {
    expect(executionFailedNotice('enrichment')).toBe('Error executing enrichment');
    expect(executionFailedNotice('play')).toBe('Play execution failed');
    expect(executionFailedNotice('score', 'Model not found')).toBe('Score execution failed: Model not found');
  });
});

describe('cell and result statuses (spec 002 §4)', () => {
  it('completed is shown as ready for company and contact cells only', () => {
    expect(cellStatusFor('company', 'completed')).toBe('ready');
    expect(cellStatusFor('contact', 'completed')).toBe('ready');
    expect(cellStatusFor('idea', 'completed')).toBe('completed');
    expect(cellStatusFor('company', 'processing')).toBe('processing');
  });
  it('queue statuses pending, inqueue, scheduled and processing map to processing; a queue error to error', () => {
    for (const s of ['pending', 'inqueue', 'scheduled', 'processing']) expect(resultStatusOfExecution(s)).toBe('processing');
    expect(resultStatusOfExecution('error')).toBe('error');
    expect(resultStatusOfExecution('completed')).toBe('completed');
  });
  it('idea enrichment results: completed, error with the default message, anything else processing', () => {
    expect(ideaEnrichmentResult('completed', null, { revenue: 3 })).toEqual({ status: 'completed', message: null, value: { revenue: 3 } });
    expect(ideaEnrichmentResult('error', null)).toEqual({ status: 'error', message: 'Error parsing data', value: null });
    expect(ideaEnrichmentResult('error', 'Rate limited')).toMatchObject({ status: 'error', message: 'Rate limited' });
    expect(ideaEnrichmentResult('scheduled', null).status).toBe('processing');
  });
  it('a string answer that does not parse as structured data becomes completed with the string as answer', () => {
    expect(ideaEnrichmentResult('completed', null, 'plain words')).toEqual({
      status: 'completed',
      message: null,
      value: { answer: 'plain words' },
    });
    expect(ideaEnrichmentResult('completed', null, '{"a":1}').value).toEqual({ a: 1 });
    expect(ideaEnrichmentResult('completed', null, '42').value).toEqual({ answer: '42' });
  });
});

describe('execution effects (spec 002 §4)', () => {
  it('list: processing → in progress; completed → completed + reload; error → failed + reload; others only drop the node', () => {
    expect(executionEffect('list', 'processing')).toMatchObject({ listSource: 'in_progress', dropNode: false, reloadList: false });
    expect(executionEffect('list', 'completed')).toMatchObject({ listSource: 'completed', dropNode: true, reloadList: true });
    expect(executionEffect('list', 'error')).toMatchObject({ listSource: 'failed', dropNode: true, reloadList: true });
    expect(executionEffect('list', 'scheduled')).toMatchObject({ listSource: null, dropNode: true, reloadList: false });
  });
  it('score completed reloads the ideas', () => {
    expect(executionEffect('score', 'completed').reloadIdeas).toBe(true);
    expect(executionEffect('score', 'processing')).toMatchObject({ reloadIdeas: false, dropNode: false });
  });
  it('play completed or errored makes drafts fetchable; an error raises a failed-execution notice', () => {
    expect(executionEffect('play', 'completed')).toMatchObject({ draftsFetchable: true, failedNotice: false, dropNode: true });
    expect(executionEffect('play', 'error')).toMatchObject({ draftsFetchable: true, failedNotice: true });
    expect(executionEffect('play', 'processing')).toMatchObject({ draftsFetchable: false, dropNode: false });
  });
  it('an enrichment is removed when it completes or errors', () => {
    expect(executionEffect('enrichment', 'completed').dropNode).toBe(true);
    expect(executionEffect('enrichment', 'error').dropNode).toBe(true);
    expect(executionEffect('enrichment', 'processing').dropNode).toBe(false);
  });
});
