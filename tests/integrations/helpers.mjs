// Shared by the platform tests: running a tool and failing with its output, copying a fixture to a
// scratch folder, and driving a <bucket-lab> element the way a reader does.
import { execFile } from 'node:child_process';
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const ROOT = new URL('../../', import.meta.url).pathname;
export const FIXTURES = join(ROOT, 'tests', 'fixtures');

/**
 * Runs `command` and resolves to { code, stdout, stderr } whatever the exit status (the caller
 * asserts on it); a missing command rejects with what installs it.
 */
export async function run(command, args, options = {}) {
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, { maxBuffer: 64 << 20, ...options });
    return { code: 0, stdout, stderr };
  } catch (error) {
    if (error.code === 'ENOENT') throw new Error(`${command} is not installed: run scripts/setup.sh --test`);
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

/** Like run(), but a non-zero exit is an error carrying the tool's output. */
export async function mustRun(command, args, options = {}) {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.code}:\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

/** A fresh copy of tests/fixtures/`name` in a temporary folder; resolves to its path. */
export async function copyFixture(name) {
  const dir = join(await mkdtemp(join(tmpdir(), `bucketlab-${name}-`)), name);
  await cp(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

/**
 * Clicks the send button of the element matched by `element` (a CSS selector) until a request is
 * refused, as a reader would: with its clock paused, a full bucket of `capacity` tokens admits
 * exactly `capacity` requests of cost 1 and refuses the next with a 429. Resolves to the status
 * line of each click.
 */
export async function sendUntilRefused(page, element, capacity) {
  const status = page.locator(`${element} .bl-status`);
  const lines = [];
  for (let i = 1; i <= capacity + 1; i++) {
    const before = await page.locator(`${element} .bl-counter`).textContent();
    await page.locator(`${element} .bl-send`).click();
    // Each click redraws the counter or, once empty, the status; wait for the new state.
    await page.waitForFunction(([sel, old, n, last]) => {
      const el = document.querySelector(sel);
      const text = (s) => el?.shadowRoot?.querySelector(s)?.textContent ?? '';
      return n === last ? /429/.test(text('.bl-status')) : text('.bl-counter') !== old;
    }, [element, before, i, capacity + 1]);
    lines.push(await status.textContent());
  }
  return lines;
}
