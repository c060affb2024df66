import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_HEAP_CAP_MIB } from "../../scripts/lib/heap-cap";

describe("the default heap cap", () => {
  it("is the same in the systemd unit, the Dockerfile and npm run demo:scale", () => {
    const flag = `--max-old-space-size=${DEFAULT_HEAP_CAP_MIB}`;
    expect(readFileSync("deploy/systemd/esign-partner@.service", "utf8")).toContain(`Environment=NODE_OPTIONS=${flag}\n`);
    expect(readFileSync("Dockerfile", "utf8")).toContain(`NODE_OPTIONS=${flag}\n`);
    expect(readFileSync("scripts/demo-scale.ts", "utf8")).toContain("heapCapMiB: DEFAULT_HEAP_CAP_MIB");
  });
});
