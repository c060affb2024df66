import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { createElement, type ComponentProps, type FunctionComponent, type ReactNode } from "react";
import { prerender } from "react-dom/static";
import { createFormatter, createTranslator, NextIntlClientProvider } from "next-intl";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { formats } from "@/lib/i18n/formats";
import en from "@/messages/en.json" with { type: "json" };

// Every operator page rendered as Next renders it on the server, over a real embedded database (PGlite) whose
// access-log INSERT fails as on a full disk (SQLSTATE 53100, "database unavailable") while reads still work: each page
// must say "unavailable" and show none of the data it would have read. The same pages with the log working show the
// data, so the check can tell the two apart.
const OPERATOR = { userKey: "operator-key", email: "oscar@example.com" };

vi.mock("@/lib/operators/operator-access", () => ({ requireOperator: async () => OPERATOR }));
vi.mock("next-intl/server", () => ({
  getTranslations: async (namespace?: string) => createTranslator({ locale: "en", messages: en, formats, timeZone: "UTC", namespace: namespace as never }),
  getFormatter: async () => createFormatter({ locale: "en", formats, timeZone: "UTC" }),
  getMessages: async () => en,
  getTimeZone: async () => "UTC",
  getLocale: async () => "en",
}));

type Page = (props: { params?: Promise<object>; searchParams?: Promise<object> }) => Promise<ReactNode>;

async function render(page: Page, props: { params?: object; searchParams?: object }): Promise<string> {
  const element = await page({ params: Promise.resolve(props.params ?? {}), searchParams: Promise.resolve(props.searchParams ?? {}) });
  // The children go as createElement's third argument, which its typing of required `children` does not see.
  const Provider = NextIntlClientProvider as unknown as FunctionComponent<Omit<ComponentProps<typeof NextIntlClientProvider>, "children">>;
  const tree = createElement(Provider, { locale: "en", messages: en, formats, timeZone: "UTC", now: new Date() }, element);
  const { prelude } = await prerender(tree);
  return new Response(prelude).text();
}

describe("operator pages with the access log's insert failing", () => {
  let dir: string;
  let closeDatabase: () => Promise<void>;
  let execute: (statement: ReturnType<typeof sql>) => Promise<unknown>;
  const alice = `alice-${randomUUID().slice(0, 8)}`;
  const itemId = randomUUID();
  const documentName = "Alice lease agreement";
  let pages: Array<[string, Page, { params?: object; searchParams?: object }]>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "operator-pages-"));
    Object.assign(process.env, { AUTH_SECRET: "unit-test-secret-0123456789abcdef0123456789", SESSION_STORE_DIR: join(dir, "sessions"), DATABASE_DIR: join(dir, "db") });
    const db = await import("@/lib/db/client");
    closeDatabase = db.closeDatabase;
    const database = await db.getDatabase();
    execute = (statement) => database.db.execute(statement);
    const { userRecords } = await import("@/lib/operators/user-records");
    const { documentRecords } = await import("@/lib/documents/document-records");
    await userRecords.recordUserSignIn(alice, { email: "alice@example.com", email_verified: true, name: "Alice Example" });
    // Created two days ago and never uploaded: on the overview's 7 days, and stuck.
    const at = new Date(Date.now() - 2 * 86_400_000).toISOString();
    await documentRecords.recordEvents(alice, itemId, [{ id: randomUUID(), type: "created", at, fileId: randomUUID(), subdocid: 0, name: documentName, doctype: "contract" }], {});
    // Seen by an operator before: the access log page has a line naming alice.
    const { operatorRecords } = await import("@/lib/operators/operator-records");
    await operatorRecords.recordOperatorAccess(OPERATOR, { action: "view_user", subjectUserKey: alice });
    pages = [
      ["overview", (await import("@/app/operator/page")).default as Page, { searchParams: { range: "7d" } }],
      ["search", (await import("@/app/operator/search/page")).default as Page, { searchParams: { q: "alice" } }],
      ["stuck", (await import("@/app/operator/stuck/page")).default as Page, {}],
      ["user", (await import("@/app/operator/users/[userKey]/page")).default as Page, { params: { userKey: alice } }],
      ["document", (await import("@/app/operator/users/[userKey]/documents/[itemId]/page")).default as Page, { params: { userKey: alice, itemId } }],
      ["access log", (await import("@/app/operator/access/page")).default as Page, {}],
    ];
  });

  afterAll(async () => {
    await closeDatabase?.();
    await rm(dir, { recursive: true, force: true });
  });

  it("shows each page's data while the access log takes its line", async () => {
    for (const [name, page, props] of pages) {
      const html = await render(page, props);
      expect(html, name).not.toContain(en.operator.unavailableTitle);
      // The overview shows counts, no names: its figures stand for its data.
      if (name === "overview") expect(html).toContain('data-testid="operator-figures"');
      else expect(html, name).toMatch(/alice@example\.com|Alice lease agreement/);
    }
  });

  it("says unavailable and shows no data on each page when the log's insert fails with 'disk full'", async () => {
    await execute(sql.raw(`create function fail_access_log() returns trigger language plpgsql as $$ begin raise exception 'could not extend file' using errcode = '53100'; end $$`));
    await execute(sql.raw(`create trigger fail_access_log before insert on operator_access_log for each row execute function fail_access_log()`));
    try {
      const outcomes: Record<string, string> = {};
      for (const [name, page, props] of pages) {
        const html = await render(page, props).catch((error: unknown) => `threw ${String(error)}`);
        const shown = ["alice@example.com", "Alice Example", documentName, 'data-testid="operator-figures"'].filter((text) => html.includes(text));
        outcomes[name] = shown.length > 0 ? `shows ${shown.join(", ")}` : html.includes(en.operator.unavailableTitle) ? "unavailable" : html.slice(0, 200);
      }
      expect(outcomes).toEqual(Object.fromEntries(pages.map(([name]) => [name, "unavailable"])));
    } finally {
      await execute(sql.raw(`drop trigger fail_access_log on operator_access_log`));
      await execute(sql.raw(`drop function fail_access_log()`));
    }
  });
});
