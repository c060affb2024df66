import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const SESSION_DIR = join(process.cwd(), "lib/session");

/** Each lib/session module with the lib/session modules it imports (static imports, types included). */
function sessionImports(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of readdirSync(SESSION_DIR).filter((name) => name.endsWith(".ts"))) {
    const source = readFileSync(join(SESSION_DIR, file), "utf8");
    const targets = [...source.matchAll(/from "@\/lib\/session\/([\w-]+)"/g)].map((match) => `${match[1]}.ts`);
    graph.set(file, targets);
  }
  return graph;
}

/** One import cycle of the graph, as the chain of modules that closes it; undefined when imports run one way. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const visit = (file: string, path: string[]): string[] | undefined => {
    if (path.includes(file)) return [...path.slice(path.indexOf(file)), file];
    if (done.has(file)) return undefined;
    for (const target of graph.get(file) ?? []) {
      const cycle = visit(target, [...path, file]);
      if (cycle) return cycle;
    }
    done.add(file);
    return undefined;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file, []);
    if (cycle) return cycle;
  }
  return undefined;
}

describe("lib/session imports", () => {
  it("reads the imports of every session module", () => {
    const graph = sessionImports();
    expect(graph.get("end-sessions.ts")).toContain("sessions.ts");
    expect(graph.get("sessions.ts")).toContain("unsaved-tokens.ts");
  });

  it("run one way: no module imports, directly or through others, a module that imports it", () => {
    expect(findCycle(sessionImports())).toBeUndefined();
  });
});
