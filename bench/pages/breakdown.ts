/**
 * Where a page's main-thread time goes, from the reports `BENCH_PAGES_SAVE=<dir> npm run bench:pages` kept: per
 * report name (page, language; runs merged as medians), Lighthouse's main-thread work by group, the scripts'
 * evaluation by URL (`bootup-time`, "Unattributable" included), the long tasks, and from each run's trace whether the
 * page was loaded in the renderer that held Lighthouse's about:blank or in a new one started for the navigation.
 *
 *   npx tsx bench/pages/breakdown.ts <dir> [name-prefix]
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pageCommit, type TraceEvent } from "./renderer-time";
import { median } from "./table";

type Item = { group?: string; groupLabel?: string; duration?: number; url?: string; total?: number; scripting?: number; scriptParseCompile?: number; startTime?: number };

/**
 * Whether the page's renderer process existed before the navigation (Lighthouse's about:blank) or was started for it
 * (e.g. because the document's Cross-Origin-Opener-Policy asks for a new browsing context group).
 */
function rendererOf(traceFile: string): string {
  if (!existsSync(traceFile)) return "no trace";
  const raw = JSON.parse(readFileSync(traceFile, "utf8")) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(raw) ? raw : (raw.traceEvents ?? []);
  const commit = pageCommit(events);
  const navigationStart = Math.min(...events.filter((e) => e.name === "navigationStart").map((e) => e.ts!));
  if (!commit) return "no commit in trace";
  const first = Math.min(...events.filter((e) => e.pid === commit.pid && (e.ts ?? 0) > 0).map((e) => e.ts!));
  return first >= navigationStart - 1000 ? "new renderer" : `about:blank's renderer (up ${((navigationStart - first) / 1000).toFixed(0)} ms before)`;
}

type Lhr = { audits: Record<string, { numericValue?: number; details?: { items?: Item[] } }>; environment?: { benchmarkIndex?: number } };

const [dir, prefix = ""] = process.argv.slice(2);
if (!dir) throw new Error("usage: tsx bench/pages/breakdown.ts <dir> [name-prefix]");

const byName = new Map<string, Lhr[]>();
const renderers = new Map<string, string[]>();
for (const file of readdirSync(dir).filter((f) => f.endsWith(".report.json") && f.startsWith(prefix)).sort()) {
  const name = file.replace(/-\d+\.report\.json$/, "");
  byName.set(name, [...(byName.get(name) ?? []), JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Lhr]);
  renderers.set(name, [...(renderers.get(name) ?? []), rendererOf(path.join(dir, file.replace(".report.json", ".trace.json")))]);
}

// URLs shown by path only; the app's and the bare page's origins differ by port.
const short = (url: string) => (url.startsWith("http") ? new URL(url).pathname.replace(/^\/_next\/static\/chunks\//, "chunks/") || "/" : url);
const ms = (values: number[]) => `${median(values).toFixed(0)}`.padStart(5);

for (const [name, reports] of byName) {
  console.log(`\n${name} (${reports.length} runs, benchmarkIndex ${reports.map((r) => r.environment?.benchmarkIndex?.toFixed(0)).join(", ")})`);
  console.log(`  loaded in: ${renderers.get(name)!.join("; ")}`);
  const groups = new Map<string, number[]>();
  for (const r of reports) for (const i of r.audits["mainthread-work-breakdown"]?.details?.items ?? []) groups.set(i.groupLabel ?? i.group!, [...(groups.get(i.groupLabel ?? i.group!) ?? []), i.duration ?? 0]);
  console.log(`  main-thread work ${ms(reports.map((r) => r.audits["mainthread-work-breakdown"]?.numericValue ?? 0))} ms: ${[...groups].map(([g, v]) => `${g} ${median(v).toFixed(0)}`).join(", ")}`);
  const urls = new Map<string, { total: number[]; scripting: number[]; parse: number[] }>();
  for (const r of reports)
    for (const i of r.audits["bootup-time"]?.details?.items ?? []) {
      const entry = urls.get(short(i.url!)) ?? { total: [], scripting: [], parse: [] };
      entry.total.push(i.total ?? 0);
      entry.scripting.push(i.scripting ?? 0);
      entry.parse.push(i.scriptParseCompile ?? 0);
      urls.set(short(i.url!), entry);
    }
  for (const [url, v] of [...urls].sort((a, b) => median(b[1].total) - median(a[1].total)))
    console.log(`  bootup ${ms(v.total)} ms total, ${ms(v.scripting)} script, ${ms(v.parse)} parse (${v.total.length} runs)  ${url}`);
  for (const [run, r] of reports.entries())
    console.log(`  run ${run + 1} long tasks: ${(r.audits["long-tasks"]?.details?.items ?? []).map((i) => `${short(i.url!)} ${i.duration!.toFixed(0)} ms @${i.startTime!.toFixed(0)}`).join("; ") || "none"}`);
}
