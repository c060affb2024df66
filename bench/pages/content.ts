/**
 * What Next.js and React alone charge for a page's content: Lighthouse on the bare page with a list of N rows
 * (bench/pages/bare/app/(en)/rows/[count], 5 elements a row) against the bare page itself, in pairs as
 * `npm run bench:pages` measures the app's pages (docs/page-weight.md). An app page with as many elements starts
 * from these ratios before any of its own code.
 *
 *   npm run bench:pages:content
 *
 * BENCH_BARE_PORT (4254), BENCH_RUNS pairs per list (5), BENCH_ROWS (default 10,25,50,100; the bare page also has 160: 814 elements, as the stuck list had at 50 rows a page).
 */
import os from "node:os";
import { buildBareIfNeeded, startBare } from "./bare";
import { runLighthouse } from "./lighthouse";
import { fetchPageSize, type PageSize } from "./page-size";
import { compareWithBare, grid, median, type AgainstBare, type Pair } from "./table";
import { envPort } from "../../scripts/lib/env-port";

const BARE_PORT = envPort("BENCH_BARE_PORT", 4254);
const RUNS = envPort("BENCH_RUNS", 5);
const ROWS = (process.env.BENCH_ROWS || "10,25,50,100").split(",").map(Number);

process.once("SIGINT", () => process.exit(130));
process.once("SIGTERM", () => process.exit(143));

buildBareIfNeeded();
const bare = await startBare(BARE_PORT);
const results: { rows: number; size: PageSize; pairs: Pair[]; against: AgainstBare | null }[] = [];
let bareSize: PageSize;
try {
  bareSize = await fetchPageSize(`${bare.url}/`);
  for (const rows of ROWS) {
    const url = `${bare.url}/rows/${rows}`;
    const size = await fetchPageSize(url);
    const pairs: Pair[] = [];
    for (let i = 0; i < RUNS; i++) {
      const bareRun = await runLighthouse(`${bare.url}/`);
      const run = await runLighthouse(url);
      if (bareRun && run) pairs.push({ bare: bareRun, page: run });
      console.log(
        `${rows} rows, pair ${i + 1}/${RUNS}: ` +
          (bareRun && run
            ? `main thread ${run.mainThreadMs.toFixed(0)} / ${bareRun.mainThreadMs.toFixed(0)} ms, renderer CPU ${run.rendererCpuMs.toFixed(0)} / ${bareRun.rendererCpuMs.toFixed(0)} ms, benchmarkIndex ${run.benchmarkIndex.toFixed(0)} / ${bareRun.benchmarkIndex.toFixed(0)}`
            : "a run failed"),
      );
    }
    results.push({ rows, size, pairs, against: compareWithBare(pairs) });
  }
} finally {
  await bare.stop();
}

const ms = (pairs: Pair[], pick: (p: Pair) => number) => median(pairs.map(pick)).toFixed(0);
const table = grid(
  ["rows", "elements", "RSC KiB", "main thread × (ms)", "renderer CPU × (ms)", "LCP ×", "TBT + (ms)", "benchmarkIndex", "pairs"],
  results.map(({ rows, size, pairs, against }) => [
    String(rows),
    String(size.elements),
    size.rscKiB.toFixed(1),
    ...(against
      ? [
          `${against.mainThreadRatio.toFixed(2)}× (${ms(pairs, (p) => p.page.mainThreadMs)} / ${ms(pairs, (p) => p.bare.mainThreadMs)})`,
          `${against.rendererCpuRatio.toFixed(2)}× (${ms(pairs, (p) => p.page.rendererCpuMs)} / ${ms(pairs, (p) => p.bare.rendererCpuMs)})`,
          `${against.lcpRatio.toFixed(2)}×`,
          `${against.tbtOverMs >= 0 ? "+" : ""}${against.tbtOverMs.toFixed(0)}`,
          `${ms(pairs, (p) => p.page.benchmarkIndex)} / ${ms(pairs, (p) => p.bare.benchmarkIndex)}`,
        ]
      : ["-", "-", "-", "-", "-"]),
    String(pairs.length),
  ]),
);
console.log(`
The bare page with a list of N rows against the bare page itself (${bareSize.elements} elements, RSC payload ${bareSize.rscKiB.toFixed(1)} KiB): Lighthouse 12.2.3, mobile preset, ${RUNS} pairs each
${new Date().toISOString()}; Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}

${table}

Each figure: the median over the pairs of the list page's ratio to (×) or difference from (+) the bare run just
before it, the medians of each side in brackets. main thread = Lighthouse's main-thread work (4× CPU slowdown);
renderer CPU = the same tasks' thread time, unthrottled: the work without the waits for a core. benchmarkIndex =
Lighthouse's measure of the CPU (list / bare).`);
