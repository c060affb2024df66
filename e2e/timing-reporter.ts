import type { FullConfig, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

type ProjectTiming = { tests: number; firstStart: number; lastEnd: number; testTime: number };

/**
 * Prints how the run was spread: the worker count, and per project its tests, its wall time (first test start
 * to last test end) and the sum of its test durations. A figure for people to read, never a pass/fail rule.
 */
export default class TimingReporter implements Reporter {
  private workers = 0;
  private started = 0;
  private readonly projects = new Map<string, ProjectTiming>();

  onBegin(config: FullConfig): void {
    this.workers = config.workers;
    this.started = Date.now();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const project = test.parent.project()?.name ?? "(none)";
    const start = result.startTime.getTime();
    const timing = this.projects.get(project) ?? { tests: 0, firstStart: start, lastEnd: start, testTime: 0 };
    timing.tests += 1;
    timing.firstStart = Math.min(timing.firstStart, start);
    timing.lastEnd = Math.max(timing.lastEnd, start + result.duration);
    timing.testTime += result.duration;
    this.projects.set(project, timing);
  }

  onEnd(): void {
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const lines = [`e2e timing: ${this.workers} worker(s), tests ran for ${seconds(Date.now() - this.started)}`];
    for (const [name, t] of this.projects) {
      lines.push(`  project ${name}: ${t.tests} tests, wall ${seconds(t.lastEnd - t.firstStart)}, test time ${seconds(t.testTime)}`);
    }
    console.log(lines.join("\n"));
  }

  printsToStdio(): boolean {
    return false;
  }
}
