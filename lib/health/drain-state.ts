import "server-only";
import { setInstanceReady } from "@/lib/metrics/availability";

const DRAINING_KEY = Symbol.for("esign.draining");
type GlobalWithDraining = typeof globalThis & { [DRAINING_KEY]?: boolean };

/** From SIGTERM on, readiness answers 503 so that balancers stop sending before the listener closes. */
export function markDraining(): void {
  (globalThis as GlobalWithDraining)[DRAINING_KEY] = true;
  setInstanceReady(false);
}

export function isDraining(): boolean {
  return (globalThis as GlobalWithDraining)[DRAINING_KEY] === true;
}
