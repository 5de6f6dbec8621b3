import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgliteDb } from './pglite';

/** Every path under `root` whose mode is not the owner's alone (0700 folders, 0600 files), with its mode. */
function openToOthers(root: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    const stats = lstatSync(path);
    const mode = stats.mode & 0o777;
    if (mode !== (stats.isDirectory() ? 0o700 : 0o600))
      found.push(`${mode.toString(8)} ${path.slice(root.length)}`);
    if (stats.isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
  };
  walk(root);
  return found;
}

function chmodTree(path: string, fileMode: number, folderMode: number): void {
  const stats = lstatSync(path);
  chmodSync(path, stats.isDirectory() ? folderMode : fileMode);
  if (stats.isDirectory())
    for (const entry of readdirSync(path)) chmodTree(join(path, entry), fileMode, folderMode);
}

describe("the embedded database's files", () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'guardian-modes-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('are readable and writable by their owner only, on a new folder and on an existing one', async () => {
    const folder = join(dataDir, 'pglite');
    const created = await createPgliteDb(folder);
    await created.exec('CREATE TABLE first_run (id int)');
    await created.close();
    expect(openToOthers(dataDir)).toEqual([]);

    // A folder an earlier version left open to everyone.
    chmodTree(folder, 0o666, 0o777);
    const reopened = await createPgliteDb(folder);
    try {
      await reopened.exec(
        'CREATE TABLE second_run (id int); INSERT INTO second_run SELECT generate_series(1, 10000); CHECKPOINT',
      );
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      await reopened.close();
    }
    expect(openToOthers(dataDir)).toEqual([]);
    // Two starts on a folder, the first with initdb: 21 s beside a CPU load on both cores.
  }, 90_000);
});
