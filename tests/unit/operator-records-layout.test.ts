import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The operator's records as Documenso keeps its server code: one operation a file, the file named for it, so the
// folder is the index. columns.ts holds the column lists and row shapes the operations share.
const ROOT = join(import.meta.dirname, "../..");
const FOLDER = join(ROOT, "lib/operators/records");
const camel = (file: string) => file.replace(/\.ts$/, "").replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

describe("lib/operators/records", () => {
  it("holds one exported function a file, named as its file", async () => {
    const files = (await readdir(FOLDER)).filter((f) => f.endsWith(".ts") && f !== "columns.ts");
    expect(files.length).toBeGreaterThanOrEqual(10);
    const exported = await Promise.all(
      files.map(async (file) => [file, [...(await readFile(join(FOLDER, file), "utf8")).matchAll(/^export (?:async )?function\*? (\w+)/gm)].map((m) => m[1])] as const),
    );
    expect(Object.fromEntries(exported)).toEqual(Object.fromEntries(files.map((file) => [file, [camel(file)]])));
  });

  it("explains the stuck list's counting in an opening comment of three lines or fewer", async () => {
    const lines = (await readFile(join(FOLDER, "list-stuck-documents.ts"), "utf8")).split("\n");
    const comment = lines.slice(1).findIndex((line) => !line.startsWith("//"));
    expect(lines[0]).toBe('import "server-only";');
    expect(comment).toBeGreaterThan(0);
    expect(comment).toBeLessThanOrEqual(3);
    expect(lines.slice(1, 1 + comment).join(" ")).toMatch(/count/);
  });
});

describe("the operator pages and exports", () => {
  it("reach users' data only through the one path that logs first (viewAsOperator, or the export response built on it)", async () => {
    const files = [...(await readdir(join(ROOT, "app/operator"), { recursive: true })).map((f) => `app/operator/${f}`), ...(await readdir(join(ROOT, "app/api/operator"), { recursive: true })).map((f) => `app/api/operator/${f}`)];
    // The erasure route reads nothing to show: it erases, and writes its `erase_user` line in the erasure's own
    // transaction (lib/erasure/user-erasure.ts), so neither happens without the other.
    const ERASURE_ROUTE = "app/api/operator/users/[userKey]/erasure/route.ts";
    expect(await readFile(join(ROOT, ERASURE_ROUTE), "utf8")).toMatch(/eraseUserByOperator\(/);
    const entries = files.filter((f) => /\/(page\.tsx|route\.ts)$/.test(f) && f !== ERASURE_ROUTE);
    expect(entries.length).toBe(8);
    const paths = await Promise.all(
      entries.map(async (file) => {
        const text = await readFile(join(ROOT, file), "utf8");
        return [file, { records: /operator-records|operators\/records\//.test(text), path: /viewAsOperator\(|operatorExportResponse\(/.test(text) }] as const;
      }),
    );
    expect(Object.fromEntries(paths)).toEqual(Object.fromEntries(entries.map((file) => [file, { records: false, path: true }])));
  });
});
