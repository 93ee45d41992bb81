// One process per run folder: a second `run` on the same folder would interleave and duplicate lines.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { UserError } from "../errors.ts";

/** Takes DIR/.lock (holding our pid) or refuses; a lock left by a dead process is taken over. Returns the release. */
export function acquireRunLock(dir: string): () => void {
  const file = path.join(dir, ".lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      const release = () => rmSync(file, { force: true });
      process.once("exit", release);
      return () => {
        process.removeListener("exit", release);
        release();
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(readFileSync(file, "utf8").trim());
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
        throw new UserError(`${dir} is in use by another blogqa run (pid ${holder}). Wait for it to finish, or use another --out folder.`);
      }
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new UserError(`could not lock ${dir}: another run keeps taking ${file}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
