import "server-only";
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { BackupError } from "@/lib/backup/backup-error";
import { targetFailure, type BackupTarget } from "@/lib/backup/targets/backup-target";
import { syncPath } from "@/lib/db/durable-pglite";

/**
 * A folder (another disk, a mounted volume). Each file is written beside its final name, synced, renamed into
 * place and its folder synced: a file under its final name is whole and on disk.
 */
export class FolderTarget implements BackupTarget {
  readonly description: string;
  constructor(readonly dir: string) {
    this.description = `folder ${dir}`;
  }

  /** The folder must exist: an unmounted volume's empty mount point must not quietly fill the local disk. */
  private async assertPresent(doing: string): Promise<void> {
    try {
      if (!(await stat(this.dir)).isDirectory()) throw Object.assign(new Error("not a folder"), { code: "ENOTDIR" });
    } catch (error) {
      throw targetFailure(this.description, error, doing);
    }
  }

  private async place(name: string, write: (temporary: string) => Promise<void>): Promise<void> {
    const final = path.join(this.dir, name);
    const temporary = `${final}.partial`;
    await this.assertPresent(`write ${name}`);
    try {
      await mkdir(path.dirname(final), { recursive: true });
      await write(temporary);
      syncPath(temporary);
      await rename(temporary, final);
      syncPath(path.dirname(final));
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => {});
      throw targetFailure(this.description, error, `write ${name}`);
    }
  }

  upload(name: string, file: string): Promise<void> {
    return this.place(name, (temporary) => copyFile(file, temporary));
  }

  writeBytes(name: string, bytes: Buffer): Promise<void> {
    return this.place(name, (temporary) => writeFile(temporary, bytes, { mode: 0o600 }));
  }

  async download(name: string, file: string): Promise<void> {
    await this.assertPresent(`read ${name}`);
    try {
      await copyFile(path.join(this.dir, name), file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new BackupError("NOT_FOUND", `There is no backup ${name} in the ${this.description}.`);
      throw targetFailure(this.description, error, `read ${name}`);
    }
  }

  async readBytes(name: string): Promise<Buffer | undefined> {
    try {
      return await readFile(path.join(this.dir, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw targetFailure(this.description, error, `read ${name}`);
    }
  }

  async list(prefix: string): Promise<string[]> {
    await this.assertPresent("list its backups");
    try {
      return (await readdir(path.join(this.dir, prefix), { withFileTypes: true })).filter((e) => e.isFile() && !e.name.endsWith(".partial")).map((e) => e.name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw targetFailure(this.description, error, "list its backups");
    }
  }

  async remove(name: string): Promise<void> {
    try {
      await rm(path.join(this.dir, name), { force: true });
    } catch (error) {
      throw targetFailure(this.description, error, `remove ${name}`);
    }
  }
}
