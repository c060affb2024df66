/** The part of fs-native-extensions 1.5.1 (no types of its own) that lib/server/folder-lock.ts uses. */
declare module "fs-native-extensions" {
  /**
   * An exclusive (or, with `shared`, a shared) lock on the file behind `fd` without waiting: `fcntl(F_OFD_SETLK)` on
   * Linux, `flock` on macOS, `LockFileEx` on Windows. Returns false while another open file description holds it.
   */
  export function tryLock(fd: number, offset?: number, length?: number, opts?: { shared?: boolean }): boolean;
  export function unlock(fd: number, offset?: number, length?: number): void;
}
