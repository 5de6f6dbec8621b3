import { readFileSync, rmSync, writeFileSync } from 'node:fs';

/** Whether a process with this pid exists (one we may not signal exists too). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class DataDirLockedError extends Error {
  constructor(
    readonly folder: string,
    readonly pid: number,
  ) {
    super(
      `Another Guardian process (pid ${pid}) is using the embedded database in ${folder}. ` +
        'Stop it first (the users command needs the server stopped when no DATABASE_URL is set), ' +
        'or set DATABASE_URL to use PostgreSQL.',
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * PGlite is a single-process database: a second process opening the same folder would corrupt it.
 * A lock file holding the owner's pid keeps the server and the users CLI apart. Taken once per
 * process, by the process that hosts PGlite (pglite-host.ts). Returns the release.
 */
export function lockDataDir(folder: string): () => void {
  const lockFile = `${folder}.lock`;
  for (;;) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => rmSync(lockFile, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number(readFileSync(lockFile, 'utf8'));
    // Our own pid in the file is left from an earlier run (a container's process is always pid 1).
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder)) {
      throw new DataDirLockedError(folder, holder);
    }
    rmSync(lockFile, { force: true });
  }
}
