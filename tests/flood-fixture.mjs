// The native flood runs of tests/fixtures/flood-runs.txt (written by tests/flood_runs.rs), read for
// the Node and e2e tests that compare the wasm build and the page with them.
import { readFileSync } from 'node:fs';

/** The layer combinations by their fixture names, as simulateFlood's `layers` option. */
export const LAYER_SETS = {
  none: { edge: false, perIp: false, global: false },
  ip: { edge: false, perIp: true, global: false },
  'ip+global': { edge: false, perIp: true, global: true },
  'edge+ip': { edge: true, perIp: true, global: false },
  'edge+ip+global': { edge: true, perIp: true, global: true },
};

/** Map of '10000 ip+global' → { summary: { originPeak: 1000, … }, origin: [per second] }. */
export function readFloodFixture() {
  const runs = new Map();
  const text = readFileSync(new URL('./fixtures/flood-runs.txt', import.meta.url), 'utf8');
  for (const line of text.trim().split('\n')) {
    const [head, values] = line.split(': ');
    if (head.endsWith(' origin')) {
      runs.get(head.slice(0, -' origin'.length)).origin = values.split(' ').map(Number);
    } else {
      const summary = Object.fromEntries(values.split(' ').map((pair) => {
        const [name, value] = pair.split('=');
        return [name, Number(value)];
      }));
      runs.set(head, { summary });
    }
  }
  return runs;
}
