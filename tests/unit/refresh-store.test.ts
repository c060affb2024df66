import { describe, expect, it } from "vitest";
import { createMemoryRefreshStore } from "@/lib/auth/refresh-store";
import { TokenRefreshError } from "@/lib/esign/client";

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("createMemoryRefreshStore", () => {
  it("runs one refresh for any number of concurrent callers with the same refresh token", async () => {
    const store = createMemoryRefreshStore();
    const gate = deferred<string>();
    let calls = 0;
    const refresh = () => {
      calls++;
      return gate.promise;
    };
    const results = Promise.all(Array.from({ length: 20 }, () => store.run("rt-1", refresh)));
    gate.resolve("new-tokens");
    expect(await results).toEqual(Array(20).fill("new-tokens"));
    expect(calls).toBe(1);
  });

  it("replays a finished refresh to late callers still holding the old refresh token", async () => {
    const store = createMemoryRefreshStore(60_000);
    let calls = 0;
    await store.run("rt-1", async () => ++calls);
    expect(await store.run("rt-1", async () => ++calls)).toBe(1);
    expect(calls).toBe(1);
  });

  it("refreshes again once the replay window has passed", async () => {
    const store = createMemoryRefreshStore(0);
    let calls = 0;
    await store.run("rt-1", async () => ++calls);
    await new Promise((r) => setTimeout(r, 5));
    expect(await store.run("rt-1", async () => ++calls)).toBe(2);
  });

  it("keeps different refresh tokens apart", async () => {
    const store = createMemoryRefreshStore();
    const [a, b] = await Promise.all([store.run("rt-a", async () => "a"), store.run("rt-b", async () => "b")]);
    expect([a, b]).toEqual(["a", "b"]);
  });

  it("lets a transient failure be retried at once but replays a rejection", async () => {
    const store = createMemoryRefreshStore();
    let calls = 0;
    await expect(
      store.run("rt-1", async () => {
        calls++;
        throw new TokenRefreshError("unavailable", "down");
      }),
    ).rejects.toThrow("down");
    await expect(store.run("rt-1", async () => ++calls)).resolves.toBe(2);

    await expect(
      store.run("rt-2", async () => {
        throw new TokenRefreshError("rejected", "used");
      }),
    ).rejects.toThrow("used");
    let second = 0;
    await expect(store.run("rt-2", async () => ++second)).rejects.toThrow("used");
    expect(second).toBe(0);
  });
});
