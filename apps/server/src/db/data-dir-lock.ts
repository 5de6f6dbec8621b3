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

/** A lock taken from a database process whose server is gone. */
export interface TakenOver {
  /** The process that held the lock... */
  pid: number;
  /** ...for this server (or users command), which is no longer running. */
  server: number;
  /** Whether that process was still there (a database process stopped or stuck) and was killed. */
  killed: boolean;
}

/** The process holding a lock and the server it works for (a lock of an earlier version names only the first). */
function holderOf(lockFile: string): { pid: number; server?: number } {
  const [pid, server] = readFileSync(lockFile, 'utf8').trim().split(' ').map(Number);
  return { pid: pid!, server: Number.isInteger(server) ? server : undefined };
}

/** The command line of a process, where the system shows it (Linux's /proc); else undefined. */
function commandLineOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
}

/** Ended, or a zombie (killed, waiting for a parent that may never reap it: its files are closed). */
export function isGone(pid: number): boolean {
  if (!isRunning(pid)) return true;
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Kills a process and waits (a little) for it to be gone; whether it is. */
function kill(pid: number): boolean {
  process.kill(pid, 'SIGKILL');
  for (let waited = 0; !isGone(pid); waited += 50) {
    if (waited >= 5_000) return false;
    sleepSync(50);
  }
  return true;
}

/**
 * Whether the lock of a running `holder` may be taken: its pid now runs something else (it was given
 * to another process), or it is the database process of a server that is gone (stopped or stuck when
 * its server was killed: it is killed first). Undefined: the lock stands.
 */
function takeOver(holder: { pid: number; server?: number }): TakenOver | undefined {
  const commandLine = commandLineOf(holder.pid);
  if (commandLine === undefined || holder.server === undefined) return undefined;
  const server = holder.server;
  if (!commandLine.includes('pglite-host')) return { pid: holder.pid, server, killed: false };
  if (isRunning(server) || !kill(holder.pid)) return undefined;
  return { pid: holder.pid, server, killed: true };
}

/**
 * PGlite is a single-process database: a second process opening the same folder would corrupt it.
 * A lock file holding the owner's pid and its server's keeps the server and the users CLI apart. Taken
 * once per process, by the process that hosts PGlite (pglite-host.ts). A lock whose holder is gone,
 * or works for a server that is gone (see `takeOver`), is taken over. Returns the release, and what
 * was taken over from a process still running.
 */
export function lockDataDir(folder: string): { release: () => void; tookOver?: TakenOver } {
  const lockFile = `${folder}.lock`;
  let tookOver: TakenOver | undefined;
  for (;;) {
    try {
      writeFileSync(lockFile, `${process.pid} ${process.ppid}`, { flag: 'wx', mode: 0o600 });
      return { release: () => rmSync(lockFile, { force: true }), tookOver };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = holderOf(lockFile);
    // Our own pid in the file is left from an earlier run (a container's process is always pid 1).
    if (
      Number.isInteger(holder.pid) &&
      holder.pid > 0 &&
      holder.pid !== process.pid &&
      isRunning(holder.pid)
    ) {
      tookOver = takeOver(holder);
      if (!tookOver) throw new DataDirLockedError(folder, holder.pid);
    }
    rmSync(lockFile, { force: true });
  }
}
