// The replay's worker (a module worker): reads the chosen file, or the sample it makes, in the
// pieces the browser hands out, and feeds them to the core (bucketlab_replay's ReplayJob), pass
// after pass. The file is only ever read here; nothing is sent over the network.
//
// Messages in:  { type: 'run', id, file?, sample?: { seed, lines }, options }
//               { type: 'trace', id, key }   (after a run: follow another client)
// (The page cancels a run by terminating the worker.)
// Messages out: { type: 'progress', id, pass, read, size, memory }   (memory: the wasm's bytes)
//               { type: 'pass', id, pass, ms, memory }                 (a pass has ended)
//               { type: 'done', id, outcome } | { type: 'failed', id, error }
//               (error: { kind: 'setup' | 'options', option, value, why: { code, … }, remedy }, a
//               setting refused by the log or by itself, or { kind: 'input' | 'options', why: text },
//               or { kind: 'broken', why: text }: the module trapped, out of memory most likely, and
//               this worker is done for, or { kind: 'download', why: text }: the wasm did not
//               arrive, and the next message asks for it again)
import init, { ReplayJob, sampleLog } from '../../pkg/bucketlab_replay.js';

let ready = null;
let memory = null;
let job = null;
let source = null;
// One message at a time: a message that came during another's passes (a second client's
// timeline asked for at once) waits for it, rather than feeding the same job and source.
let queue = Promise.resolve();

self.onmessage = ({ data }) => {
  queue = queue.then(() => handle(data));
};

async function handle(data) {
  try {
    // Its first download can take seconds on a slow connection: said, rather than "0% read".
    if (!ready) self.postMessage({ type: 'loading', id: data.id });
    ready ??= init().then((wasm) => { memory = wasm.memory; });
    await ready;
  } catch (error) {
    // The wasm did not arrive (the network, or a new release of the site replaced it): said as
    // such, and forgotten, so that the next run fetches it again.
    ready = null;
    self.postMessage({ type: 'failed', id: data.id, error: { kind: 'download', why: String(error?.message ?? error) } });
    return;
  }
  try {
    if (data.type === 'run') {
      job?.free();
      job = null;
      source = data.file ?? new Blob([sampleLog(data.sample.seed, data.sample.lines)]);
      job = new ReplayJob(data.options);
      await passes(data.id);
      finish(data.id);
    } else if (data.type === 'trace' && job) {
      if (job.trace(data.key)) await passes(data.id);
      finish(data.id);
    }
  } catch (error) {
    // A setting the core refused carries its reason as data (`setup`: option, value, why's code)
    // for the page to word; any other error only its message.
    // A trap (a log whose clients outgrow the memory a tab can give) leaves the module's state
    // broken: the page drops this worker and the next run starts a new one.
    const setup = error?.setup;
    const why = String(error?.message ?? error);
    const refused = setup ? { ...setup, kind: 'options' } : { kind: error instanceof WebAssembly.RuntimeError ? 'broken' : 'options', why };
    self.postMessage({ type: 'failed', id: data.id, error: refused });
  }
}

/** Feeds the source to the job until it needs no further pass. */
async function passes(id) {
  let pass = 0;
  let again = true;
  while (again) {
    pass += 1;
    const start = performance.now();
    const reader = source.stream().getReader();
    let read = 0;
    let shown = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      read += value.byteLength;
      const going = job.feed(value);
      if (read - shown > source.size / 100 || !going) {
        shown = read;
        self.postMessage({ type: 'progress', id, pass, read, size: source.size, memory: memory.buffer.byteLength });
      }
      if (!going) {
        await reader.cancel();
        break;
      }
    }
    again = job.endOfInput();
    self.postMessage({ type: 'pass', id, pass, ms: performance.now() - start, memory: memory.buffer.byteLength });
  }
}

function finish(id) {
  const result = JSON.parse(job.result());
  if (result.outcome) self.postMessage({ type: 'done', id, outcome: result.outcome });
  else self.postMessage({ type: 'failed', id, error: result.error });
}
