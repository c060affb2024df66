import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The operator's records as Documenso keeps its server code: one operation a file, the file named for it, so the
// folder is the index. columns.ts holds the column lists and row shapes the operations share.
const FOLDER = join(import.meta.dirname, "../../lib/operators/records");
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
