import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { FullConfig, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

type Timing = { tests: number; firstStart: number; lastEnd: number; testTime: number; occupied: number };

/** Where the per-spec figures are written as JSON, for comparing two runs spec by spec (docs/testing.md). */
const TIMING_FILE = process.env.E2E_TIMING_FILE || "test-results/e2e-timing.json";

/**
 * Prints how the run was spread: the worker count, per project its tests, its wall time (first test start to
 * last test end) and the sum of its test durations (fixtures and beforeEach/afterEach included, beforeAll/afterAll
 * not); per spec file the same sum and the worker time it took (each test's time since its worker's previous test
 * ended, so beforeAll hooks and server start-ups count). The per-spec figures also go to TIMING_FILE. A figure
 * for people to read, never a pass/fail rule.
 */
export default class TimingReporter implements Reporter {
  private workers = 0;
  private started = 0;
  private rootDir = "";
  private readonly projects = new Map<string, Timing>();
  private readonly specs = new Map<string, Timing & { project: string }>();
  /** When each worker slot finished its last test. */
  private readonly slotFree = new Map<number, number>();

  onBegin(config: FullConfig): void {
    this.workers = config.workers;
    this.rootDir = config.rootDir;
    this.started = Date.now();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const project = test.parent.project()?.name ?? "(none)";
    const spec = path.relative(this.rootDir, test.location.file);
    const start = result.startTime.getTime();
    const end = start + result.duration;
    // The worker's time since its previous test ended: this test plus the hooks around it (a spec's beforeAll,
    // its servers' start-up, which the test's own duration leaves out; the previous spec's afterAll too).
    const occupied = end - (this.slotFree.get(result.parallelIndex) ?? this.started);
    this.slotFree.set(result.parallelIndex, end);
    const add = (t: Timing | undefined): Timing => {
      const timing = t ?? { tests: 0, firstStart: start, lastEnd: start, testTime: 0, occupied: 0 };
      timing.tests += 1;
      timing.occupied += occupied;
      timing.firstStart = Math.min(timing.firstStart, start);
      timing.lastEnd = Math.max(timing.lastEnd, end);
      timing.testTime += result.duration;
      return timing;
    };
    this.projects.set(project, add(this.projects.get(project)));
    this.specs.set(spec, { ...add(this.specs.get(spec)), project });
  }

  onEnd(): void {
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const total = Date.now() - this.started;
    const lines = [`e2e timing: ${this.workers} worker(s), tests ran for ${seconds(total)}`];
    for (const [name, t] of this.projects) {
      lines.push(`  project ${name}: ${t.tests} tests, wall ${seconds(t.lastEnd - t.firstStart)}, test time ${seconds(t.testTime)}`);
    }
    const specs = [...this.specs].sort((a, b) => b[1].testTime - a[1].testTime);
    lines.push("  per spec: test time, worker time (tests and the hooks between them), tests");
    for (const [spec, t] of specs) lines.push(`  ${seconds(t.testTime).padStart(8)} ${seconds(t.occupied).padStart(8)} ${String(t.tests).padStart(4)}  ${spec}`);
    console.log(lines.join("\n"));
    mkdirSync(path.dirname(TIMING_FILE), { recursive: true });
    writeFileSync(
      TIMING_FILE,
      `${JSON.stringify(
        {
          workers: this.workers,
          totalMs: total,
          specs: Object.fromEntries(specs.map(([spec, t]) => [spec, { project: t.project, tests: t.tests, testMs: t.testTime, workerMs: t.occupied, wallMs: t.lastEnd - t.firstStart }])),
        },
        null,
        2,
      )}\n`,
    );
  }

  printsToStdio(): boolean {
    return false;
  }
}
