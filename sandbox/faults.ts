import { randomUUID } from "node:crypto";
import { z } from "zod";

const count = z.number().int().min(1).max(1000).default(1);
const status = z.number().int().min(400).max(599);

/** Fault switches accepted by POST /_sandbox/faults; each applies to the next `count` matching calls. */
export const faultInputSchema = z.discriminatedUnion("target", [
  z
    .object({
      target: z.literal("token"),
      count,
      grantType: z.enum(["authorization_code", "refresh_token"]).optional(),
      status: status.optional(),
      delayMs: z.number().int().min(1).max(120_000).optional(),
      hold: z.literal(true).optional(),
    })
    .strict()
    .refine((fault) => [fault.status, fault.delayMs, fault.hold].filter((v) => v !== undefined).length === 1, {
      message: "a token fault needs exactly one of status, delayMs or hold",
    }),
  z
    .object({
      target: z.enum(["api", "document", "getuserinfo"]),
      count,
      status: status.optional(),
      delayMs: z.number().int().min(1).max(120_000).optional(),
      hang: z.literal(true).optional(),
      malformed: z.literal(true).optional(),
      // The service's own rate limit: `status: 429` with the Retry-After it sends (seconds).
      retryAfterSeconds: z.number().int().min(0).max(86_400).optional(),
    })
    .strict()
    .refine(
      (fault) => [fault.status, fault.delayMs, fault.hang, fault.malformed].filter((v) => v !== undefined).length === 1,
      { message: "an api fault needs exactly one of status, delayMs, hang or malformed" },
    )
    .refine((fault) => fault.retryAfterSeconds === undefined || fault.status !== undefined, {
      message: "retryAfterSeconds goes with a status (429 or 503)",
    }),
  z
    .object({
      target: z.literal("jwks"),
      count,
      status: status.optional(),
      delayMs: z.number().int().min(1).max(120_000).optional(),
      hang: z.literal(true).optional(),
    })
    .strict()
    .refine((fault) => [fault.status, fault.delayMs, fault.hang].filter((v) => v !== undefined).length === 1, {
      message: "a jwks fault needs exactly one of status, delayMs or hang",
    }),
  z
    .object({ target: z.literal("sas"), count, expired: z.literal(true).optional(), permissions: z.literal("c").optional() })
    .strict()
    // `permissions: "c"` issues a create-only SAS: Put Block is refused (403), as storage without block support would.
    .refine((fault) => (fault.expired === undefined) !== (fault.permissions === undefined), {
      message: "a sas fault needs exactly one of expired or permissions",
    }),
]);

export type FaultInput = z.infer<typeof faultInputSchema>;
export type Fault = FaultInput & { id: string; remaining: number };
type Target<T extends FaultInput["target"]> = Extract<Fault, { target: T }>;

export class Faults {
  private active: Fault[] = [];
  /** Token calls held by a `hold` fault, each waiting for the switches to be cleared. */
  private held: (() => void)[] = [];

  add(input: FaultInput): Fault {
    const fault = { ...input, id: randomUUID(), remaining: input.count } as Fault;
    this.active.push(fault);
    return fault;
  }

  list(): Fault[] {
    return this.active.map((fault) => ({ ...fault }));
  }

  /** Clears every switch and lets held token calls go on (DELETE /_sandbox/faults, reset, stop). */
  reset(): void {
    this.active = [];
    const held = this.held;
    this.held = [];
    for (const release of held) release();
  }

  /** How many token calls a `hold` fault is holding now. */
  heldCount(): number {
    return this.held.length;
  }

  /** Resolves when the switches are next cleared: a held token call then goes on as if nothing happened. */
  hold(): Promise<void> {
    return new Promise((resolve) => this.held.push(resolve));
  }

  /** Consumes one use of the oldest fault that matches, so stacked faults fire in the order they were set. */
  private take<T extends FaultInput["target"]>(matches: (fault: Fault) => fault is Target<T>): Target<T> | undefined {
    const fault = this.active.find(matches);
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining === 0) this.active = this.active.filter((other) => other !== fault);
    return fault;
  }

  takeToken(grantType: string | undefined): Target<"token"> | undefined {
    return this.take((fault): fault is Target<"token"> =>
      fault.target === "token" && (fault.grantType === undefined || fault.grantType === grantType),
    );
  }

  takeApi(operation: "document" | "getuserinfo"): Target<"api" | "document" | "getuserinfo"> | undefined {
    return this.take((fault): fault is Target<"api" | "document" | "getuserinfo"> =>
      fault.target === "api" || fault.target === operation,
    );
  }

  takeJwks(): Target<"jwks"> | undefined {
    return this.take((fault): fault is Target<"jwks"> => fault.target === "jwks");
  }

  takeSas(): Target<"sas"> | undefined {
    return this.take((fault): fault is Target<"sas"> => fault.target === "sas");
  }
}
