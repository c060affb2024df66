type Payload = Record<string, unknown> & { grantId?: string; uid?: string; userCode?: string; consumed?: number };

export type SessionPayload = Payload & {
  accountId: string;
  authorizations?: Record<string, { sid?: string; grantId?: string; persistsLogout?: boolean }>;
};

interface Entry {
  payload: Payload;
  expiresAt: number;
}

/**
 * In-memory storage for oidc-provider, one per sandbox. The library's own memory adapter keeps at most 1000
 * entries (LRU), so a long e2e run or demo would see sessions and tokens vanish; this one keeps everything
 * until it expires.
 */
export type OidcStore = ReturnType<typeof createOidcStore>;

export function createOidcStore() {
  const entries = new Map<string, Entry>();
  const grants = new Map<string, Set<string>>();
  const sessionsByUid = new Map<string, string>();
  let writes = 0;

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };

  // Expired entries are dropped on read; an occasional sweep bounds what is never read again.
  const sweep = () => {
    const now = Date.now();
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
    for (const [grantId, keys] of grants) {
      for (const key of keys) if (!entries.has(key)) keys.delete(key);
      if (keys.size === 0) grants.delete(grantId);
    }
    for (const [uid, id] of sessionsByUid) if (!entries.has(`Session:${id}`)) sessionsByUid.delete(uid);
  };

  const adapterFor = (model: string) => {
    const key = (id: string) => `${model}:${id}`;
    return {
      async upsert(id: string, payload: Payload, expiresIn?: number) {
        entries.set(key(id), {
          payload,
          expiresAt: typeof expiresIn === "number" ? Date.now() + expiresIn * 1000 : Infinity,
        });
        if (payload.grantId) {
          const keys = grants.get(payload.grantId) ?? new Set<string>();
          keys.add(key(id));
          grants.set(payload.grantId, keys);
        }
        if (model === "Session" && payload.uid) sessionsByUid.set(payload.uid, id);
        writes += 1;
        if (writes % 500 === 0) sweep();
      },
      async find(id: string) {
        return live(key(id))?.payload;
      },
      async findByUid(uid: string) {
        const id = sessionsByUid.get(uid);
        return id === undefined ? undefined : live(key(id))?.payload;
      },
      async findByUserCode() {
        // Device flow is not enabled; the library still expects the method.
        return undefined;
      },
      async consume(id: string) {
        const entry = live(key(id));
        if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id: string) {
        entries.delete(key(id));
      },
      async revokeByGrantId(grantId: string) {
        for (const member of grants.get(grantId) ?? []) entries.delete(member);
        grants.delete(grantId);
      },
    };
  };

  /** Live sign-in sessions of one account: the library finds a session only by its cookie. */
  const sessionsOf = (accountId: string) =>
    [...entries.keys()]
      .filter((key) => key.startsWith("Session:") && live(key)?.payload.accountId === accountId)
      .map((key) => ({ id: key.slice("Session:".length), payload: live(key)?.payload as SessionPayload }));

  return Object.assign(adapterFor, { sessionsOf });
}
