import { createElement, type ComponentProps, type FunctionComponent, type ReactNode } from "react";
import { prerender } from "react-dom/static";
import { createFormatter, createTranslator, NextIntlClientProvider } from "next-intl";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { formats } from "@/lib/i18n/formats";
import en from "@/messages/en.json" with { type: "json" };
import ja from "@/messages/ja.json" with { type: "json" };

// The operator overview's line on backups, in each state it can be in, in both languages.
const catalogs = { en, ja };
let locale: "en" | "ja" = "en";
const config = { backups: { target: undefined as string | undefined, declinedOnPurpose: false }, database: { url: undefined as string | undefined } };
vi.mock("@/lib/env", () => ({ getConfig: () => config }));
vi.mock("next-intl/server", () => ({
  getTranslations: async (namespace?: string) => createTranslator({ locale, messages: catalogs[locale], formats, timeZone: "Asia/Tokyo", namespace: namespace as never }),
  getFormatter: async () => createFormatter({ locale, formats, timeZone: "Asia/Tokyo" }),
  getTimeZone: async () => "Asia/Tokyo",
}));

const { BackupStatusLine } = await import("@/app/operator/_components/backup-status-line");
const { updateBackupStatus } = await import("@/lib/backup/backup-status");

// 2026-11-28 12:00 in Tokyo.
const NOW = new Date("2026-11-28T03:00:00Z");

async function line(): Promise<string> {
  const element = (await BackupStatusLine({ now: NOW })) as ReactNode;
  const Provider = NextIntlClientProvider as unknown as FunctionComponent<Omit<ComponentProps<typeof NextIntlClientProvider>, "children">>;
  const { prelude } = await prerender(createElement(Provider, { locale, messages: catalogs[locale], formats, timeZone: "Asia/Tokyo", now: NOW }, element));
  return (await new Response(prelude).text()).replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/\s+/g, " ").trim();
}

beforeEach(() => {
  locale = "en";
  config.backups = { target: "/mnt/backups", declinedOnPurpose: false };
  config.database = { url: undefined };
  updateBackupStatus({ latest: undefined, failure: undefined });
});

describe("the operator overview's backup line", () => {
  it("names the last verified backup, its time in the operator's zone and its size", async () => {
    updateBackupStatus({ latest: { id: "b1", createdAt: "2026-11-27T18:00:00Z", sizeBytes: 12_400_000 } });
    expect(await line()).toBe("Last backup 03:00 today, 12.4 MB, verified");
    locale = "ja";
    expect(await line()).toBe("最終バックアップ 今日 03:00、12.4 MB、検証済み");
  });

  it("warns in words when the last verified backup is more than 26 hours old", async () => {
    updateBackupStatus({ latest: { id: "b1", createdAt: "2026-11-26T18:00:00Z", sizeBytes: 1_000_000 } });
    expect(await line()).toBe("No verified backup for more than a day The last verified backup is from 03:00 yesterday. The instance's log says why later ones did not run or failed; see the runbook for EsignBackupStale.");
  });

  it("warns that the last backup failed, naming the last verified one, or that there is none", async () => {
    updateBackupStatus({ latest: { id: "b1", createdAt: "2026-11-27T15:00:00Z", sizeBytes: 1_000_000 }, failure: { at: "2026-11-27T18:00:00Z", message: "verify" } });
    expect(await line()).toBe("The last backup failed The backup at 03:00 today did not complete or did not verify, so it does not count; the last verified one is from 00:00 today. The instance's log says why.");
    updateBackupStatus({ latest: undefined });
    expect(await line()).toMatch(/^The last backup failed .*there is no verified backup yet/);
  });

  it("says when there are none yet, none on purpose, none set up, or PostgreSQL's own", async () => {
    expect(await line()).toBe("Backups are set up; none has been taken yet.");
    config.backups = { target: undefined, declinedOnPurpose: true };
    expect(await line()).toBe("No backups: BACKUP_TARGET=none is set on purpose.");
    config.backups = { target: undefined, declinedOnPurpose: false };
    expect(await line()).toMatch(/^No backups BACKUP_TARGET is not set/);
    config.database = { url: "postgres://db" };
    expect(await line()).toBe("Backups are PostgreSQL's own job here (DATABASE_URL).");
  });
});
