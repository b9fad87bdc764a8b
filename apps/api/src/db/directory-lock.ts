import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';

export interface DirectoryLock {
  release(): void;
}

export class DataDirectoryBusyError extends Error {
  constructor(lockFile: string, pid: number) {
    super(
      `The data directory is in use by another running Kestrel process (pid ${pid}). ` +
        `Stop that process, or start this one with another DATA_DIR. Lock file: ${lockFile}`,
    );
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes an exclusive lock file holding our pid. A lock left by a process that has died
 * is taken over; one held by a live process is refused with a clear message.
 */
export function acquireDirectoryLock(lockFile: string): DirectoryLock {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          rmSync(lockFile, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processIsAlive(holder)) {
        throw new DataDirectoryBusyError(lockFile, holder);
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not take the data directory lock ${lockFile}`);
}
