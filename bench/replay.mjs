// `node bench/replay.mjs`: the native `bucketlab replay` command on generated combined logs.
//
//   1. throughput: a 1,000,000-line combined log through `bucketlab replay` (token bucket, --json)
//      against Debian's goaccess parsing the same file (`goaccess --log-format=COMBINED -o
//      /dev/null`), runs alternated, median wall time of each, the file in the page cache first;
//   2. memory: the command's peak RSS (`/usr/bin/time -f %M`) on a 1 GB log with 10,000 keys, on a
//      100 MB log with the same 10,000 keys (as many keys, a tenth of the lines: the same memory
//      if it grows with keys, not lines) and on a 100 MB log with 1,000 keys; and with
//      `--recommend requests:0.1%` (its further passes keep 16 buckets per key).
//
// Logs are generated (seeded, deterministic) straight into a temporary folder, a megabyte at a
// time, and deleted after use. `measureReplay()` returns the figures for bench/run.mjs.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// In cargo's own target directory (CARGO_TARGET_DIR when set, else target/), as cargo metadata says.
const TARGET_DIR = JSON.parse(spawnSync('cargo', ['metadata', '--no-deps', '--format-version', '1'], {
  cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26,
}).stdout).target_directory;
const BIN = join(TARGET_DIR, 'release', 'bucketlab');
const GOACCESS = '/usr/bin/goaccess';
const TIME = '/usr/bin/time';
const MB = 1_000_000;
const POLICY = ['--capacity', '10', '--refill-rate', '5'];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** mulberry32: a small seeded generator, the same numbers on every run. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n) => String(n).padStart(2, '0');
/** `[14/Nov/2023:22:13:00 +0000]` for epoch seconds. */
function stamp(seconds) {
  const d = new Date(seconds * 1000);
  return `[${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000]`;
}

const PATHS = ['/', '/api/v1/items', '/api/v1/items/42', '/search', '/login', '/static/app.js', '/img/logo.png'];
const AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'curl/8.5.0',
  'python-requests/2.31.0',
  'Googlebot/2.1 (+http://www.google.com/bot.html)',
];

/**
 * Writes a combined log to `path` until it has `lines` lines or `bytes` bytes: `keys` clients
 * (three in four IPv4, the rest IPv6), each appearing once in the first `keys` lines, then drawn
 * with a popularity falling as 1/rank; 1,000 requests a second. Returns { lines, bytes, keys }.
 */
export function generateCombinedLog(path, { lines = Infinity, bytes = Infinity, keys, seed = 1 }) {
  const rng = random(seed);
  const clients = Array.from({ length: keys }, (_, i) =>
    i % 4 === 3 ? `2001:db8:${(i >> 16).toString(16)}::${(i & 0xffff).toString(16)}` : `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  );
  const logKeys = Math.log(keys + 1);
  const fd = openSync(path, 'w');
  let written = 0;
  let count = 0;
  let chunk = '';
  let second = -1;
  let time = '';
  try {
    while (count < lines && written + chunk.length < bytes) {
      const now = 1_700_000_000 + Math.floor(count / 1000);
      if (now !== second) {
        second = now;
        time = stamp(now);
      }
      const client = count < keys ? clients[count] : clients[Math.min(keys - 1, Math.floor(Math.exp(rng() * logKeys)) - 1)];
      const path = PATHS[Math.floor(rng() * PATHS.length)];
      const status = rng() < 0.9 ? 200 : 404;
      const size = Math.floor(rng() * 50_000);
      const agent = AGENTS[Math.floor(rng() * AGENTS.length)];
      chunk += `${client} - - ${time} "GET ${path}?page=${count % 97} HTTP/1.1" ${status} ${size} "https://example.org/" "${agent}"\n`;
      count += 1;
      if (chunk.length >= MB) {
        written += writeSync(fd, chunk);
        chunk = '';
      }
    }
    written += writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return { lines: count, bytes: written, keys };
}

/** Runs a command with its output thrown away; returns wall-clock milliseconds. */
function timed(cmd, args) {
  const start = performance.now();
  // goaccess reports its progress on stderr: room for it.
  const run = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  return ms;
}

/** The command's --json report on `file`, checked. */
function report(file, extra = []) {
  const run = spawnSync(BIN, ['replay', ...POLICY, '--json', ...extra, file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`bucketlab replay failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** Peak resident memory of `bucketlab replay … file`, in MB (10^6 bytes), from GNU time. */
function peakRss(file, extra = []) {
  const run = spawnSync(TIME, ['-f', '%M', BIN, 'replay', ...POLICY, '--json', ...extra, file], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (run.status !== 0) throw new Error(`bucketlab replay under ${TIME} failed (${run.status}): ${run.stderr}`);
  const kib = Number(run.stderr.trim().split('\n').at(-1));
  return (kib * 1024) / MB;
}

function build(log) {
  log('replay: cargo build --release --bin bucketlab');
  const run = spawnSync('cargo', ['build', '--release', '--quiet', '--bin', 'bucketlab'], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`cargo build --bin bucketlab failed: ${run.stderr.slice(-800)}`);
  for (const tool of [GOACCESS, TIME]) {
    if (spawnSync(tool, ['--version']).error) throw new Error(`${tool} is missing: scripts/setup.sh --bench installs it`);
  }
  return spawnSync(GOACCESS, ['--version'], { encoding: 'utf8' }).stdout.match(/[\d.]+\d/)?.[0] ?? '?';
}

/**
 * Returns { goaccess (its version), throughput: { lines, bytes, keys, runs, oursMs, goaccessMs,
 * oursRuns, goaccessRuns }, memory: [{ label, lines, bytes, keys, rssMb, extra }] }.
 */
export function measureReplay({ runs = 3, log = () => {} } = {}) {
  const goaccess = build(log);
  const dir = mkdtempSync(join(tmpdir(), 'bucketlab-replay-'));
  try {
    const file = join(dir, 'access.log');
    log('replay: generating a 1,000,000-line combined log');
    const small = generateCombinedLog(file, { lines: 1_000_000, keys: 10_000 });
    const checked = report(file);
    if (checked.requests !== small.lines || checked.malformed !== 0 || checked.keys !== small.keys) {
      throw new Error(`bucketlab read ${checked.requests} requests, ${checked.malformed} malformed, ${checked.keys} keys`);
    }
    timed('cat', [file]); // into the page cache, for both
    const oursRuns = [];
    const goaccessRuns = [];
    for (let i = 0; i < runs; i++) {
      log(`replay: throughput run ${i + 1}/${runs}`);
      oursRuns.push(timed(BIN, ['replay', ...POLICY, '--json', file]));
      goaccessRuns.push(timed(GOACCESS, ['--log-format=COMBINED', '-o', '/dev/null', file]));
    }
    const throughput = { ...small, runs, oursMs: median(oursRuns), goaccessMs: median(goaccessRuns), oursRuns, goaccessRuns };

    const memory = [];
    const measure = (label, options, extra = []) => {
      log(`replay: peak RSS, ${label}`);
      const shape = generateCombinedLog(file, options);
      memory.push({ label, ...shape, rssMb: peakRss(file, extra), extra: extra.join(' ') });
    };
    measure('100 MB, 1,000 keys', { bytes: 100 * MB, keys: 1_000 });
    measure('100 MB, 10,000 keys', { bytes: 100 * MB, keys: 10_000 });
    measure('100 MB, 10,000 keys, --recommend requests:0.1%', { bytes: 100 * MB, keys: 10_000 }, ['--recommend', 'requests:0.1%']);
    measure('1 GB, 10,000 keys', { bytes: 1000 * MB, keys: 10_000 });
    return { goaccess, throughput, memory };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = measureReplay({ runs: Number(process.env.RUNS ?? 3), log: (m) => console.error(m) });
  const t = r.throughput;
  const ms = (v) => `${v.toFixed(0)} ms`;
  console.log(`${t.lines.toLocaleString('en')} combined lines (${(t.bytes / MB).toFixed(0)} MB, ${t.keys.toLocaleString('en')} keys), median of ${t.runs} runs\n`);
  console.log('| command | median | runs |');
  console.log('| --- | ---: | --- |');
  console.log(`| bucketlab replay --json | ${ms(t.oursMs)} | ${t.oursRuns.map((v) => v.toFixed(0)).join(', ')} |`);
  console.log(`| goaccess ${r.goaccess} --log-format=COMBINED -o /dev/null | ${ms(t.goaccessMs)} | ${t.goaccessRuns.map((v) => v.toFixed(0)).join(', ')} |`);
  console.log(`\nratio bucketlab / goaccess: ${(t.oursMs / t.goaccessMs).toFixed(2)}×\n`);
  console.log('| log | lines | peak RSS |');
  console.log('| --- | ---: | ---: |');
  for (const m of r.memory) console.log(`| ${m.label} | ${m.lines.toLocaleString('en')} | ${m.rssMb.toFixed(1)} MB |`);
}
