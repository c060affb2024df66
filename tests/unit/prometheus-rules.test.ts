import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findSystemBinary } from "../../scripts/lib/system-binary";

const DIR = path.resolve("deploy/prometheus");
// Missing promtool is a failure naming the package, never a skip (scripts/ensure-system-packages.sh installs it).
const promtool = findSystemBinary("promtool", "prometheus");
const run = (...args: string[]) => execFileSync(promtool, args, { cwd: DIR, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** Each `alert_rule_test` entry of the test file: its alert and whether it expects the alert to fire. */
function alertCases(text: string): { alertname: string; fires: boolean }[] {
  const cases: { alertname: string; fires: boolean }[] = [];
  for (const match of text.matchAll(/alertname: (\w+)\n\s+exp_alerts:( \[\])?/g)) cases.push({ alertname: match[1]!, fires: !match[2] });
  return cases;
}

describe("Prometheus alert rules (deploy/prometheus)", () => {
  it("pass promtool check rules and check config", () => {
    expect(run("check", "rules", "esign-partner.rules.yml")).toMatch(/SUCCESS: 9 rules found/);
    expect(run("check", "config", "prometheus.yml")).toMatch(/is valid prometheus config file syntax/);
  });

  it("pass promtool test rules, which has a firing and a not-firing case for every alert", () => {
    const alerts = [...readFileSync(path.join(DIR, "esign-partner.rules.yml"), "utf8").matchAll(/- alert: (\w+)/g)].map((m) => m[1]!);
    expect(alerts).toHaveLength(9);
    const cases = alertCases(readFileSync(path.join(DIR, "esign-partner.rules.test.yml"), "utf8"));
    for (const alert of alerts) {
      expect(cases.filter((c) => c.alertname === alert).map((c) => c.fires).sort(), alert).toEqual([false, true]);
    }
    expect(run("test", "rules", "esign-partner.rules.test.yml")).toMatch(/SUCCESS/);
  });
});
