import { describe, expect, it } from "vitest";
import { flowKey, formatRestartLog, MAX_RESTARTS, mayRestart, parseRestartLog, restartedEntry, startedEntry } from "@/lib/auth/restart-guard";

/** The log after the first tab's flow failed and was restarted. */
const firstTabRestarted = [restartedEntry("tab-1"), startedEntry("tab-1-restarted")];

describe("restart guard", () => {
  it("restarts a flow once, and not the flow its restart started while that still owns the checks", () => {
    expect(mayRestart([], "tab-1")).toBe(true);
    expect(mayRestart(firstTabRestarted, "tab-1")).toBe(false);
    expect(mayRestart(firstTabRestarted, "tab-1-restarted")).toBe(false);
  });

  it("judges another tab's flow on its own while the first tab's restart is under way", () => {
    expect(mayRestart(firstTabRestarted, "tab-2")).toBe(true);
  });

  it("restarts the first tab's restarted flow once the second tab's restart took its checks", () => {
    const bothRestarted = [...firstTabRestarted, restartedEntry("tab-2"), startedEntry("tab-2-restarted")];
    expect(mayRestart(bothRestarted, "tab-1-restarted")).toBe(true);
    expect(mayRestart(bothRestarted, "tab-2-restarted")).toBe(false);
    expect(mayRestart(bothRestarted, "tab-2")).toBe(false);
  });

  it("stops restarting any flow after MAX_RESTARTS restarts", () => {
    const restarts = Array.from({ length: MAX_RESTARTS }, (_, i) => [restartedEntry(`tab-${i}`), startedEntry(`tab-${i}-restarted`)]).flat();
    expect(mayRestart(restarts.slice(0, -2), "a-new-tab")).toBe(true);
    expect(mayRestart(restarts, "a-new-tab")).toBe(false);
    // Even when a restart's started flow was never recorded (the restart itself failed).
    expect(mayRestart(restarts.filter((entry) => entry.startsWith("r")), "a-new-tab")).toBe(false);
  });

  it("round-trips the log through the cookie, keeping only well-formed entries and the newest ones", () => {
    const entries = Array.from({ length: MAX_RESTARTS + 1 }, (_, i) => [restartedEntry(`flow-${i}`), startedEntry(`flow-${i}-restarted`)]).flat();
    const cookie = formatRestartLog(entries);
    expect(cookie.length).toBeLessThan(200);
    expect(parseRestartLog(cookie)).toEqual(entries.slice(-MAX_RESTARTS * 2));
    expect(parseRestartLog(`1.${entries[0]}.${flowKey("no-kind")}.<script>`)).toEqual([entries[0]]);
    expect(parseRestartLog(undefined)).toEqual([]);
  });

  it("keys flows by their state without keeping the state itself", () => {
    expect(flowKey("s")).toMatch(/^[0-9a-f]{16}$/);
    expect(flowKey("s")).not.toBe(flowKey("t"));
    expect(flowKey(null)).toBe(flowKey(""));
  });
});
