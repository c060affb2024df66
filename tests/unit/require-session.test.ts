import { NextRequest } from "next/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/errors";
import type { SessionState } from "@/lib/session/current-session";

// requireSession's order with its collaborators stood in: the cookie, the session read and the user's budget.
// What is tested is which error wins and when a spent request is given back.
const cookie = vi.hoisted(() => ({ token: null as null | { sub?: string; sessionHandle?: string } }));
const read = vi.hoisted(() => ({ next: (): Promise<unknown> => Promise.resolve() }));
const budget = vi.hoisted(() => ({ calls: [] as string[], spend: (): Promise<void> => Promise.resolve() }));

vi.mock("@/lib/auth/session-cookie", () => ({ readSessionToken: async () => cookie.token }));
vi.mock("@/lib/session/current-session", () => ({ resolveSession: () => read.next(), shouldRefresh: () => false }));
vi.mock("@/lib/rate-limit/budgets", () => ({
  spendUserBudget: (name: string, subject: string) => {
    budget.calls.push(`spend ${name} ${subject}`);
    return budget.spend();
  },
  refundUserBudget: async (name: string, subject: string) => {
    budget.calls.push(`refund ${name} ${subject}`);
  },
}));

const { requireSession } = await import("@/lib/auth/require-access-token");

const request = () => new NextRequest("http://localhost:3000/api/documents");
const live: SessionState = { status: "active", id: "s-1", record: { subject: "alice" } as never };
const rateLimited = new AppError("RATE_LIMITED", 429, "Too many requests.");
const statusOf = (promise: Promise<unknown>) => promise.then(() => 200, (error: AppError) => error.status);

beforeEach(() => {
  cookie.token = { sub: "alice", sessionHandle: "handle-1" };
  read.next = async () => live;
  budget.calls = [];
  budget.spend = async () => undefined;
});

describe("requireSession", () => {
  it("answers 401 without a cookie and asks for a new sign-in for a cookie without a session handle, spending nothing", async () => {
    cookie.token = null;
    expect(await statusOf(requireSession(request(), "documents-list"))).toBe(401);
    cookie.token = { sub: "alice" };
    await expect(requireSession(request(), "documents-list")).rejects.toMatchObject({ code: "SESSION_EXPIRED" });
    expect(budget.calls).toEqual([]);
  });

  it("spends one request of the budget for a live session and keeps it", async () => {
    await expect(requireSession(request(), "documents-list")).resolves.toMatchObject({ id: "s-1" });
    expect(budget.calls).toEqual(["spend documents-list alice"]);
  });

  it("spends nothing without a budget", async () => {
    await requireSession(request());
    expect(budget.calls).toEqual([]);
  });

  it("gives the spend back for a session that has ended (401), is unreadable (503) or whose read threw", async () => {
    read.next = async () => ({ status: "ended" });
    expect(await statusOf(requireSession(request(), "documents-list"))).toBe(401);
    read.next = async () => ({ status: "unavailable" });
    expect(await statusOf(requireSession(request(), "documents-list"))).toBe(503);
    read.next = async () => {
      throw new Error("store bug");
    };
    await expect(requireSession(request(), "documents-list")).rejects.toThrow("store bug");
    expect(budget.calls).toEqual(Array(3).fill(["spend documents-list alice", "refund documents-list alice"]).flat());
  });

  it("answers the 401 before the 429 of a spent budget, and gives back nothing it did not take", async () => {
    budget.spend = async () => {
      throw rateLimited;
    };
    read.next = async () => ({ status: "ended" });
    expect(await statusOf(requireSession(request(), "documents-list"))).toBe(401);
    read.next = async () => live;
    expect(await statusOf(requireSession(request(), "documents-list"))).toBe(429);
    expect(budget.calls).toEqual(["spend documents-list alice", "spend documents-list alice"]);
  });

  it("spends for the record's subject after the read when the cookie names no user", async () => {
    cookie.token = { sessionHandle: "handle-1" };
    await requireSession(request(), "documents-list");
    expect(budget.calls).toEqual(["spend documents-list alice"]);
    read.next = async () => ({ status: "ended" });
    budget.calls = [];
    expect(await statusOf(requireSession(request(), "documents-list"))).toBe(401);
    expect(budget.calls).toEqual([]);
  });
});
