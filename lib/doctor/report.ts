/** One line of the doctor's report. `warn` passes (exit code 0) but is worth reading; `skip` could not be checked. */
export type CheckStatus = "pass" | "fail" | "warn" | "skip";

export type CheckResult = {
  id: string;
  title: string;
  status: CheckStatus;
  detail: string;
  /** One sentence saying what to change; present on fail and warn. */
  fix?: string;
};

const SYMBOLS: Record<CheckStatus, string> = { pass: "✓", fail: "✗", warn: "!", skip: "–" };

export function passed(results: CheckResult[]): boolean {
  return results.every((r) => r.status === "pass" || r.status === "warn");
}

/** Human report: one line per check, the fix indented under each ✗ or !. */
export function formatText(results: CheckResult[]): string {
  const lines = results.flatMap((r) => {
    const head = `${SYMBOLS[r.status]} ${r.title}: ${r.detail}`;
    return r.fix ? [head, `    fix: ${r.fix}`] : [head];
  });
  const failures = results.filter((r) => r.status === "fail").length;
  const skipped = results.filter((r) => r.status === "skip").length;
  lines.push(
    failures === 0 && skipped === 0
      ? `All ${results.length} checks passed.`
      : `${failures} failed, ${skipped} not checked, ${results.length - failures - skipped} passed.`,
  );
  return lines.join("\n");
}

export function formatJson(results: CheckResult[]): string {
  return JSON.stringify({ ok: passed(results), checks: results }, null, 2);
}

/**
 * Last line of defence for "never prints the client secret": the checks never put it in a message, and any
 * text echoed from a server passes through here too.
 */
export function redact(text: string, secrets: (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join("[redacted]");
  return out;
}
