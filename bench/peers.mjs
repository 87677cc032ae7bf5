// Measurements that run outside the browser session of bench/run.mjs:
// - the native decision cost of the core against the `governor` crate (`cargo bench`);
// - Lighthouse (12.2.3, mobile preset, Debian's Chromium) scores of the lesson page.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const LIGHTHOUSE = 'lighthouse@12.2.3';

/** Runs `cargo bench --bench decision` and returns its BENCH_JSON figures. */
export function nativeDecisionCost(log) {
  log('native: cargo bench --bench decision (the core vs governor)');
  const run = spawnSync('cargo', ['bench', '--quiet', '--bench', 'decision'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  const line = (run.stdout ?? '').split('\n').find((l) => l.startsWith('BENCH_JSON '));
  if (run.status !== 0 || !line) {
    throw new Error(`cargo bench --bench decision failed (${run.status}): ${(run.stderr ?? '').slice(-800)}`);
  }
  return JSON.parse(line.slice('BENCH_JSON '.length));
}

/** Runs a command without blocking this process (the page server lives in it). */
function run(cmd, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

/**
 * Lighthouse scores (0..100 per category) of `url`, one run per `runs`, median per category.
 * Lighthouse is fetched by npm on first use (it is large, and only the benchmark needs it).
 */
export async function lighthouseScores(url, runs, log) {
  const perRun = [];
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'bucketlab-lh-'));
    const out = join(dir, 'report.json');
    log(`lighthouse run ${i + 1}/${runs}: ${url}`);
    const result = await run(
      'npm',
      [
        'exec', '--yes', `--package=${LIGHTHOUSE}`, '--',
        'lighthouse', url,
        '--output=json', `--output-path=${out}`, '--quiet',
        '--only-categories=performance,accessibility,best-practices,seo',
        '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
      ],
      { cwd: ROOT, env: { ...process.env, CHROME_PATH: '/usr/bin/chromium' } },
    );
    try {
      if (result.status !== 0) throw new Error(`lighthouse failed (${result.status}): ${result.stderr.slice(-800)}`);
      const report = JSON.parse(readFileSync(out, 'utf8'));
      perRun.push(Object.fromEntries(Object.entries(report.categories).map(([k, c]) => [k, Math.round(c.score * 100)])));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return Object.fromEntries(Object.keys(perRun[0]).map((k) => [k, median(perRun.map((r) => r[k]))]));
}
