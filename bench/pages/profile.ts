/**
 * Where a page's script time goes: loads a URL in a fresh headless Chromium with the CPU slowed 4× (as Lighthouse's
 * mobile preset), records a CPU profile from before the navigation until the network is quiet, and prints the
 * functions with the most self time, summed over the runs, with the script each comes from.
 *
 *   npx tsx bench/pages/profile.ts <url> [runs=3] [cookie header]
 */
import { chromium } from "@playwright/test";
import { chromiumArgs, chromiumExecutablePath } from "../../e2e/chromium-path";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const [url, runsArg = "3", cookie] = process.argv.slice(2);
if (!url) throw new Error("usage: tsx bench/pages/profile.ts <url> [runs] [cookie]");

const selfMs = new Map<string, number>();
const byScript = new Map<string, number>();
let totalMs = 0;
const browser = await chromium.launch({ executablePath: chromiumExecutablePath, args: chromiumArgs });
try {
  for (let run = 0; run < Number(runsArg); run++) {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, extraHTTPHeaders: cookie ? { cookie } : {} });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Profiler.start");
    await page.goto(url, { waitUntil: "networkidle" });
    const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: Profile };
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const frame = nodes.get(id)!.callFrame;
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      if (frame.functionName === "(idle)" || frame.functionName === "(program)") return;
      const script = frame.url.replace(/^https?:\/\/[^/]+/, "") || `(${frame.functionName || "anonymous"})`;
      const key = `${frame.functionName || "(anonymous)"} ${script}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
      selfMs.set(key, (selfMs.get(key) ?? 0) + ms);
      byScript.set(script, (byScript.get(script) ?? 0) + ms);
      totalMs += ms;
    });
    await context.close();
  }
} finally {
  await browser.close();
}
const runs = Number(runsArg);
console.log(`${url}: ${(totalMs / runs).toFixed(0)} ms of sampled work per load (4× CPU slowdown, idle and "(program)" left out), ${runs} loads`);
console.log("By script (ms per load):");
for (const [script, ms] of [...byScript].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${(ms / runs).toFixed(1).padStart(7)}  ${script}`);
console.log("Top self time (ms per load):");
for (const [key, ms] of [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${(ms / runs).toFixed(1).padStart(7)}  ${key}`);
