// Play one game through `mb-oracle serve` from Node.js, with no npm packages,
// and print it as an mb-replay/1 log (pipe it into `mb-oracle verify`).
//
//   node examples/rpc_client.js [--seed N] [--edition E] [-- SERVE COMMAND...]
//
// The service is a child process (default: `mb-oracle serve`) spoken to in
// mb-oracle-rpc/1: one JSON request per line on its standard input, one JSON
// response per line on its standard output, in order. The client deals the
// game of a seed and answers every decision with a random legal option (a
// small seeded generator, so a seed always plays the same game).
"use strict";

const { spawn } = require("child_process");
const readline = require("readline");

function parseArgs(argv) {
  const opts = { seed: 1, edition: "en-revised", command: ["mb-oracle", "serve"] };
  const dash = argv.indexOf("--");
  if (dash >= 0) {
    opts.command = argv.slice(dash + 1);
    argv = argv.slice(0, dash);
  }
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--seed") opts.seed = Number(argv[++i]);
    else if (argv[i] === "--edition") opts.edition = argv[++i];
  }
  return opts;
}

// mulberry32: a tiny seeded pseudo-random generator.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Oracle {
  constructor(command) {
    this.child = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
    this.waiting = [];
    this.nextId = 0;
    readline.createInterface({ input: this.child.stdout }).on("line", (line) => {
      const resolve = this.waiting.shift();
      if (resolve) resolve(JSON.parse(line));
    });
  }

  call(op, fields = {}) {
    const id = ++this.nextId;
    const request = { rpc: "mb-oracle-rpc/1", id, op, ...fields };
    return new Promise((resolve, reject) => {
      this.waiting.push((reply) => {
        if (reply.id !== id) reject(new Error(`reply to ${reply.id}, expected ${id}`));
        else if (!reply.ok) reject(new Error(`${op}: ${reply.error.code}: ${reply.error.message}`));
        else resolve(reply);
      });
      this.child.stdin.write(JSON.stringify(request) + "\n");
    });
  }

  close() {
    this.child.stdin.end();
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const random = generator(opts.seed);
  const oracle = new Oracle(opts.command);
  const hello = await oracle.call("hello");
  if (!hello.editions.includes(opts.edition)) throw new Error(`unknown edition ${opts.edition}`);
  const started = await oracle.call("new", { edition: opts.edition, seed: opts.seed });
  const game = started.game;
  const out = [
    { t: "game", format: "mb-replay/1", id: `rpc-client-js-${opts.edition}-${opts.seed}`, edition: opts.edition,
      impl: { name: "examples/rpc_client.js" } },
    started.setup,
  ];
  let pending = started.pending;
  let over = started.over;
  let decisions = 0;
  while (pending !== null) {
    const options = pending.options;
    const decision = options[Math.floor(random() * options.length)];
    const reply = await oracle.call("apply", { game, decision });
    if (!reply.applied) throw new Error(`refused: ${JSON.stringify(reply.refusal)}`);
    out.push(decision);
    decisions++;
    pending = reply.pending;
    over = reply.over;
  }
  const state = await oracle.call("state", { game });
  out.push(state.state);
  out.push({ t: "end", winner: over.winner, reason: over.reason });
  const events = await oracle.call("events", { game });
  await oracle.call("close", { game });
  oracle.close();
  for (const line of out) process.stdout.write(JSON.stringify(line) + "\n");
  process.stderr.write(`player ${over.winner} won (${over.reason}) after ${decisions} decisions, ` +
                       `${events.events.length} events\n`);
}

main().catch((e) => {
  process.stderr.write(`error: ${e.message}\n`);
  process.exit(1);
});
