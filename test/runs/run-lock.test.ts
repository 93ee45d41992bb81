// The run lock tells a live run from a dead one whose pid now belongs to another process, and names its file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { acquireRunLock, currentHolder, type LockHolder } from "../../src/runs/run-lock.ts";
import { UserError } from "../../src/common/errors.ts";

const onLinux = existsSync("/proc/self/stat");

function lockedDir(holder: LockHolder | string): { dir: string; lock: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "blogqa-lock-"));
  const lock = path.join(dir, ".lock");
  writeFileSync(lock, typeof holder === "string" ? holder : JSON.stringify(holder));
  return { dir, lock };
}

/** Takes the lock, returns the notices, and checks that the lock now names this process. */
function takesOver(dir: string): string[] {
  const notices: string[] = [];
  const release = acquireRunLock(dir, (line) => notices.push(line));
  assert.deepEqual(JSON.parse(readFileSync(path.join(dir, ".lock"), "utf8")), currentHolder());
  release();
  assert.equal(existsSync(path.join(dir, ".lock")), false);
  return notices;
}

const refusal = (pattern: RegExp) => (e: unknown) => e instanceof UserError && pattern.test(e.message);

test("the lock records the pid, the process's start time, the host and the boot id", {
  skip: !onLinux && "needs /proc",
}, () => {
  const holder = currentHolder();
  assert.equal(holder.pid, process.pid);
  assert.match(holder.started ?? "", /^\d+$/);
  assert.ok(holder.host && holder.boot);
});

test("a live run's lock is refused, naming the lock file and how to clear it", () => {
  const { dir, lock } = lockedDir(currentHolder());
  assert.throws(
    () => acquireRunLock(dir),
    refusal(new RegExp(`in use by another blogqa run \\(pid ${process.pid}, lock file ${lock}\\).*delete ${lock}`)),
  );
});

test("a lock whose pid now belongs to another process (another start time) is taken over", {
  skip: !onLinux && "needs /proc",
}, () => {
  const { dir, lock } = lockedDir({ ...currentHolder(), started: "1" });
  assert.deepEqual(takesOver(dir), [
    `${lock}: took over a lock left by pid ${process.pid}, which is no longer running`,
  ]);
});

test("a lock from before a reboot is taken over", { skip: !onLinux && "needs /proc" }, () => {
  const { dir } = lockedDir({ ...currentHolder(), boot: "00000000-0000-0000-0000-000000000000" });
  assert.equal(takesOver(dir).length, 1);
});

test("a bare pid (older locks) that no longer runs is taken over", () => {
  const { dir } = lockedDir("999999999");
  assert.equal(takesOver(dir).length, 1);
});

test("a lock from another host cannot be checked: refused, naming the host and the file", () => {
  const { dir, lock } = lockedDir({ ...currentHolder(), host: "elsewhere.example" });
  assert.throws(
    () => acquireRunLock(dir),
    refusal(new RegExp(`locked by a blogqa run on host elsewhere\\.example .*lock file ${lock}.*delete ${lock}`)),
  );
});

test("a lock file that is empty or not a lock is refused, naming it", () => {
  const empty = lockedDir("");
  assert.throws(
    () => acquireRunLock(empty.dir),
    refusal(new RegExp(`^${empty.lock} is empty .*delete ${empty.lock}$`)),
  );
  const other = lockedDir("hello");
  assert.throws(() => acquireRunLock(other.dir), refusal(new RegExp(`^${other.lock} does not hold a blogqa lock`)));
});
