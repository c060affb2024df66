/**
 * Chromium's own counters for one page load, to try a change without rebuilding: loads a URL in a fresh context
 * (4× CPU slowdown, phone-sized viewport) and prints the medians of style recalculation, layout and script time
 * (CDP `Performance.getMetrics`) once the network is quiet. `--css A=>B` rewrites text A to B in the page's
 * stylesheets on the way in (e.g. to see what one rule costs).
 *
 *   npx tsx bench/pages/metrics.ts <url> [runs=5] [--cookie "locale=ja"] [--css "word-break:auto-phrase=>word-break:normal"]
 */
import { chromium } from "@playwright/test";
import { chromiumArgs, chromiumExecutablePath } from "../../e2e/chromium-path";
import { median } from "./table";

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const cookie = option("--cookie");
const css = option("--css")?.split("=>");
const [url, runsArg = "5"] = args;
if (!url) throw new Error("usage: tsx bench/pages/metrics.ts <url> [runs] [--cookie c] [--css A=>B]");

const figures: Record<string, number[]> = { RecalcStyleDuration: [], LayoutDuration: [], ScriptDuration: [], TaskDuration: [] };
const browser = await chromium.launch({ executablePath: chromiumExecutablePath, args: chromiumArgs });
try {
  for (let run = 0; run < Number(runsArg); run++) {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, extraHTTPHeaders: cookie ? { cookie } : {} });
    const page = await context.newPage();
    if (css) {
      await page.route(/\.css$/, async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, body: (await response.text()).replaceAll(css[0]!, css[1]!) });
      });
    }
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await cdp.send("Performance.enable");
    await page.goto(url, { waitUntil: "networkidle" });
    const { metrics } = await cdp.send("Performance.getMetrics");
    for (const m of metrics) if (m.name in figures) figures[m.name]!.push(m.value * 1000);
    await context.close();
  }
} finally {
  await browser.close();
}
console.log(
  `${url}${cookie ? ` (${cookie})` : ""}${css ? ` with "${css[0]}" → "${css[1]}"` : ""}, ${runsArg} loads, medians (ms, 4× CPU slowdown): ` +
    Object.entries(figures).map(([name, values]) => `${name.replace("Duration", "")} ${median(values).toFixed(0)}`).join(", "),
);
