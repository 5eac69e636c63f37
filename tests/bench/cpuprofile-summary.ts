// Summarizes a V8 .cpuprofile (from `BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" npm run bench …`):
// self time by function (top N) and by package / area of our code.
//
//   node --import tsx tests/bench/cpuprofile-summary.ts DIR/CPU.*.cpuprofile [--top 25] [--from S] [--to S]
// --from / --to: only the samples between these seconds after the profile's start (e.g. the load
// phase that `npm run bench:load` prints, without the process's start-up).
import fs from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const opt = (name: string, def: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const top = opt('--top', 25);
const from = opt('--from', 0);
const to = opt('--to', Infinity);
const files = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));

function area(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return 'node internals';
  const m = url.match(/\/(server|shared)\/src\/(.*?)(\/[^/]+)?$/);
  if (m) return `${m[1]}/src/${m[2].split('/').slice(0, 2).join('/')}`;
  return url
    .replace(/^file:\/\//, '')
    .split('/')
    .slice(-2)
    .join('/');
}

for (const file of files) {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let at = 0;
  for (let i = 0; i < p.samples.length; i++) {
    at += p.timeDeltas[i] ?? 0;
    if (at / 1e6 < from || at / 1e6 > to) continue;
    self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fnTime = new Map<string, number>();
  const areaTime = new Map<string, number>();
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    const cf = n.callFrame;
    const short = cf.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(server|shared)\//, '$1/');
    const key = `${cf.functionName || '(anonymous)'} ${short ? `${short}:${cf.lineNumber + 1}` : ''}`.trim();
    fnTime.set(key, (fnTime.get(key) ?? 0) + us);
    const a = area(cf.url, cf.functionName);
    areaTime.set(a, (areaTime.get(a) ?? 0) + us);
  }
  const wall = Math.min(to, (p.endTime - p.startTime) / 1e6) - from;
  const idle = areaTime.get('(idle)') ?? 0;
  console.log(
    `\n${file}: ${wall.toFixed(1)} s profiled, ${((total - idle) / 1e6).toFixed(2)} s busy (${(((total - idle) / total) * 100).toFixed(0)}%)`,
  );
  const pctBusy = (us: number) => `${((us / Math.max(1, total - idle)) * 100).toFixed(1)}%`;
  console.log('By area (self time, share of busy time):');
  for (const [k, v] of [...areaTime]
    .filter(([k]) => k !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15))
    console.log(`  ${pctBusy(v).padStart(6)}  ${(v / 1e3).toFixed(0).padStart(7)} ms  ${k}`);
  console.log(`Top ${top} functions (self time):`);
  for (const [k, v] of [...fnTime]
    .filter(([k]) => !k.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(`  ${pctBusy(v).padStart(6)}  ${(v / 1e3).toFixed(0).padStart(7)} ms  ${k}`);
}
