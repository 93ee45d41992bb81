// The run lock tells a live run from a dead one whose pid now belongs to another process, and names its file.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs, { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { acquireRunLock, currentHolder, type LockHolder } from "../../src/runs/run-lock.ts";
import { UserError } from "../../src/common/errors.ts";
import { appendAnswer } from "../../src/runs/answer-log.ts";
import { makeRecord } from "../helpers/answer-records.ts";

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

/** Makes `name` of node:fs throw what a full disk throws (a write's error names no path), for the body only. */
function withFullDisk(name: "writeSync" | "appendFileSync", body: () => void): void {
  const enospc = Object.assign(new Error("ENOSPC: no space left on device, write"), {
    code: "ENOSPC",
    errno: -28,
    syscall: "write",
  });
  const original = fs[name];
  (fs as Record<string, unknown>)[name] = () => {
    throw enospc;
  };
  syncBuiltinESMExports();
  try {
    body();
  } finally {
    (fs as Record<string, unknown>)[name] = original;
    syncBuiltinESMExports();
  }
}

test("a full disk while writing the lock is one line naming the lock, and leaves no .lock behind", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "blogqa-lock-"));
  const file = path.join(dir, ".lock");
  withFullDisk("writeSync", () => {
    assert.throws(
      () => acquireRunLock(dir),
      (e: unknown) =>
        e instanceof UserError &&
        e.message === `${file}: no space left on the device (ENOSPC, write); free some space, or choose another disk`,
    );
  });
  assert.equal(existsSync(file), false, "an empty lock would refuse every later run");
  acquireRunLock(dir)();
});

test("a .lock that is a folder is one line saying so", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "blogqa-lock-"));
  mkdirSync(path.join(dir, ".lock"));
  assert.throws(
    () => acquireRunLock(dir),
    (e: unknown) =>
      e instanceof UserError &&
      e.message ===
        `${path.join(dir, ".lock")} is a folder, not a blogqa lock file; if no blogqa run is using ${dir}, remove it`,
  );
});

test("a full disk while appending an answer is one line naming answers.jsonl", () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "blogqa-log-")), "answers.jsonl");
  withFullDisk("appendFileSync", () => {
    assert.throws(
      () => appendAnswer(file, makeRecord({ question_id: "q1" })),
      (e: unknown) =>
        e instanceof UserError &&
        e.message ===
          `${file}: no space left on the device (ENOSPC, write); free some space, or choose another disk. ` +
            "The runs that finished are logged: run the same command again to resume",
    );
  });
});
