import { accessSync, constants } from "node:fs";
import path from "node:path";

// Debian puts daemons such as nginx in /usr/sbin, which is not on an ordinary user's PATH.
const EXTRA_DIRS = ["/usr/local/sbin", "/usr/sbin", "/sbin"];

/**
 * The absolute path of a system program the tests and demos start as a child process, or an error that
 * names the Debian package to install. A missing binary is a failure, never a reason to skip.
 */
export function findSystemBinary(name: string, debianPackage: string): string {
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter).filter(Boolean), ...EXTRA_DIRS];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  throw new Error(`${name} was not found: install it with \`apt-get install -y ${debianPackage}\` (as root), or run \`npm test\` as root, which installs it`);
}
