// pg-copy-streams ships no types: the one function used (COPY … FROM STDIN as a writable stream).
declare module 'pg-copy-streams' {
  import type { Writable } from 'node:stream';
  import type { Submittable } from 'pg';
  export function from(sql: string): Writable & Submittable & { rowCount: number };
}
