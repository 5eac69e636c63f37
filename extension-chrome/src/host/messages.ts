// Messages between the content scripts and the side panel.
import type { PageRecord } from '../extract/types';

export interface RecordMessage {
  type: 'dealscout/record';
  record: PageRecord | null;
}
export interface GetRecordMessage {
  type: 'dealscout/get-record';
}

export function isRecordMessage(m: unknown): m is RecordMessage {
  return !!m && typeof m === 'object' && (m as { type?: unknown }).type === 'dealscout/record';
}
export function isGetRecordMessage(m: unknown): m is GetRecordMessage {
  return !!m && typeof m === 'object' && (m as { type?: unknown }).type === 'dealscout/get-record';
}
