import { describe, expect, it } from "vitest";
import { flowKey, formatSpentFlows, MAX_RESTARTS, mayRestart, parseSpentFlows } from "@/lib/auth/restart-guard";

describe("restart guard", () => {
  it("lets a flow restart once, and not the flow its restart started", () => {
    expect(mayRestart([], "tab-1")).toBe(true);
    const afterRestart = [flowKey("tab-1"), flowKey("tab-1-restarted")];
    expect(mayRestart(afterRestart, "tab-1")).toBe(false);
    expect(mayRestart(afterRestart, "tab-1-restarted")).toBe(false);
  });

  it("judges another tab's flow on its own while the first tab's restart is under way", () => {
    expect(mayRestart([flowKey("tab-1"), flowKey("tab-1-restarted")], "tab-2")).toBe(true);
  });

  it("stops restarting any flow once the list holds MAX_RESTARTS restarts", () => {
    const flows = Array.from({ length: MAX_RESTARTS }, (_, i) => [flowKey(`tab-${i}`), flowKey(`tab-${i}-restarted`)]).flat();
    expect(mayRestart(flows.slice(0, -2), "a-new-tab")).toBe(true);
    expect(mayRestart(flows, "a-new-tab")).toBe(false);
  });

  it("round-trips the list through the cookie, keeping only well-formed keys and the newest entries", () => {
    const keys = Array.from({ length: MAX_RESTARTS * 2 + 2 }, (_, i) => flowKey(`flow-${i}`));
    const cookie = formatSpentFlows(keys);
    expect(cookie.length).toBeLessThan(200);
    expect(parseSpentFlows(cookie)).toEqual(keys.slice(-MAX_RESTARTS * 2));
    expect(parseSpentFlows(`1.${keys[0]}.<script>`)).toEqual([keys[0]]);
    expect(parseSpentFlows(undefined)).toEqual([]);
  });

  it("keys flows by their state without keeping the state itself", () => {
    expect(flowKey("s")).toMatch(/^[0-9a-f]{16}$/);
    expect(flowKey("s")).not.toBe(flowKey("t"));
    expect(flowKey(null)).toBe(flowKey(""));
  });
});
