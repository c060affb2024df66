import { existsSync, readFileSync, writeFileSync } from "node:fs";

/** What the last build was made from, next to it; a build by other means changes BUILD_ID and so is not trusted. */
export const DEMO_BUILD_STAMP = ".next/demo-build.json";

export type DemoBuildStamp = { fingerprint: string; buildId: string; builtAt: string };

const buildId = () => (existsSync(".next/BUILD_ID") ? readFileSync(".next/BUILD_ID", "utf8").trim() : null);

/** The stamp of the last build `npm run demo` made (or was told is current), if any. */
export function readDemoBuildStamp(): DemoBuildStamp | null {
  try {
    return JSON.parse(readFileSync(DEMO_BUILD_STAMP, "utf8")) as DemoBuildStamp;
  } catch {
    return null;
  }
}

/** Whether `stamp` says the build in .next was made from sources with this `fingerprint` (scripts/lib/build-fingerprint.ts). */
export function isDemoBuildCurrent(stamp: DemoBuildStamp | null, fingerprint: string): stamp is DemoBuildStamp {
  return stamp?.fingerprint === fingerprint && stamp.buildId === buildId() && existsSync(".next/standalone/server.js");
}

/** Records that the build in .next was made from sources with this `fingerprint`. */
export function writeDemoBuildStamp(fingerprint: string): void {
  writeFileSync(DEMO_BUILD_STAMP, JSON.stringify({ fingerprint, buildId: buildId() ?? "", builtAt: new Date().toISOString() } satisfies DemoBuildStamp));
}
