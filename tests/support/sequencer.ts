// Orders the run's files longest first across all projects, so the long files (the tenancy route
// matrix, the multi-process server tests) start at once on the workers instead of trailing at the
// end. A file's duration comes from vitest's results cache (node_modules/.vite/vitest, written by
// every run); without one (a fresh clone, CI) from tests/support/durations.json (the durations of a
// whole quiet run, written with VITEST_WRITE_DURATIONS=1), and for a file not in it from the file's
// size. The browser journeys are ordered with the other files.
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DURATIONS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'durations.json');

function recorded(): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

// Rough estimates when nothing is cached: a fixed cost per file (a journey starts a server) plus
// milliseconds per byte of test source.
const BASE_MS: Record<string, number> = { e2e: 15_000, bench: 40_000, server: 1_000 };
const MS_PER_BYTE: Record<string, number> = { e2e: 2, server: 0.8 };

export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const estimate = new Map<TestSpecification, number>();
    const durations = recorded();
    for (const spec of files) {
      const cached = this.ctx.cache.getTestSpecificationResult(spec)?.duration ?? durations[path.relative(process.cwd(), spec.moduleId)];
      if (cached) {
        estimate.set(spec, cached);
        continue;
      }
      let size = 0;
      try {
        size = fs.statSync(spec.moduleId).size;
      } catch {
        /* a virtual module: no estimate */
      }
      estimate.set(spec, (BASE_MS[spec.project.name] ?? 0) + size * (MS_PER_BYTE[spec.project.name] ?? 0.2));
    }
    return [...files].sort(
      (a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || estimate.get(b)! - estimate.get(a)!,
    );
  }
}
