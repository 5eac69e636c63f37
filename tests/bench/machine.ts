// The host a bench ran on, for its Machine line: os.cpus() says only "AMD EPYC" on every host of
// this machine's kind, and the hosts run the same code at different speeds (docs/benchmarks.md names
// them AMD A, AMD B and Intel). Read from /proc/cpuinfo: vendor, family/model, clock (BogoMIPS / 2)
// and AVX-512, which tell the hosts apart.
import { readFileSync } from 'node:fs';
import os from 'node:os';

export function hostCpu(): string {
  const model = os.cpus()[0]?.model ?? 'unknown CPU';
  let info = '';
  try {
    info = readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return model;
  }
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(info)?.[1]?.trim() ?? '';
  const vendor = field('vendor_id');
  const ghz = Number(field('bogomips')) / 2000;
  const avx512 = /\bavx512f\b/.test(field('flags'));
  const name = vendor === 'GenuineIntel' ? 'Intel' : vendor === 'AuthenticAMD' ? (avx512 ? 'AMD A' : 'AMD B') : '';
  const clock = ghz > 0 ? ` at ${ghz.toFixed(2)} GHz` : '';
  return `${model}${clock}${name ? ` (${name})` : ''}`;
}
