// Prints the order in which two jobs on libuv's thread pool finished: a long key derivation, then a short one
// started after it. With a pool of one thread the short job waits behind the long one ("long,short"); with more it
// finishes first ("short,long"). Started as `npm run bench` starts its script, to see the pool it got.
import { pbkdf2 } from "node:crypto";

const order: string[] = [];
const derive = (iterations: number, name: string) =>
  new Promise<void>((resolve, reject) =>
    pbkdf2("blogqa", "salt", iterations, 32, "sha256", (error) => {
      if (error) reject(error);
      order.push(name);
      resolve();
    }),
  );
// about a second on one core: far longer than it takes to hand the short job to a second thread
await Promise.all([derive(2_000_000, "long"), derive(1, "short")]);
process.stdout.write(order.join(","));
